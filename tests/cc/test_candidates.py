"""cc_candidates: where a deterministic tool would pay off, across sessions."""

from __future__ import annotations

from pathlib import Path

from sofia.providers.cc import candidates
from tests.cc import transcripts
from tests.cc.conftest import Call

EXPECTED_AB = {
    "scanned_sessions": 2,
    "heavy_tools": [
        {
            "tool": "Grep",
            "calls": 1,
            "result_tokens": 1600,
            "suggestion": "sofia grep (hits with enclosing function)",
        },
        {"tool": "Bash", "calls": 5, "result_tokens": 100, "suggestion": "see repeated_commands"},
        {
            "tool": "Read",
            "calls": 3,
            "result_tokens": 27,
            "suggestion": "sofia code (structure before full reads)",
        },
        {"tool": "Edit", "calls": 1, "result_tokens": 18, "suggestion": ""},
    ],
    "repeated_commands": [{"count": 3, "sessions": 2, "category": "git", "command": "git status"}],
    "repeated_reads": [
        {"reads": 2, "sessions": 1, "path": "/home/dev/src/acme-api/internal/http/client_test.go"}
    ],
    "redactions": 0,
    "notes": [transcripts.MALFORMED_A],
}


def test_a_and_b(call: Call, ab_root: Path) -> None:
    assert call(candidates, projects_dir=str(ab_root)) == EXPECTED_AB


def test_one_session(call: Call, ab_root: Path) -> None:
    result = call(candidates, session="3f2a", projects_dir=str(ab_root))
    assert [(r["tool"], r["calls"], r["result_tokens"]) for r in result["heavy_tools"]] == [
        ("Grep", 1, 1600),
        ("Bash", 4, 92),
        ("Read", 2, 22),
        ("Edit", 1, 18),
    ]
    assert result["scanned_sessions"] == 1


def test_project_and_since(call: Call, ab_root: Path) -> None:
    web = call(candidates, projects_dir=str(ab_root), project="web")
    assert web["scanned_sessions"] == 1
    assert web["repeated_commands"] == web["repeated_reads"] == []
    recent = call(candidates, projects_dir=str(ab_root), since="1h")
    assert recent["scanned_sessions"] == 0
    assert recent["heavy_tools"] == recent["repeated_commands"] == recent["repeated_reads"] == []


def test_min_count_one_lists_singletons(call: Call, ab_root: Path) -> None:
    result = call(candidates, projects_dir=str(ab_root), min_count=1)
    assert len(result["repeated_commands"]) == 3
    assert result["repeated_reads"][-1] == {
        "reads": 1,
        "sessions": 1,
        "path": "/home/dev/src/web/package.json",
    }


def test_subagent_activity_counts(call: Call, full_root: Path) -> None:
    result = call(candidates, session="ops", projects_dir=str(full_root))
    assert {
        "reads": 2,
        "sessions": 1,
        "path": "/home/dev/src/ops-tools/.github/workflows/deploy.yml",
    } in result["repeated_reads"]
    read = next(r for r in result["heavy_tools"] if r["tool"] == "Read")
    assert read["calls"] == 2  # both reads were made by the subagent


def test_limit_zero_returns_all_and_a_limit_counts_the_rest(call: Call, full_root: Path) -> None:
    everything = call(candidates, projects_dir=str(full_root), min_count=1, limit=0)
    assert "omitted" not in everything
    limited = call(candidates, projects_dir=str(full_root), min_count=1, limit=2)
    assert len(limited["repeated_commands"]) == 2
    commands, reads = len(everything["repeated_commands"]), len(everything["repeated_reads"])
    assert limited["omitted"] == {"repeated_commands": commands - 2, "repeated_reads": reads - 2}
    assert limited["notes"][-2:] == [
        f"repeated_commands: showing 2 of {commands} commands (limit=2); pass limit=0 for all",
        f"repeated_reads: showing 2 of {reads} reads (limit=2); pass limit=0 for all",
    ]


def test_budget_shrinks_the_repeated_lists_alternately(call: Call, full_root: Path) -> None:
    full = call(candidates, projects_dir=str(full_root), min_count=1, limit=0)
    cut = call(candidates, projects_dir=str(full_root), min_count=1, limit=0, budget=500)
    assert cut["heavy_tools"] == full["heavy_tools"]
    kept_commands = len(cut["repeated_commands"])
    kept_reads = len(cut["repeated_reads"])
    dropped_commands = len(full["repeated_commands"]) - kept_commands
    dropped_reads = len(full["repeated_reads"]) - kept_reads
    assert dropped_commands > 0
    assert dropped_commands - dropped_reads in (0, 1) or kept_reads == 0
    assert cut["repeated_commands"] == full["repeated_commands"][:kept_commands]
    assert cut["omitted"] == {
        k: v for k, v in {"repeated_commands": dropped_commands, "repeated_reads": dropped_reads}.items() if v
    }
    assert (
        f"repeated_commands: showing {kept_commands} of {len(full['repeated_commands'])} commands "
        "(budget 500 tok); raise min_count or narrow with project/since"
    ) in cut["notes"]
