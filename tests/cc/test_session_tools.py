"""cc_resume, cc_prompts and cc_bash: the single-session tools besides cc_show."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from sofia.providers.cc import bash, prompts, resume
from sofia.providers.contract import ProviderError
from tests.cc import transcripts
from tests.cc.conftest import Call
from tests.cc.transcripts import Transcript, tool_use, usage


def _write(root: Path, transcript: Transcript) -> Path:
    path = root / "-home-dev-src-gen" / f"{transcript.session_id}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(transcript.data())
    return path


def _session(*prompt_texts: str) -> Transcript:
    t = Transcript("7e7e7e7e-0000-4000-8000-000000000000", "/home/dev/src/gen", "2.0.31")
    for n, prompt in enumerate(prompt_texts):
        t.user(f"p{n}", None, f"2026-03-02T10:00:{n % 60:02d}.000Z", prompt)
    return t


def test_resume_a(call: Call, ab_root: Path) -> None:
    assert call(resume, projects_dir=str(ab_root)) == {
        "project": "acme-api",
        "branch": "fix/retry-ctx",
        "session": "3f2a9c1e",
        "updated": "2026-03-02T09:12:30Z",
        "age": "2h2m",
        "messages": 18,
        "injected": {"compact_summary": 1, "interrupt": 1, "system_reminder": 1},
        "goal": "Fix the flaky TestRetry in internal/http and make CI green.",
        "now": "Also run the whole package and commit. Use a conventional commit message.",
        "next": "Committed 1a2b3c4 on fix/retry-ctx. Next: push the branch and open a PR.",
        "todos": [],
        "files": [
            {"path": "internal/http/client.go", "reads": 0, "edits": 1, "writes": 0},
            {"path": "internal/http/client_test.go", "reads": 2, "edits": 0, "writes": 0},
        ],
        "redactions": 0,
        "notes": [transcripts.MALFORMED_A],
    }


def test_resume_single_prompt_has_no_now(call: Call, ab_root: Path) -> None:
    result = call(resume, session="web", projects_dir=str(ab_root))
    assert result["goal"] == "Bump vite to 5.4 and rebuild."
    assert result["now"] == ""


def test_resume_todos_are_the_open_items_of_the_last_todowrite(call: Call, full_root: Path) -> None:
    result = call(resume, session="ops", projects_dir=str(full_root))
    assert result["todos"] == [
        {"status": "in_progress", "content": "Rotate deploy key"},
        {"status": "pending", "content": "Update CI secrets"},
    ]


def test_resume_redacts_a_secret_in_the_last_prompt(call: Call, tmp_path: Path) -> None:
    secret = transcripts.SECRETS["github"]
    path = _write(tmp_path, _session("Start the release.", f"Push with {secret} now"))
    result = call(resume, session=str(path))
    assert result["now"] == "Push with [REDACTED:github] now"
    assert result["redactions"] == 1
    assert secret not in str(result)


def test_resume_without_human_turns(call: Call, tmp_path: Path) -> None:
    t = _session()
    t.user("m", None, "2026-03-02T10:00:00.000Z", "<system-reminder>only injected</system-reminder>")
    result = call(resume, session=str(_write(tmp_path, t)))
    assert result["goal"] == ""
    assert result["notes"] == ["no human prompts in this session"]


def test_prompts_a(call: Call, ab_root: Path) -> None:
    assert call(prompts, projects_dir=str(ab_root)) == {
        "id": "3f2a9c1e",
        "project": "acme-api",
        "total": 2,
        "offset": 0,
        "prompts": [
            {"i": 1, "text": "Fix the flaky TestRetry in internal/http and make CI green."},
            {"i": 2, "text": "Also run the whole package and commit.\nUse a conventional commit message."},
        ],
        "redactions": 0,
        "notes": [transcripts.MALFORMED_A],
    }


def test_prompts_offset(call: Call, ab_root: Path) -> None:
    assert [p["i"] for p in call(prompts, projects_dir=str(ab_root), offset=1)["prompts"]] == [2]
    assert call(prompts, projects_dir=str(ab_root), offset=5)["prompts"] == []
    with pytest.raises(ValidationError):
        prompts.Params(offset=-1)


def test_prompts_under_a_budget_continue_with_offset(call: Call, tmp_path: Path) -> None:
    long = [f"prompt {n}: " + "word " * 120 for n in range(400)]
    path = _write(tmp_path, _session(*long))
    first = call(prompts, session=str(path), budget=5000)
    again = call(prompts, session=str(path), budget=5000)
    assert first == again
    shown = len(first["prompts"])
    assert 0 < shown < 400
    assert first["omitted"] == {"prompts": 400 - shown}
    assert first["notes"][-1] == (
        f"prompts: showing {shown} of 400 prompts (budget 5000 tok); "
        f"prompts {shown + 1}–400 follow; call again with offset={shown}"
    )
    following = call(prompts, session=str(path), budget=5000, offset=shown)
    assert following["prompts"][0]["i"] == shown + 1


def test_prompts_never_include_subagent_tasks(call: Call, ab_root: Path) -> None:
    texts = [p["text"] for p in call(prompts, projects_dir=str(ab_root))["prompts"]]
    assert not any("doWithRetry" in t for t in texts)


def test_bash_a(call: Call, ab_root: Path) -> None:
    assert call(bash, projects_dir=str(ab_root)) == {
        "id": "3f2a9c1e",
        "project": "acme-api",
        "summary": [
            {"category": "git", "calls": 2, "unique": 1},
            {"category": "test", "calls": 2, "unique": 2},
        ],
        "commands": [
            {"count": 2, "category": "git", "command": "git status"},
            {"count": 1, "category": "test", "command": "go test ./internal/http/ -run TestRetry -count=5"},
            {
                "count": 1,
                "category": "test",
                "command": 'go test ./internal/http/... && git commit -am "fix(http): honour ctx in retry backoff"',
            },
        ],
        "unique_total": 3,
        "redactions": 0,
        "notes": [transcripts.MALFORMED_A],
    }


def test_bash_filters(call: Call, ab_root: Path) -> None:
    root = str(ab_root)
    assert [c["command"] for c in call(bash, projects_dir=root, min_count=2)["commands"]] == ["git status"]
    db = call(bash, projects_dir=root, category="db")
    assert db["commands"] == []
    assert db["summary"] == call(bash, projects_dir=root)["summary"]
    limited = call(bash, projects_dir=root, limit=1)
    assert len(limited["commands"]) == 1
    assert limited["omitted"] == {"commands": 2}
    assert limited["notes"][-1] == "commands: showing 1 of 3 commands (limit=1); pass limit=0 for all"
    with pytest.raises(ValidationError, match="test"):
        bash.Params(category="nope")
    with pytest.raises(ValidationError):
        bash.Params(min_count=0)


def test_bash_merges_commands_that_differ_only_in_a_secret(call: Call, tmp_path: Path) -> None:
    t = _session("go")
    for n, token in enumerate(("ghp_" + "a" * 36, "ghp_" + "b" * 36)):
        t.assistant(
            f"a{n}",
            None,
            "2026-03-02T10:01:00.000Z",
            f"msg_{n}",
            [tool_use(f"t{n}", "Bash", {"command": f"gh pr list --repo x GH={token}"})],
            usage(1, 0, 0, 1),
        )
    result = call(bash, session=str(_write(tmp_path, t)))
    assert result["commands"] == [
        {"count": 2, "category": "other", "command": "gh pr list --repo x GH=[REDACTED:github]"}
    ]
    assert result["redactions"] == 1


def test_bash_heredoc_is_one_line_unless_full(call: Call, tmp_path: Path) -> None:
    t = _session("go")
    heredoc = "cat > notes.md <<'EOF'\nline one\nline two\nEOF"
    t.assistant(
        "a",
        None,
        "2026-03-02T10:01:00.000Z",
        "msg_1",
        [tool_use("t1", "Bash", {"command": heredoc})],
        usage(1, 0, 0, 1),
    )
    path = str(_write(tmp_path, t))
    assert (
        call(bash, session=path)["commands"][0]["command"] == "cat > notes.md <<'EOF' line one line two EOF"
    )
    assert call(bash, session=path, full=True)["commands"][0]["command"] == heredoc


def test_bash_subagent_commands_are_optional(call: Call, full_root: Path) -> None:
    root = str(full_root)
    with_agents = {c["command"] for c in call(bash, session="ops", projects_dir=root)["commands"]}
    without = {
        c["command"] for c in call(bash, session="ops", projects_dir=root, subagents=False)["commands"]
    }
    assert with_agents - without == {"grep -rn secrets .github/", "cat hosts.txt"}


def test_unknown_session_file(call: Call, tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match="session file not found"):
        call(prompts, session=str(tmp_path / "nope.jsonl"))
