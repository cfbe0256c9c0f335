"""Every argument vector sofia hands gh is documented by the pinned gh manual: the vectors of
docs/github.md ("The gh commands") and every vector the rest of the suite made the fake gh receive
(this file runs last)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from sofia.providers.github import branches, ci, pr
from tests.github import ghdoc

SPEC_VECTORS = [
    ["api", "user", "--jq", ".login"],
    ["run", "list", "--limit", "5", "--json", ci.RUN_FIELDS],
    ["run", "view", "9123", "--json", "jobs"],
    ["run", "view", "9123", "--log-failed"],
    ["run", "view", "9123", "--json", ci.RUN_FIELDS],
    [
        "api",
        "graphql",
        "-f",
        f"query={pr.QUERY}",
        "-F",
        "limit=30",
        "-f",
        "authored=a",
        "-f",
        "review=r",
        "-f",
        "owned=o",
    ],
    ["api", "graphql", "-f", f"query={branches.QUERY}", "-f", "login=dev", "-F", "refLimit=50"],
    ["api", "-X", "DELETE", "repos/acme/a/git/refs/heads/feat/a%23b"],
]


@pytest.mark.parametrize("argv", SPEC_VECTORS, ids=lambda argv: " ".join(argv[:3]))
def test_spec_vectors_are_documented(argv: list[str]) -> None:
    assert ghdoc.problem(argv) == ""


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (
            ["run", "list", "--limit", "5", "--json", "databaseId,attempt"],
            "undocumented --json fields ['attempt']",
        ),
        (["run", "view", "1", "--attempt", "2"], "undocumented flag '--attempt' for gh run view"),
        (["run", "watch", "1"], "undocumented command 'run watch'"),
        (["api", "-X", "YEET", "user"], "--method 'YEET' is not an HTTP method"),
        (["api", "graphql", "-F", "limit"], "--field needs key=value, got 'limit'"),
        (["run", "list", "--limit"], "flag --limit needs a value"),
    ],
)
def test_undocumented_vectors_are_named(argv: list[str], complaint: str) -> None:
    assert ghdoc.problem(argv) == complaint


def test_every_vector_the_suite_produced_is_documented(gh_session_log: Path) -> None:
    calls = []
    if gh_session_log.exists():
        calls = [json.loads(line) for line in gh_session_log.read_text().splitlines() if line.strip()]
    produced = {tuple(call["args"]) for call in calls}
    undocumented = sorted(
        (" ".join(argv), ghdoc.problem(list(argv))) for argv in produced if ghdoc.problem(list(argv))
    )
    assert undocumented == []


@pytest.mark.skipif(
    os.environ.get("SOFIA_TEST_REAL_GH") != "1" or shutil.which("gh") is None,
    reason="set SOFIA_TEST_REAL_GH=1 with gh installed to compare the table with the live --help",
)
def test_table_matches_the_installed_gh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GH_CONFIG_DIR", str(tmp_path))
    gh = shutil.which("gh")
    assert gh is not None
    assert ghdoc.check_live(gh) == []
