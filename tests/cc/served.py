"""What the tests over every served tool call and check for the `cc_*` tools (see tests/served.py)."""

from __future__ import annotations

from tests.served import Case, Row

ROWS = {
    "cc_ls": Row({}, ("sessions",), lambda p: "acme-api" in p),
    "cc_show": Row({}, ("session",), lambda p: "fix/retry-ctx" in p),
    "cc_resume": Row({}, ("goal",), lambda p: "Fix the flaky TestRetry" in p),
    "cc_prompts": Row({}, ("prompts",), lambda p: "Also run the whole package" in p),
    "cc_bash": Row({}, ("commands",), lambda p: '"git status"' in p),
    "cc_candidates": Row({}, ("heavy_tools",), lambda p: '"Grep"' in p),
}
CASES = [
    Case(
        "cc_ls",
        {"projects_dir": "claude", "limit": 1},
        ["cc", "ls", "--projects-dir", "claude", "--limit", "1"],
        "sessions: showing 1 of 3 sessions (limit=1); pass limit=0 for all",
        "sessions: showing 1 of 3 sessions (--limit 1); pass --limit 0 for all",
    ),
    Case(
        "cc_show",
        {"session": "nomatch", "projects_dir": "claude"},
        ["cc", "show", "nomatch", "--projects-dir", "claude"],
        "a project name or a .jsonl path; cc_ls lists sessions)",
        "a project name or a .jsonl path; sf cc ls lists sessions)",
        error=True,
    ),
    Case(
        "cc_resume",
        {"session": "nomatch", "projects_dir": "claude"},
        ["cc", "resume", "nomatch", "--projects-dir", "claude"],
        "; cc_ls lists sessions)",
        "; sf cc ls lists sessions)",
        error=True,
    ),
    Case(
        "cc_prompts",
        {"session": "last", "projects_dir": "claude"},
        ["cc", "prompts", "last", "--projects-dir", "claude"],
        "prompts 3–11 follow; call again with offset=2",
        "prompts 3–11 follow; call again with --offset 2",
        budget=150,
    ),
    Case(
        "cc_bash",
        {"session": "last", "projects_dir": "claude", "limit": 1},
        ["cc", "bash", "last", "--projects-dir", "claude", "--limit", "1"],
        "(limit=1); pass limit=0 for all",
        "(--limit 1); pass --limit 0 for all",
    ),
    Case(
        "cc_candidates",
        {"projects_dir": "claude", "limit": 1, "min_count": 1},
        ["cc", "candidates", "--projects-dir", "claude", "--limit", "1", "--min-count", "1"],
        "repeated_reads: showing 1 of 3 reads (limit=1); pass limit=0 for all",
        "repeated_reads: showing 1 of 3 reads (--limit 1); pass --limit 0 for all",
    ),
    Case(
        "cc_ls",
        {"projects_dir": "claude", "limit": 1},
        ["cc", "ls", "--projects-dir", "claude", "--limit", "1"],
        "(limit=1); pass limit=0 for all",
        "(--limit 1); pass --limit 0 for all",
    ),
]
