"""Cross-cutting checks for the three GitHub tools: byte-identical
repeat runs, and a 300-token budget that fits with exact `omitted` counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sofia.output.budget import cost
from sofia.output.jsonfmt import compact
from tests.github.fakegh import FakeGh
from tests.github.helpers import (
    NOW_2026_06_14,
    VIEWER,
    branches_query,
    github_repo,
    prs_query,
    record_api_repo,
)
from tests.helpers import call


def run_tool(tool: str, tmp_path: Path, budget: int | None) -> dict[str, Any]:
    """The tool called in-process on the recordings, on the branch fixture's day (acme/api for ci)."""
    root = tmp_path / "api" if tool == "github_ci" else tmp_path
    result: dict[str, Any] = call(tool, {}, root, budget, clock=lambda: NOW_2026_06_14)
    return result


@pytest.fixture
def recorded(fake_gh: FakeGh, tmp_path: Path) -> FakeGh:
    fake_gh.add(VIEWER, stdout="dev\n")
    fake_gh.add(prs_query(), stdout_file="graphql_prs.json")
    fake_gh.add(branches_query(), stdout_file="graphql_branches.json")
    record_api_repo(fake_gh, github_repo(tmp_path / "api").path)
    return fake_gh


ROWS = {"github_ci": "runs", "github_pr": "prs", "github_branches": "branches"}


@pytest.mark.parametrize("tool", sorted(ROWS))
def test_repeat_runs_are_byte_identical(tool: str, recorded: FakeGh, tmp_path: Path) -> None:
    assert compact(run_tool(tool, tmp_path, None)) == compact(run_tool(tool, tmp_path, None))


@pytest.mark.parametrize("tool", sorted(ROWS))
def test_300_token_budget(tool: str, recorded: FakeGh, tmp_path: Path) -> None:
    rows = ROWS[tool]
    full = run_tool(tool, tmp_path, None)
    small = run_tool(tool, tmp_path, 300)
    assert cost(small) <= 300 or any("budget" in note for note in small["notes"])
    assert len(small[rows]) + small.get("omitted", {}).get(rows, 0) == len(full[rows])
    assert small["summary"] == full["summary"]
