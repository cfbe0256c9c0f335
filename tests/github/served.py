"""What the tests over every served tool call and check for the `github_*` tools (see tests/served.py)."""

from __future__ import annotations

from tests.served import SMALL, Case, Row

ROWS = {
    "github_ci": Row({"root": "api"}, ("runs",), lambda p: "9123" in p),
    "github_pr": Row({}, ("prs",), lambda p: "acme/b" in p),
    "github_branches": Row({}, ("branches",), lambda p: "feat/done" in p),
}
CASES = [
    Case(
        "github_ci",
        {"root": "plain"},
        ["github", "ci", "--root", "plain"],
        "or a tree holding cloned packages as root)",
        "or a tree holding cloned packages as --root)",
        error=True,
    ),
    Case(
        "github_pr",
        {"limit": 1},
        ["github", "pr", "--limit", "1"],
        "authored: 3 open PRs, the first 1 shown; raise limit to see more",
        "authored: 3 open PRs, the first 1 shown; raise --limit to see more",
    ),
    Case(
        "github_branches",
        {"refs": 1},
        ["github", "branches", "--refs", "1"],
        "pass owner or lower refs",
        "pass --owner or lower --refs",
        budget=SMALL,
    ),
]
