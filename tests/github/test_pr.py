"""github_pr against the reference's five-PR fixture in real GraphQL shape: de-duplication with
author > reviewer > owner, forks dropped from the owned set, rollup and review states, actions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sofia.errors import render_all
from sofia.providers.github import pr
from tests.github.fakegh import FakeGh, recording
from tests.github.helpers import VIEWER, context, prs_query
from tests.helpers import run_sf


@pytest.fixture
def recorded(fake_gh: FakeGh) -> FakeGh:
    fake_gh.add(VIEWER, stdout="dev\n")
    fake_gh.add(prs_query(), stdout_file="graphql_prs.json")
    return fake_gh


def test_five_pr_fixture(recorded: FakeGh, tmp_path: Path) -> None:
    result = pr.run(pr.Params(), context(tmp_path))
    assert list(result) == ["viewer", "pr_url", "prs", "summary", "notes"]
    assert result["pr_url"] == "https://github.com/{repo}/pull/{number}"
    assert result["viewer"] == "dev"
    rows = [
        (r["repo"], r["number"], r["role"], r["ci"], r["review"], r["draft"], r["action"])
        for r in result["prs"]
    ]
    assert rows == [
        ("acme/b", 11, "author", "failure", "changes", False, "fix-ci"),
        ("other/d", 42, "reviewer", "pending", "required", False, "review"),
        ("acme/a", 5, "author", "success", "none", False, "merge"),
        ("acme/e", 7, "owner", "success", "none", False, "merge"),
        ("acme/c", 3, "author", "none", "none", True, "none"),
    ]
    assert result["prs"][0] == {
        "repo": "acme/b",
        "number": 11,
        "title": "broken",
        "role": "author",
        "draft": False,
        "ci": "failure",
        "review": "changes",
        "action": "fix-ci",
        "updated": "2026-06-10T08:00Z",
    }
    assert result["summary"] == {"total": 5, "action_needed": 2}
    assert result["notes"] == [] and "omitted" not in result
    assert recorded.argvs() == [VIEWER, prs_query()]


@pytest.mark.parametrize(
    ("role", "draft", "ci", "review", "expected"),
    [
        ("author", False, "failure", "none", "fix-ci"),
        ("owner", False, "error", "approved", "fix-ci"),
        ("reviewer", False, "failure", "none", "review"),
        ("author", False, "success", "changes", "address-review"),
        ("owner", False, "success", "changes", "none"),
        ("reviewer", True, "pending", "required", "review"),
        ("author", False, "success", "approved", "merge"),
        ("owner", False, "none", "none", "merge"),
        ("author", False, "pending", "none", "wait"),
        ("author", False, "expected", "approved", "wait"),
        ("author", True, "success", "none", "none"),
        ("author", False, "success", "required", "none"),
    ],
)
def test_actions(role: str, draft: bool, ci: str, review: str, expected: str) -> None:
    assert pr.action(role, draft, ci, review) == expected


def test_issue_count_above_limit_is_noted(fake_gh: FakeGh, tmp_path: Path) -> None:
    doc = json.loads(recording("graphql_prs.json").read_text())
    doc["data"]["authored"]["issueCount"] = 57
    fake_gh.add(VIEWER, stdout="dev\n")
    fake_gh.add(prs_query(limit=3), stdout=json.dumps(doc, separators=(",", ":")))
    result = render_all(pr.run(pr.Params(limit=3), context(tmp_path)))
    assert result["notes"] == ["authored: 57 open PRs, the first 3 shown; raise limit to see more"]


def test_non_pr_search_hits_are_skipped(fake_gh: FakeGh, tmp_path: Path) -> None:
    doc = json.loads(recording("graphql_prs.json").read_text())
    doc["data"]["owned"]["nodes"].append({})
    fake_gh.add(VIEWER, stdout="dev\n")
    fake_gh.add(prs_query(), stdout=json.dumps(doc, separators=(",", ":")))
    assert pr.run(pr.Params(), context(tmp_path))["summary"]["total"] == 5


def test_pr_url_is_written_once_and_odd_urls_are_named(fake_gh: FakeGh, tmp_path: Path) -> None:
    doc = json.loads(recording("graphql_prs.json").read_text())
    for alias in ("authored", "review", "owned"):
        for node in doc["data"][alias]["nodes"]:
            node["url"] = node["url"].replace("https://github.com/", "https://ghe.acme.example/")
    doc["data"]["authored"]["nodes"][0]["url"] = "https://ghe.acme.example/acme/a/pull/5/files"
    fake_gh.add(VIEWER, stdout="dev\n")
    fake_gh.add(prs_query(), stdout=json.dumps(doc, separators=(",", ":")))
    result = pr.run(pr.Params(), context(tmp_path))
    assert result["pr_url"] == "https://ghe.acme.example/{repo}/pull/{number}"
    assert all("url" not in row for row in result["prs"])
    assert result["notes"] == [
        "PR URLs not of the form pr_url gives: https://ghe.acme.example/acme/a/pull/5/files"
    ]


def test_budget_drops_trailing_rows(recorded: FakeGh, tmp_path: Path) -> None:
    from sofia.output.budget import cost

    full = pr.run(pr.Params(), context(tmp_path))
    budget = cost(full) - 60
    result = pr.run(pr.Params(), context(tmp_path, budget=budget))
    assert cost(result) <= budget
    assert len(result["prs"]) + result["omitted"]["prs"] == 5
    assert [r["number"] for r in result["prs"]] == [11, 42, 5, 7, 3][: len(result["prs"])]
    assert result["summary"]["total"] == 5


def test_cli_toon(recorded: FakeGh, tmp_path: Path) -> None:
    done = run_sf("github", "pr", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert 'pr_url: "https://github.com/{repo}/pull/{number}"' in done.stdout
    assert "prs[5]{repo,number,title,role,draft,ci,review,action,updated}:" in done.stdout
    assert "acme/b,11,broken,author,false,failure,changes,fix-ci" in done.stdout


def test_limit_is_validated(tmp_path: Path) -> None:
    done = run_sf("github", "pr", "--limit", "-1", cwd=tmp_path)
    assert done.returncode == 2
