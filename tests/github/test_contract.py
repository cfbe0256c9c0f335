"""Cross-cutting checks for the three GitHub tools: byte-identical
repeat runs, and a 300-token budget that fits with exact `omitted` counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sofia.output.budget import cost
from sofia.output.jsonfmt import compact
from sofia.providers.github import branches, ci, pr
from tests.github.fakegh import FakeGh
from tests.github.helpers import (
    NOW_2026_06_14,
    VIEWER,
    branches_query,
    context,
    github_repo,
    prs_query,
    record_api_repo,
)


def _pr(fake: FakeGh, tmp_path: Path, budget: int | None) -> dict[str, Any]:
    return pr.run(pr.Params(), context(tmp_path, budget=budget))


def _branches(fake: FakeGh, tmp_path: Path, budget: int | None) -> dict[str, Any]:
    result = branches.run(branches.Params(), context(tmp_path, budget=budget, clock=lambda: NOW_2026_06_14))
    assert isinstance(result, dict)
    return result


def _ci(fake: FakeGh, tmp_path: Path, budget: int | None) -> dict[str, Any]:
    result = ci.run(ci.Params(), context(tmp_path / "api", budget=budget))
    assert isinstance(result, dict)
    return result


@pytest.fixture
def recorded(fake_gh: FakeGh, tmp_path: Path) -> FakeGh:
    fake_gh.add(VIEWER, stdout="dev\n")
    fake_gh.add(prs_query(), stdout_file="graphql_prs.json")
    fake_gh.add(branches_query(), stdout_file="graphql_branches.json")
    record_api_repo(fake_gh, github_repo(tmp_path / "api").path)
    return fake_gh


TOOLS = {"github_ci": (_ci, "runs"), "github_pr": (_pr, "prs"), "github_branches": (_branches, "branches")}


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_repeat_runs_are_byte_identical(tool: str, recorded: FakeGh, tmp_path: Path) -> None:
    call, _rows = TOOLS[tool]
    assert compact(call(recorded, tmp_path, None)) == compact(call(recorded, tmp_path, None))


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_300_token_budget(tool: str, recorded: FakeGh, tmp_path: Path) -> None:
    call, rows = TOOLS[tool]
    full = call(recorded, tmp_path, None)
    small = call(recorded, tmp_path, 300)
    assert cost(small) <= 300 or any("budget" in note for note in small["notes"])
    assert len(small[rows]) + small.get("omitted", {}).get(rows, 0) == len(full[rows])
    assert small["summary"] == full["summary"]
