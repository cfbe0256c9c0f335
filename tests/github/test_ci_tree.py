"""github_ci tree mode: the latest run of every package repository under a tree, six at a time, a
failing probe as an `error` row, and missing or unauthenticated gh failing the whole call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sofia.providers.contract import ProviderError
from sofia.providers.github import ci
from tests.github.fakegh import AUTH_STDERR, FakeGh, recording
from tests.github.helpers import context, run_list_args
from tests.helpers import Repo


def package(root: Path, rel: str, name: str, git: bool) -> Path:
    directory = root / rel
    if git:
        repo = Repo(directory)
        repo.write("composer.json", json.dumps({"name": name, "type": "library"}))
        repo.commit("initial")
    else:
        directory.mkdir(parents=True)
        (directory / "composer.json").write_text(json.dumps({"name": name}))
    return directory


@pytest.fixture
def tree(tmp_path: Path, fake_gh: FakeGh) -> Path:
    root = tmp_path / "packages"
    alpha = package(root, "alpha", "acme/alpha", git=True)
    beta = package(root, "beta", "acme/beta", git=True)
    package(root, "gamma", "acme/gamma", git=False)
    delta = package(root, "delta", "acme/delta", git=True)
    epsilon = package(root, "epsilon", "acme/epsilon", git=True)
    (epsilon / "packages" / "casts").mkdir(parents=True)
    (epsilon / "packages" / "casts" / "composer.json").write_text('{"name": "acme/epsilon-casts"}')
    zeta = package(root, "zeta", "acme/zeta", git=True)
    fake_gh.add(run_list_args(1), cwd=alpha, stdout_file="run_list_alpha.json")
    fake_gh.add(run_list_args(1), cwd=beta, stderr=recording("not_found.stderr").read_text(), exit=1)
    fake_gh.add(run_list_args(1), cwd=delta, stdout_file="run_list_delta.json")
    fake_gh.add(run_list_args(1), cwd=epsilon, stdout_file="run_list_epsilon.json")
    fake_gh.add(run_list_args(1), cwd=zeta, stdout_file="run_list_empty.json")
    fake_gh.add(["run", "view", "7001", "--json", "jobs"], cwd=alpha, stdout_file="run_view_jobs_7001.json")
    fake_gh.add(
        ["run", "view", "7001", "--log-failed"], cwd=alpha, stdout_file="run_view_log_failed_7001.txt"
    )
    return root


def test_one_row_per_package_repository(tree: Path, fake_gh: FakeGh) -> None:
    result = ci.run(ci.Params(root="packages"), context(tree.parent))
    assert isinstance(result, dict)
    assert result["mode"] == "tree" and result["repo_dir"] == "packages"
    assert [(r["package"], r["id"], r["state"]) for r in result["runs"]] == [
        ("acme/alpha", 7001, "fail"),
        ("acme/beta", 0, "error"),
        ("acme/epsilon", 7401, "running"),
        ("acme/delta", 7301, "ok"),
    ]
    assert result["runs"][1] == {
        "package": "acme/beta",
        "id": 0,
        "workflow": "",
        "state": "error",
        "status": "",
        "conclusion": "",
        "branch": "",
        "event": "",
        "title": "",
        "created": "",
        "url": "",
    }
    assert result["failures"] == [
        {
            "run_id": 7001,
            "job": "tests",
            "step": "Run composer test",
            "log_tail": 'Parse error: syntax error, unexpected token "readonly" in src/Reader.php on line 12',
        }
    ]
    assert result["notes"] == [
        "acme/beta: gh run list failed: failed to get runs: HTTP 404: Not Found "
        "(https://api.github.com/repos/acme/beta/actions/runs?per_page=1&exclude_pull_requests=true)",
        "no workflow runs: acme/zeta",
    ]
    assert result["summary"] == {"fail": 1, "fixed": 0, "running": 1, "ok": 1, "error": 1}
    probed = sorted(Path(c["cwd"]).name for c in fake_gh.calls() if c["args"][:2] == ["run", "list"])
    assert probed == ["alpha", "beta", "delta", "epsilon", "zeta"]


def test_missing_gh_fails_the_whole_tree(tree: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from sofia.runtime import rg

    bin_dir = tmp_path / "bin-without-gh"
    bin_dir.mkdir()
    (bin_dir / "rg").symlink_to(rg.executable())
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(root="packages"), context(tree.parent))
    assert raised.value.message == "gh not found on PATH"


def test_unauthenticated_fails_the_whole_tree(tmp_path: Path, fake_gh: FakeGh) -> None:
    root = tmp_path / "packages"
    one = package(root, "one", "acme/one", git=True)
    fake_gh.add(run_list_args(1), cwd=one, stderr=AUTH_STDERR, exit=4)
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(root="packages"), context(tmp_path))
    assert raised.value.message == "gh is not authenticated"


def test_a_package_selects_its_repository(tree: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(run_list_args(5), cwd=tree / "delta", stdout_file="run_list_delta.json")
    result = ci.run(ci.Params(package="delta", root="packages"), context(tree.parent))
    assert isinstance(result, dict)
    assert result["mode"] == "repository" and result["repo_dir"] == "packages/delta"
    assert [r["id"] for r in result["runs"]] == [7301]


def test_a_package_by_name_in_a_monorepo_selects_the_monorepo(tree: Path, fake_gh: FakeGh) -> None:
    fake_gh.add(run_list_args(5), cwd=tree / "epsilon", stdout_file="run_list_epsilon.json")
    result = ci.run(ci.Params(package="acme/epsilon-casts", root="packages"), context(tree.parent))
    assert isinstance(result, dict)
    assert result["repo_dir"] == "packages/epsilon"


def test_neither_repository_nor_packages(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(root="plain"), context(tmp_path))
    assert raised.value.message == "plain is not in a git repository and contains no package repositories"


def test_a_manifest_that_cannot_be_read_is_named(tree: Path, fake_gh: FakeGh) -> None:
    broken = Repo(tree / "theta")
    broken.write("composer.json", '{"name": "acme/theta",\n "type": }')
    broken.commit("initial")
    result = ci.run(ci.Params(root="packages"), context(tree.parent))
    assert isinstance(result, dict)
    assert "theta" not in {Path(c["cwd"]).name for c in fake_gh.calls()}
    assert result["notes"][-1] == (
        "1 composer.json file not followed (unreadable or invalid): "
        "packages/theta/composer.json:2 invalid JSON: unexpected character, expected a JSON value"
    )


def test_a_tree_of_unreadable_manifests_says_so(tmp_path: Path) -> None:
    broken = Repo(tmp_path / "plain" / "only")
    broken.write("composer.json", "[]")
    broken.commit("initial")
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(root="plain"), context(tmp_path))
    assert raised.value.message == (
        "plain is not in a git repository and contains no package repositories "
        "(1 composer.json file not followed (unreadable or invalid): plain/only/composer.json:1 not a JSON object)"
    )
