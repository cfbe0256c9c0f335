"""`sf github ci --watch` (CLI only): polls the newest run until it completes; exit 0 on success,
1 on failure (with its failures), 124 on timeout; a tree of packages cannot be watched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sofia.output.shape import mismatches
from sofia.providers.contract import Outcome, ProviderError
from sofia.providers.github import watch as watching
from sofia.providers.shapes import shape_of
from tests.github.fakegh import RUN_FIELDS, FakeGh, response
from tests.github.helpers import context, github_repo, run_list_args
from tests.helpers import run_sf

VIEW = ["run", "view", "9130", "--json", RUN_FIELDS]


@pytest.fixture
def repo(tmp_path: Path, fake_gh: FakeGh, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SOFIA_GH_POLL_SECONDS", "0.05")
    path = github_repo(tmp_path / "api").path
    fake_gh.add(run_list_args(1), cwd=path, stdout_file="run_list_watch.json")
    return path


def watch(repo: Path, **fields: object) -> Outcome:
    outcome = watching.run(watching.Params(watch=True, **fields), context(repo))
    assert isinstance(outcome, Outcome)
    assert list(mismatches(outcome.result, shape_of("github_ci_watch") or {})) == []  # its reference page's
    return outcome


def test_in_progress_twice_then_success(repo: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(
        VIEW,
        response(stdout_file="run_view_9130_in_progress.json"),
        response(stdout_file="run_view_9130_in_progress.json"),
        response(stdout_file="run_view_9130_success.json"),
        cwd=repo,
    )
    outcome = watch(repo)
    assert outcome.exit_code == 0
    assert isinstance(outcome.result, dict)
    assert [(r["id"], r["state"], r["conclusion"]) for r in outcome.result["runs"]] == [
        (9130, "ok", "success")
    ]
    assert fake_gh.argvs().count(VIEW) == 3


def test_failure_exits_1_with_failures(repo: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(
        VIEW,
        response(stdout_file="run_view_9130_queued.json"),
        response(stdout_file="run_view_9130_failure.json"),
        cwd=repo,
    )
    fake_gh.add(["run", "view", "9130", "--json", "jobs"], cwd=repo, stdout_file="run_view_jobs_9130.json")
    fake_gh.add(["run", "view", "9130", "--log-failed"], cwd=repo, stdout_file="run_view_log_failed_9130.txt")
    outcome = watch(repo)
    assert outcome.exit_code == 1
    assert isinstance(outcome.result, dict)
    assert outcome.result["failures"] == [
        {
            "run_id": 9130,
            "job": "tests (8.3)",
            "step": "Run phpunit",
            "log_tail": "##[group]Run vendor/bin/phpunit\n"
            "1) Acme\\Api\\Tests\\ReleaseTest::testChangelogHasVersion\n"
            "Failed asserting that 'Unreleased' contains \"2.0.0\".\n"
            "FAILURES!\n"
            "##[error]Process completed with exit code 1.",
        }
    ]


def test_timeout_exits_124_naming_the_run(repo: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(VIEW, cwd=repo, stdout_file="run_view_9130_in_progress.json")
    outcome = watch(repo, timeout="1s")
    assert outcome.exit_code == 124
    assert isinstance(outcome.result, dict)
    assert outcome.result["notes"] == ["watch timed out after 1s: run 9130 still in_progress"]
    assert outcome.result["runs"][0]["state"] == "running"


def test_watch_in_tree_mode_is_an_error(tmp_path: Path) -> None:
    root = tmp_path / "packages"
    from tests.helpers import Repo

    one = Repo(root / "one")
    one.write("composer.json", json.dumps({"name": "acme/one"}))
    one.commit("initial")
    with pytest.raises(ProviderError) as raised:
        watching.run(watching.Params(watch=True, root="packages"), context(tmp_path))
    assert (
        raised.value.message
        == "--watch needs a single repository, but packages is a tree of package repositories"
    )


def test_no_runs_to_watch(tmp_path: Path, fake_gh: FakeGh) -> None:
    path = github_repo(tmp_path / "web").path
    fake_gh.add(run_list_args(1), cwd=path, stdout_file="run_list_empty.json")
    with pytest.raises(ProviderError) as raised:
        watching.run(watching.Params(watch=True), context(path))
    assert raised.value.message == "no workflow runs in ."


def test_cli_exit_statuses(repo: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(VIEW, cwd=repo, stdout_file="run_view_9130_in_progress.json")
    env = {"SOFIA_GH_POLL_SECONDS": "0.05"}
    timed_out = run_sf("github", "ci", "--watch", "--timeout", "1s", "--json", cwd=repo, env=env)
    assert timed_out.returncode == 124, timed_out.stderr
    assert json.loads(timed_out.stdout)["notes"] == ["watch timed out after 1s: run 9130 still in_progress"]
    bad = run_sf("github", "ci", "--watch", "--timeout", "soon", cwd=repo, env=env)
    assert bad.returncode == 2
    assert "soon" in bad.stderr
