"""cc_show: the one-screen digest."""

from __future__ import annotations

from pathlib import Path

from sofia.providers.cc import show
from tests.cc import transcripts
from tests.cc.conftest import Call, context
from tests.cc.transcripts import Transcript, text, tool_result, tool_use, usage

EXPECTED_A = {
    "session": {
        "id": "3f2a9c1e",
        "full_id": transcripts.SID_A,
        "project": "acme-api",
        "cwd": "/home/dev/src/acme-api",
        "branch": "fix/retry-ctx",
        "model": "claude-sonnet-4-5-20250929",
        "version": "2.0.31",
        "title": "Fix flaky TestRetry ctx handling",
        "start": "2026-03-02T09:00:05Z",
        "end": "2026-03-02T09:12:30Z",
        "duration": "12m",
        "messages": 18,
        "size_bytes": 20705,
        "api_errors": 1,
        "malformed_lines": 1,
    },
    "tokens": {"input": 23, "output": 772, "cache_read": 89900, "cache_create": 3850},
    "prompts_total": 2,
    "prompts": [
        {"i": 1, "text": "Fix the flaky TestRetry in internal/http and make CI green."},
        {"i": 2, "text": "Also run the whole package and commit. Use a conventional commit message."},
    ],
    "injected": {"compact_summary": 1, "interrupt": 1, "system_reminder": 1},
    "tools": [
        {"tool": "Bash", "calls": 4, "result_tokens": 92},
        {"tool": "Read", "calls": 2, "result_tokens": 22},
        {"tool": "Edit", "calls": 1, "result_tokens": 18},
        {"tool": "Grep", "calls": 1, "result_tokens": 1600},
    ],
    "unattributed_result_tokens": 13,
    "bash": [{"category": "git", "calls": 2}, {"category": "test", "calls": 2}],
    "files": [
        {"path": "internal/http/client_test.go", "reads": 2, "edits": 0, "writes": 0},
        {"path": "internal/http/client.go", "reads": 0, "edits": 1, "writes": 0},
    ],
    "fat_results": [{"tokens": 1600, "tool": "Grep", "brief": "backoff"}],
    "prs": [{"number": 128, "url": "https://github.com/acme/api/pull/128"}],
    "subagents": {
        "count": 1,
        "tool_calls": 0,
        "output_tokens": 0,
        "tasks": [
            {
                "agent": "inline",
                "task": "Find every caller of doWithRetry and report file:line.",
                "tool_calls": 0,
                "output_tokens": 0,
            }
        ],
    },
    "last_text": "Committed 1a2b3c4 on fix/retry-ctx. Next: push the branch and open a PR.",
    "redactions": 0,
    "notes": [transcripts.MALFORMED_A],
}


def test_session_a(call: Call, ab_root: Path) -> None:
    assert call(show, session="3f2a", projects_dir=str(ab_root)) == EXPECTED_A


def test_session_b(call: Call, ab_root: Path) -> None:
    result = call(show, session="web", projects_dir=str(ab_root))
    assert result["tokens"] == {"input": 12, "output": 70, "cache_read": 1050, "cache_create": 1000}
    assert result["files"] == [{"path": "package.json", "reads": 1, "edits": 0, "writes": 0}]
    assert result["session"]["model"] == "claude-haiku-4-5-20251001"
    assert result["session"]["duration"] == "30s"
    assert result["subagents"] == {"count": 0, "tool_calls": 0, "output_tokens": 0, "tasks": []}


def test_subagent_files_reach_only_the_subagent_section(call: Call, full_root: Path, tmp_path: Path) -> None:
    with_agents = call(show, session="c0ff", projects_dir=str(full_root))
    alone_root = tmp_path / "alone"
    (alone_root / transcripts.DIR_C).mkdir(parents=True)
    (alone_root / transcripts.DIR_C / f"{transcripts.SID_C}.jsonl").write_bytes(transcripts.session_c())
    alone = call(show, session="c0ff", projects_dir=str(alone_root))
    assert (
        with_agents["tokens"]
        == alone["tokens"]
        == {"input": 19, "output": 320, "cache_read": 79500, "cache_create": 3270}
    )
    assert with_agents["tools"] == alone["tools"]
    assert with_agents["subagents"] == {
        "count": 2,
        "tool_calls": 5,
        "output_tokens": 59,
        "tasks": [
            {"agent": "a1b2c3d4", "task": "Audit the CI secrets.", "tool_calls": 4, "output_tokens": 50},
            {"agent": "5e3a1b2c", "task": "List the deploy hosts.", "tool_calls": 1, "output_tokens": 9},
        ],
    }
    assert alone["subagents"]["count"] == 0


def test_session_c_odd_cases(call: Call, full_root: Path) -> None:
    result = call(show, session="ops-tools", projects_dir=str(full_root))
    assert result["session"]["title"] == "Rotate ops credentials"
    texts = [p["text"] for p in result["prompts"]]
    assert texts[0] == "Rotate the deploy credentials in deploy.sh and the CI config."
    assert texts[1].startswith('<div class="banner">')
    assert texts[-1].startswith("A prompt whose timestamp has no zone")
    assert result["prompts_total"] == 11
    assert result["session"]["malformed_lines"] == 1  # the non-object line; BOM and CRLF lines parse
    assert result["session"]["start"] == "2026-03-02T13:00:00Z"
    assert {"path": "notes/rotation.ipynb", "reads": 0, "edits": 0, "writes": 1} in result["files"]
    assert {"path": "deploy.sh", "reads": 0, "edits": 1, "writes": 0} in result["files"]


def _write(root: Path, transcript: Transcript) -> Path:
    path = root / "-home-dev-src-gen" / f"{transcript.session_id}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(transcript.data())
    return path


def _generated(prompts: int = 0, files: int = 0, results: tuple[str, ...] = ()) -> Transcript:
    t = Transcript("9e9e9e9e-0000-4000-8000-000000000000", "/home/dev/src/gen", "2.0.31")
    for n in range(prompts):
        t.user(f"p{n}", None, f"2026-03-02T10:{n // 60:02d}:{n % 60:02d}.000Z", f"prompt number {n + 1}")
    for n in range(files):
        t.assistant(
            f"f{n}",
            None,
            "2026-03-02T11:00:00.000Z",
            f"msg_f{n}",
            [tool_use(f"toolu_f{n}", "Read", {"file_path": f"/home/dev/src/gen/f{n:02d}.go"})],
            usage(1, 0, 0, 1),
        )
    for n, content in enumerate(results):
        t.assistant(
            f"r{n}",
            None,
            "2026-03-02T11:00:00.000Z",
            f"msg_r{n}",
            [tool_use(f"toolu_r{n}", "Bash", {"command": f"cat big{n}"})],
            usage(1, 0, 0, 1),
        )
        t.user(f"ru{n}", None, "2026-03-02T11:00:01.000Z", [tool_result(f"toolu_r{n}", content)])
    return t


def test_sixteen_prompts_keep_first_ten_and_last_five(call: Call, tmp_path: Path) -> None:
    path = _write(tmp_path, _generated(prompts=16))
    result = call(show, session=str(path))
    assert [p["i"] for p in result["prompts"]] == [*range(1, 11), *range(12, 17)]
    assert result["prompts"][10]["text"] == "prompt number 12"
    assert result["omitted"] == {"prompts": 1}
    assert result["notes"][-1] == (
        "prompts: showing 15 of 16 prompts (first 10 and last 5); cc_prompts returns them verbatim"
    )


def test_twenty_one_files_show_twenty(call: Call, tmp_path: Path) -> None:
    result = call(show, session=str(_write(tmp_path, _generated(files=21))))
    assert len(result["files"]) == 20
    assert result["files"][0]["path"] == "f00.go"
    assert result["omitted"] == {"files": 1}
    assert not any(note.startswith("files:") for note in result["notes"])  # a fixed cap, counted only


def test_fat_result_threshold_counts_estimated_tokens(call: Call, tmp_path: Path) -> None:
    results = ("a" * 6000, "b" * 5997, "я" * 1500, [text("c" * 5997)])
    result = call(show, session=str(_write(tmp_path, _generated(results=results))))
    assert result["fat_results"] == [
        {"tokens": 1500, "tool": "Bash", "brief": "cat big0"},
        {"tokens": 1500, "tool": "Bash", "brief": "cat big2"},
        {"tokens": 1500, "tool": "Bash", "brief": "cat big3"},  # a text block ends a line: 5998 characters
    ]


def test_prompt_truncation_counts_characters(call: Call, tmp_path: Path) -> None:
    t = _generated()
    t.user("c1", None, "2026-03-02T10:00:00.000Z", "я" * 150)
    t.user("c2", None, "2026-03-02T10:00:01.000Z", "ж" * 250)
    result = call(show, session=str(_write(tmp_path, t)))
    assert result["prompts"][0]["text"] == "я" * 150
    assert result["prompts"][1]["text"] == "ж" * 199 + "…"


def test_markdown_sections(ab_root: Path) -> None:
    result = show.run(show.Params(session="3f2a", projects_dir=str(ab_root)), context())
    text = show.render(result, "md")
    assert text is not None
    assert text.startswith("# Session 3f2a9c1e — acme-api\n\n_Fix flaky TestRetry ctx handling_\n")
    for heading in (
        "## Prompts (2 of 2)",
        "## Tools",
        "## Bash by category",
        "## Files",
        "## Heaviest tool results",
        "## PRs",
        "## Subagents",
    ):
        assert heading in text
    assert "- #128 https://github.com/acme/api/pull/128" in text
    assert show.render(result, "json") is None
