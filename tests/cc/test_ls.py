"""cc_ls: the session index."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sofia.providers.cc import ls, resume, show
from sofia.providers.contract import ProviderError
from tests.cc import transcripts
from tests.cc.conftest import Call, context

ROW_A = {
    "id": "3f2a9c1e",
    "project": "acme-api",
    "title": "Fix flaky TestRetry ctx handling",
    "updated": "2026-03-02T09:12Z",
    "messages": 18,
    "prompts": 2,
    "subagents": 1,
    "out_tokens": 772,
    "cache_read": 89900,
    "branch": "fix/retry-ctx",
    "prs": 1,
}
ROW_B = {
    "id": "9d8c7b6a",
    "project": "web",
    "title": "",
    "updated": "2026-03-01T15:00Z",
    "messages": 4,
    "prompts": 1,
    "subagents": 0,
    "out_tokens": 70,
    "cache_read": 1050,
    "branch": "main",
    "prs": 0,
}


def test_a_and_b(call: Call, ab_root: Path) -> None:
    result = call(ls, projects_dir=str(ab_root))
    assert result == {
        "sessions": [ROW_A, ROW_B],
        "matched": 2,
        "stats": {"files": 2, "malformed_lines": 1, "unreadable": 0},
        "redactions": 0,
        "notes": [transcripts.MALFORMED_A],
    }


def test_project_filter_is_case_insensitive(call: Call, ab_root: Path) -> None:
    assert [r["id"] for r in call(ls, projects_dir=str(ab_root), project="API")["sessions"]] == ["3f2a9c1e"]
    assert [r["id"] for r in call(ls, projects_dir=str(ab_root), project="src-web")["sessions"]] == [
        "9d8c7b6a"
    ]
    assert call(ls, projects_dir=str(ab_root), project="nothing")["sessions"] == []


def test_limit_keeps_the_newest_and_counts_the_rest(call: Call, ab_root: Path) -> None:
    result = call(ls, projects_dir=str(ab_root), limit=1)
    assert result["sessions"] == [ROW_A]
    assert result["matched"] == 2
    assert result["omitted"] == {"sessions": 1}
    assert result["notes"] == [
        transcripts.MALFORMED_A,
        "sessions: showing 1 of 2 sessions (limit=1); pass limit=0 for all",
    ]


def test_since_skips_old_files(call: Call, ab_root: Path) -> None:
    assert call(ls, projects_dir=str(ab_root), since="1h")["sessions"] == []
    assert (
        len(call(ls, projects_dir=str(ab_root), since="1d")["sessions"]) == 2
    )  # clock: 11:15, B at 15:00 the day before
    assert [r["id"] for r in call(ls, projects_dir=str(ab_root), since="2h30m")["sessions"]] == ["3f2a9c1e"]


@pytest.mark.parametrize("value", ["1x", "7", "d7", "1.5h", "-1d", "7 d"])
def test_invalid_since_is_refused_with_the_arguments(ab_root: Path, value: str) -> None:
    """Before any transcript is looked for: the input model refuses it, in the CLI and over MCP."""
    from sofia.server.validation import validate

    params, problems = validate(ls.Params, {"projects_dir": str(ab_root / "absent"), "since": value})
    assert params is None
    assert problems == [f'since: a period such as 30m, 24h, 7d or 1h30m, not "{value}"']


def test_subagent_files_are_never_rows_and_orphans_are_named(call: Call, full_root: Path) -> None:
    result = call(ls, projects_dir=str(full_root))
    assert [r["id"] for r in result["sessions"]] == ["c0ffee00", "3f2a9c1e", "9d8c7b6a"]
    row_c = result["sessions"][0]
    assert row_c["subagents"] == 2  # the sidecar file and the project-level agent file
    assert row_c["title"] == "Rotate ops credentials"  # custom title beats the AI title
    assert result["stats"] == {"files": 3, "malformed_lines": 2, "unreadable": 0}
    assert result["notes"] == [
        "1 agent file without a session: " + str(full_root / transcripts.DIR_C / "agent-0rphan00.jsonl"),
        "2 transcript lines not followed (not a JSON object): "
        f"{transcripts.NOT_OBJECT_C}; {transcripts.TRUNCATED_A}",
    ]


def test_an_unreadable_file_is_counted_and_named(call: Call, ab_root: Path) -> None:
    loop = ab_root / transcripts.DIR_B / "loop.jsonl"
    os.symlink(loop.name, loop)  # a symlink to itself cannot be read, not even by root
    result = call(ls, projects_dir=str(ab_root))
    assert result["stats"]["unreadable"] == 1
    assert result["notes"] == [f"1 unreadable: {loop}", transcripts.MALFORMED_A]
    assert len(result["sessions"]) == 2


def test_missing_root_names_the_variable(call: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC_PROJECTS_DIR", str(tmp_path / "absent"))
    with pytest.raises(ProviderError) as error:
        call(ls)
    assert str(error.value) == (
        f"projects directory not found: {tmp_path / 'absent'} (set projects_dir or $CC_PROJECTS_DIR)"
    )


def test_root_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ab_root: Path) -> None:
    monkeypatch.setenv("CC_PROJECTS_DIR", str(ab_root))
    assert len(ls.run(ls.Params(), context())["sessions"]) == 2
    monkeypatch.delenv("CC_PROJECTS_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home" / ".claude" / "projects").mkdir(parents=True)
    assert ls.run(ls.Params(), context())["sessions"] == []
    relative = ls.run(ls.Params(projects_dir="projects"), context(root=ab_root.parent))
    assert len(relative["sessions"]) == 2


def test_empty_root(call: Call, tmp_path: Path) -> None:
    assert call(ls, projects_dir=str(tmp_path))["sessions"] == []


def test_equal_updated_orders_by_id(call: Call, tmp_path: Path) -> None:
    root = tmp_path / "p"
    data = transcripts.session_b()
    for sid in ("bbbb0000-0000-4000-8000-000000000000", "aaaa0000-0000-4000-8000-000000000000"):
        path = root / "-home-dev-src-web" / f"{sid}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.utime(path, (transcripts.MTIME_B, transcripts.MTIME_B))
    assert [r["id"] for r in call(ls, projects_dir=str(root))["sessions"]] == ["aaaa0000", "bbbb0000"]


def test_empty_transcript_uses_the_file_time(call: Call, tmp_path: Path) -> None:
    path = tmp_path / "p" / "-home-dev-empty" / "eeee0000-0000-4000-8000-000000000000.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    os.utime(path, (transcripts.MTIME_A, transcripts.MTIME_A))
    (row,) = call(ls, projects_dir=str(tmp_path / "p"))["sessions"]
    assert row["project"] == "home-dev-empty"
    assert row["updated"] == "2026-03-02T09:12Z"
    assert row["messages"] == 0


def test_markdown(ab_root: Path) -> None:
    result = ls.run(ls.Params(projects_dir=str(ab_root), limit=1), context())
    text = ls.render(result, "md")
    assert text is not None
    assert text.startswith("# Sessions (1 of 2)\n\n| id | project |")
    assert "| 3f2a9c1e | acme-api | Fix flaky TestRetry ctx handling |" in text
    assert ls.render(result, "toon") is None


def test_symlinked_project_directories_are_not_followed(call: Call, ab_root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    transcripts.write_ab(outside)
    os.symlink(outside / transcripts.DIR_B, ab_root / "-linked-project")
    assert call(ls, projects_dir=str(ab_root))["matched"] == 2


def test_since_units(call: Call, ab_root: Path) -> None:
    assert call(ls, projects_dir=str(ab_root), since="2w")["matched"] == 2
    assert call(ls, projects_dir=str(ab_root), since="90m")["matched"] == 0


def _minute_apart(root: Path, sid: str, end: str, mtime: int) -> None:
    t = transcripts.Transcript(sid, "/home/dev/src/web", "2.1.14")
    t.user("u1", None, "2026-03-02T10:00:00.000Z", f"work in {sid[:4]}")
    t.user("u2", None, end, "and finish")
    path = root / transcripts.DIR_B / f"{sid}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(t.data())
    os.utime(path, (mtime, mtime))


def test_latest_within_one_minute_is_the_same_for_ls_show_and_resume(call: Call, tmp_path: Path) -> None:
    root = tmp_path / "p"
    later, earlier = "bbbb0000-0000-4000-8000-000000000000", "aaaa0000-0000-4000-8000-000000000000"
    # same printed minute; the later activity is in the file with the older mtime
    _minute_apart(root, later, "2026-03-02T10:00:50.000Z", transcripts.MTIME_A)
    _minute_apart(root, earlier, "2026-03-02T10:00:10.000Z", transcripts.MTIME_A + 30)
    rows = call(ls, projects_dir=str(root))["sessions"]
    assert [r["updated"] for r in rows] == ["2026-03-02T10:00Z", "2026-03-02T10:00Z"]
    assert [r["id"] for r in rows] == ["bbbb0000", "aaaa0000"]
    assert call(show, projects_dir=str(root))["session"]["id"] == "bbbb0000"
    assert call(resume, projects_dir=str(root), session="last")["session"] == "bbbb0000"
    assert call(resume, projects_dir=str(root), session="web")["session"] == "bbbb0000"


def test_equal_updated_breaks_ties_on_the_file_mtime(call: Call, tmp_path: Path) -> None:
    root = tmp_path / "p"
    older_file, newer_file = "aaaa0000-0000-4000-8000-000000000000", "bbbb0000-0000-4000-8000-000000000000"
    _minute_apart(root, older_file, "2026-03-02T10:00:50.000Z", transcripts.MTIME_A)
    _minute_apart(root, newer_file, "2026-03-02T10:00:50.000Z", transcripts.MTIME_A + 5)
    assert [r["id"] for r in call(ls, projects_dir=str(root))["sessions"]] == ["bbbb0000", "aaaa0000"]
    assert call(show, projects_dir=str(root))["session"]["id"] == "bbbb0000"
    assert call(resume, projects_dir=str(root))["session"] == "bbbb0000"
