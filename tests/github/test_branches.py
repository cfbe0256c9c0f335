"""github_branches on the reference's branch fixture in GraphQL shape (clock 2026-06-14), and the
CLI-only `--delete`: exactly the reported merged/closed branches, never default, protected, moved or
kept ones, only after confirmation, with failures listed and branch names URL-encoded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sofia.output.shape import mismatches
from sofia.providers.contract import Outcome
from sofia.providers.github import branches
from sofia.providers.github import delete as deletion
from sofia.providers.shapes import shape_of
from tests.github.fakegh import FakeGh, recording
from tests.github.helpers import NOW_2026_06_14, VIEWER, branches_query, context
from tests.helpers import call, run_sf


def delete_args(path: str) -> list[str]:
    return ["api", "-X", "DELETE", path]


@pytest.fixture
def recorded(fake_gh: FakeGh) -> FakeGh:
    fake_gh.add(VIEWER, stdout="dev\n")
    fake_gh.add(branches_query(), stdout_file="graphql_branches.json")
    return fake_gh


def report(tmp_path: Path, **arguments: Any) -> Any:
    """`github_branches` called in-process on the fixture's day."""
    return call("github_branches", arguments, tmp_path, clock=lambda: NOW_2026_06_14)


def rows(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (b["repo"], b["branch"], b["verdict"], b["pr"], b["age_days"], b["moved"], b["protected"])
        for b in result["branches"]
    ]


def test_branch_fixture(recorded: FakeGh, tmp_path: Path) -> None:
    result = report(tmp_path)
    assert list(result) == ["owner", "branches", "summary", "notes"]
    assert result["owner"] == "dev"
    assert rows(result) == [
        ("acme/a", "feat/a#b", "merged", 13, 7, False, False),
        ("acme/a", "feat/done", "merged", 11, 13, False, False),
        ("acme/a", "feat/moved", "merged", 12, 3, True, False),
        ("acme/a", "release/1.x", "merged", 8, 43, False, True),
        ("acme/a", "wt/s2", "merged", 10, 9, False, False),
        ("acme/a", "old/experiment", "closed", 4, 103, False, False),
        ("acme/a", "spike", "stale", 0, 164, False, False),
        ("acme/a", "wip", "no-pr", 0, 1, False, False),
        ("acme/b", "feat/live", "open", 7, 2, False, False),
    ]
    assert result["summary"] == {"merged": 5, "closed": 1, "stale": 1, "no_pr": 1, "open": 1}
    assert result["notes"] == [] and "omitted" not in result
    assert not any(b["repo"] == "acme/archive" for b in result["branches"])
    assert recorded.argvs() == [VIEWER, branches_query()]


def test_stale_days(recorded: FakeGh, tmp_path: Path) -> None:
    result = report(tmp_path, stale_days=200)
    assert ("acme/a", "spike", "no-pr", 0, 164, False, False) in rows(result)


def test_owner_skips_the_viewer_call(fake_gh: FakeGh, tmp_path: Path) -> None:
    fake_gh.add(branches_query(login="acme"), stdout_file="graphql_branches.json")
    result = report(tmp_path, owner="acme")
    assert result["owner"] == "acme"
    assert fake_gh.argvs() == [branches_query(login="acme")]


def test_invalid_owner_changes_nothing(fake_gh: FakeGh, tmp_path: Path) -> None:
    from sofia.providers.contract import ProviderError

    with pytest.raises(ProviderError) as raised:
        report(tmp_path, owner="--jq")
    assert raised.value.message == "invalid owner '--jq'"
    assert fake_gh.calls() == []


def test_more_repositories_and_refs_are_noted(fake_gh: FakeGh, tmp_path: Path) -> None:
    doc = json.loads(recording("graphql_branches.json").read_text())
    doc["data"]["repositoryOwner"]["repositories"]["pageInfo"]["hasNextPage"] = True
    doc["data"]["repositoryOwner"]["repositories"]["nodes"][2]["refs"]["totalCount"] = 140
    fake_gh.add(VIEWER, stdout="dev\n")
    fake_gh.add(branches_query(), stdout=json.dumps(doc, separators=(",", ":")))
    result = report(tmp_path)
    assert result["notes"] == [
        "dev has more than 100 repositories: only the first 100 by name were inspected",
        "more branches than refs=50 in acme/b (140); raise refs to inspect them",
    ]


def test_unknown_owner(fake_gh: FakeGh, tmp_path: Path) -> None:
    from sofia.providers.contract import ProviderError

    fake_gh.add(branches_query(login="nobody"), stdout='{"data":{"repositoryOwner":null}}')
    with pytest.raises(ProviderError) as raised:
        report(tmp_path, owner="nobody")
    assert raised.value.message == "no GitHub user or organisation named 'nobody'"


def test_mcp_model_cannot_delete(recorded: FakeGh, tmp_path: Path) -> None:
    assert set(branches.Params.model_fields) == {"refs", "stale_days", "owner"}
    schema = json.dumps(branches.Params.model_json_schema())
    for word in ("delete", "merged_only", "keep", "yes"):
        assert word not in schema
    with pytest.raises(ValueError):
        branches.Params.model_validate({"delete": True})
    report(tmp_path)
    assert not any("DELETE" in argv for argv in recorded.argvs())


# --delete


def delete(tmp_path: Path, confirm: bool = False, **fields: Any) -> Outcome:
    asked: list[str] = []

    def answer(question: str) -> bool:
        asked.append(question)
        return confirm

    ctx = context(tmp_path, clock=lambda: NOW_2026_06_14, confirm=answer)
    outcome = deletion.run(deletion.Params(delete=True, **fields), ctx)
    assert isinstance(outcome, Outcome)
    assert (
        list(mismatches(outcome.result, shape_of("github_branches_delete") or {})) == []
    )  # its reference page's
    outcome.result["asked"] = asked  # type: ignore[index]
    return outcome


EXPECTED_PATHS = [
    "repos/acme/a/git/refs/heads/feat/a%23b",
    "repos/acme/a/git/refs/heads/feat/done",
    "repos/acme/a/git/refs/heads/old/experiment",
]


def deleted_paths(fake: FakeGh) -> list[str]:
    return [argv[3] for argv in fake.argvs() if argv[:3] == ["api", "-X", "DELETE"]]


def test_delete_exactly_the_deletable(recorded: FakeGh, tmp_path: Path) -> None:
    for path in EXPECTED_PATHS:
        recorded.add(delete_args(path))
    outcome = delete(tmp_path, yes=True)
    assert outcome.exit_code == 0
    assert deleted_paths(recorded) == EXPECTED_PATHS
    result = outcome.result
    assert isinstance(result, dict)
    assert result["deletion"] == {
        "deleted": [
            {"repo": "acme/a", "branch": "feat/a#b"},
            {"repo": "acme/a", "branch": "feat/done"},
            {"repo": "acme/a", "branch": "old/experiment"},
        ],
        "kept": [
            {"repo": "acme/a", "branch": "feat/moved", "reason": "moved since its pull request"},
            {"repo": "acme/a", "branch": "release/1.x", "reason": "protected"},
            {"repo": "acme/a", "branch": "wt/s2", "reason": "matches wt/*"},
        ],
        "failed": [],
    }
    assert result["asked"] == []
    assert list(result)[:5] == ["owner", "branches", "summary", "deletion", "notes"]
    assert "omitted" not in result


def test_merged_only_and_keep_patterns(recorded: FakeGh, tmp_path: Path) -> None:
    recorded.add(delete_args("repos/acme/a/git/refs/heads/wt/s2"))
    outcome = delete(tmp_path, yes=True, merged_only=True, keep=["feat/*"])
    assert deleted_paths(recorded) == ["repos/acme/a/git/refs/heads/wt/s2"]
    assert isinstance(outcome.result, dict)
    assert [(k["branch"], k["reason"]) for k in outcome.result["deletion"]["kept"]] == [
        ("feat/a#b", "matches feat/*"),
        ("feat/done", "matches feat/*"),
        ("feat/moved", "moved since its pull request"),
        ("release/1.x", "protected"),
        ("old/experiment", "closed, --merged-only"),
    ]


def test_confirmed_prompt_deletes(recorded: FakeGh, tmp_path: Path) -> None:
    for path in EXPECTED_PATHS:
        recorded.add(delete_args(path))
    outcome = delete(tmp_path, confirm=True)
    assert outcome.exit_code == 0
    assert deleted_paths(recorded) == EXPECTED_PATHS
    assert isinstance(outcome.result, dict)
    question = outcome.result["asked"][0]
    assert question.splitlines()[-1] == "Delete 3 branches?"
    assert "  acme/a feat/a#b (merged #13, 7 days)" in question.splitlines()


def test_declined_prompt_deletes_nothing(recorded: FakeGh, tmp_path: Path) -> None:
    outcome = delete(tmp_path, confirm=False)
    assert outcome.exit_code == 1
    assert deleted_paths(recorded) == []
    assert isinstance(outcome.result, dict)
    assert outcome.result["deletion"]["deleted"] == []
    assert [k["branch"] for k in outcome.result["deletion"]["kept"] if k["reason"] == "not confirmed"] == [
        "feat/a#b",
        "feat/done",
        "old/experiment",
    ]


def test_failed_delete_is_listed_and_exits_1(recorded: FakeGh, tmp_path: Path) -> None:
    recorded.add(delete_args(EXPECTED_PATHS[0]))
    recorded.add(
        delete_args(EXPECTED_PATHS[1]),
        stderr="gh: Cannot delete this branch: it is protected by a repository ruleset (HTTP 422)\n",
        exit=1,
    )
    recorded.add(delete_args(EXPECTED_PATHS[2]))
    outcome = delete(tmp_path, yes=True)
    assert outcome.exit_code == 1
    assert deleted_paths(recorded) == EXPECTED_PATHS
    assert isinstance(outcome.result, dict)
    deletion = outcome.result["deletion"]
    assert [d["branch"] for d in deletion["deleted"]] == ["feat/a#b", "old/experiment"]
    assert deletion["failed"] == [
        {
            "repo": "acme/a",
            "branch": "feat/done",
            "error": "gh api DELETE failed: gh: Cannot delete this branch: it is protected by a repository ruleset (HTTP 422)",
        }
    ]


def test_cli_without_a_terminal_needs_yes(recorded: FakeGh, tmp_path: Path) -> None:
    env = {"SOFIA_NOW": str(NOW_2026_06_14)}
    refused = run_sf("github", "branches", "--delete", "--json", cwd=tmp_path, env=env)
    assert refused.returncode == 1
    assert deleted_paths(recorded) == []
    assert json.loads(refused.stdout)["notes"][-1].startswith("nothing deleted")
    for path in EXPECTED_PATHS:
        recorded.add(delete_args(path))
    done = run_sf("github", "branches", "--delete", "--yes", "--json", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert deleted_paths(recorded) == EXPECTED_PATHS
    assert [d["branch"] for d in json.loads(done.stdout)["deletion"]["deleted"]] == [
        "feat/a#b",
        "feat/done",
        "old/experiment",
    ]


def test_cli_report_with_pinned_clock(recorded: FakeGh, tmp_path: Path) -> None:
    done = run_sf("github", "branches", cwd=tmp_path, env={"SOFIA_NOW": str(NOW_2026_06_14)})
    assert done.returncode == 0, done.stderr
    assert "branches[9]{repo,branch,verdict,pr,age_days,moved,protected}:" in done.stdout
    assert "acme/a,spike,stale,0,164,false,false" in done.stdout


def test_ref_path_encoding() -> None:
    from sofia.providers.github.delete import ref_path

    assert ref_path("acme/a", "feat/a#b") == "repos/acme/a/git/refs/heads/feat/a%23b"
    assert ref_path("acme/a", "fix/100% done?") == "repos/acme/a/git/refs/heads/fix/100%25%20done%3F"


def test_unknown_commit_date_is_minus_one() -> None:
    ref = {
        "name": "v1-branch",
        "branchProtectionRule": None,
        "target": {"oid": "f" * 40},
        "associatedPullRequests": {"nodes": []},
    }
    row = branches.branch("acme/a", ref, NOW_2026_06_14, 90)
    assert (row.age_days, row.verdict, row.pr, row.moved) == (-1, "no-pr", 0, False)
