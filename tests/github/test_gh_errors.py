"""How gh failures reach the user: a missing gh, no authentication (exit 4), rate limits, GraphQL
errors, output that is not JSON, and a gh that hangs past its timeout."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sofia.providers.contract import ProviderError
from sofia.providers.github import ci, pr
from tests.github.fakegh import AUTH_STDERR, FakeGh, recording
from tests.github.helpers import context, github_repo, prs_query, run_list_args


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return github_repo(tmp_path / "api").path


def test_missing_gh(repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(), context(repo))
    assert raised.value.message == "gh not found on PATH"
    assert raised.value.hint == "install GitHub CLI (https://cli.github.com/), then run gh auth login"


def test_unauthenticated_exit_4(repo: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(run_list_args(5), cwd=repo, stderr=AUTH_STDERR, exit=4)
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(), context(repo))
    assert str(raised.value) == "gh is not authenticated (run gh auth login (or set GH_TOKEN))"


def test_auth_hint_on_stderr_without_exit_4(tmp_path: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(["api", "user", "--jq", ".login"], stderr=AUTH_STDERR, exit=1)
    with pytest.raises(ProviderError) as raised:
        pr.run(pr.Params(), context(tmp_path))
    assert raised.value.message == "gh is not authenticated"


def test_rate_limited(repo: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(run_list_args(5), cwd=repo, stderr=recording("rate_limited.stderr").read_text(), exit=1)
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(), context(repo))
    assert raised.value.message.startswith(
        "gh run list hit the GitHub API rate limit: failed to get runs: HTTP 403: API rate limit exceeded"
    )
    assert "gh api rate_limit" in raised.value.hint


def test_other_failure_names_gh_last_line(repo: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(
        run_list_args(5),
        cwd=repo,
        stderr="\x1b[31mnone of the git remotes configured for this repository point to a known GitHub host.\x1b[0m\n",
        exit=1,
    )
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(), context(repo))
    assert raised.value.message == (
        "gh run list failed: none of the git remotes configured for this repository point to a known GitHub host."
    )


def test_malformed_json(tmp_path: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(["api", "user", "--jq", ".login"], stdout="dev\n")
    fake_gh.add(prs_query(), stdout='{"data": {"authored": ')
    with pytest.raises(ProviderError) as raised:
        pr.run(pr.Params(), context(tmp_path))
    assert raised.value.message == "unexpected output from gh api graphql"


def test_hanging_gh_is_killed_at_its_timeout(repo: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(run_list_args(5), cwd=repo, stdout="[]\n", sleep=60)
    started = time.monotonic()
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(), context(repo, deadline=time.monotonic() + 1.0))
    assert raised.value.message.startswith("gh run list timed out after ")
    assert time.monotonic() - started < 30


def test_graphql_error(tmp_path: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(["api", "user", "--jq", ".login"], stdout="dev\n")
    fake_gh.add(prs_query(), stderr=recording("graphql_error.stderr").read_text(), exit=1)
    with pytest.raises(ProviderError) as raised:
        pr.run(pr.Params(), context(tmp_path))
    assert raised.value.message.startswith("gh api graphql failed: GraphQL: Something went wrong")


def test_unrecorded_vector_is_refused(repo: Path, fake_gh: FakeGh) -> None:
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(), context(repo))
    assert "fake gh: no recording for gh run list --limit 5" in raised.value.message
