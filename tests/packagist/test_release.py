"""`sf packagist release`: preconditions, the exact plan, and a real release against a bare origin
and a local Packagist."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sofia.output import jsonfmt
from sofia.output.shape import mismatches
from sofia.providers.contract import Outcome, ProviderError
from sofia.providers.packagist import release
from sofia.providers.registry import MUTATES, by_name
from sofia.providers.shapes import shape_of
from tests.composer.conftest import context
from tests.composer.workspace import Workspace
from tests.helpers import git, run_sf
from tests.packagist.server import FakePackagist, Reply

TOKEN = "pk_live_7Qd2xVbN4mK9sT1wZ8yR"


@pytest.fixture
def token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    monkeypatch.setenv("PACKAGIST_API_TOKEN", TOKEN)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    monkeypatch.delenv("PACKAGIST_USERNAME", raising=False)
    return TOKEN


def git_state(space: Workspace) -> dict[str, str]:
    """Everything a release could change: local refs, origin's refs, the working tree."""
    return {
        "refs": git(space.monorepo, "show-ref"),
        "origin": git(space.monorepo, "ls-remote", "origin"),
        "status": git(space.monorepo, "status", "--porcelain"),
    }


def release_in(space: Workspace, package: str, version: str, **params: Any) -> Outcome:
    ctx_args = {"confirm": params.pop("confirm")} if "confirm" in params else {}
    params.setdefault("root", "monorepo")
    outcome = release.run(
        release.Params(package=package, version=version, **params), context(space.root, **ctx_args)
    )
    assert list(mismatches(outcome.result, shape_of("packagist_release") or {})) == []  # its reference page's
    return outcome


def test_a_repository_outside_the_workspace_is_named_by_a_relative_path(
    own_workspace: Workspace, packagist: FakePackagist, token: str
) -> None:
    """The CLI may reach a root outside the workspace: the plan names it as a `../` path, like
    every path a tool prints, so its commands run as they are from the workspace."""
    elsewhere = own_workspace.root / "elsewhere"
    elsewhere.mkdir()
    params = release.Params(package="enum", version="v1.2.0", root="../monorepo", dry_run=True)
    result = release.run(params, context(elsewhere)).result
    assert isinstance(result, dict)
    assert (result["dir"], result["repo"]) == ("../monorepo/packages/enum", "../monorepo")
    assert result["steps"][0]["command"] == "git -C ../monorepo tag -a v1.2.0 -m 'Release v1.2.0'"


def test_dry_run_prints_the_exact_plan_and_changes_nothing(
    own_workspace: Workspace, packagist: FakePackagist, token: str
) -> None:
    before = git_state(own_workspace)
    outcome = release_in(own_workspace, "enum", "v1.2.0", dry_run=True)
    assert outcome.exit_code == 0
    result = outcome.result
    assert isinstance(result, dict)
    origin = own_workspace.origin("monorepo").as_uri()
    assert result["steps"] == [
        {
            "step": "tag",
            "status": "planned",
            "command": "git -C monorepo tag -a v1.2.0 -m 'Release v1.2.0'",
            "detail": "",
        },
        {"step": "push", "status": "planned", "command": "git -C monorepo push origin v1.2.0", "detail": ""},
        {
            "step": "notify",
            "status": "planned",
            "command": f'POST {packagist.url}/api/update-package?username=acme&apiToken=*** {{"repository":{{"url":"{origin}"}}}}',
            "detail": "",
        },
        {
            "step": "verify",
            "status": "planned",
            "command": f"poll {packagist.url}/p2/acme/enum.json every 5 s until v1.2.0 appears (at most 90 s)",
            "detail": "",
        },
    ]
    assert (result["package"], result["dir"], result["repo"], result["tag"], result["dry_run"]) == (
        "acme/enum",
        "monorepo/packages/enum",
        "monorepo",
        "v1.2.0",
        True,
    )
    assert result["flags"] == [] and result["finish_by_hand"] == []
    assert git_state(own_workspace) == before
    assert packagist.requests == []
    assert TOKEN not in jsonfmt.pretty(result)


def test_refusal_lists_every_failed_precondition(
    own_workspace: Workspace, packagist: FakePackagist, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("PACKAGIST_API_TOKEN", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "empty-config"))
    (own_workspace.monorepo / "packages/enum/src/Status.php").write_text("<?php // half-edited\n")
    before = git_state(own_workspace)
    with pytest.raises(ProviderError) as caught:
        release_in(own_workspace, "enum", "v1.1.0", yes=True)
    message = caught.value.message
    assert message.startswith("release refused, 4 preconditions failed:\n")
    assert message.splitlines()[1:] == [
        "  - no Packagist API token: set PACKAGIST_API_TOKEN or write PACKAGIST_API_TOKEN=… to "
        f"{tmp_path / 'empty-config/sofia/packagist.env'} (the token is on your packagist.org profile page)",
        "  - the working tree is not clean (1 changed paths): commit or stash them first",
        "  - tag v1.1.0 already exists locally",
        "  - tag v1.1.0 already exists on origin",
    ]
    assert "--dry-run" in caught.value.hint
    assert git_state(own_workspace) == before
    assert packagist.requests == []


def test_invalid_version_and_another_spelling_of_an_existing_one(
    own_workspace: Workspace, packagist: FakePackagist, token: str
) -> None:
    with pytest.raises(ProviderError) as caught:
        release_in(own_workspace, "enum", "1.3.x-dev", dry_run=True)
    assert "invalid version '1.3.x-dev'" in caught.value.message
    with pytest.raises(ProviderError) as caught:
        release_in(own_workspace, "enum", "1.1.0", dry_run=True)
    assert "version 1.1.0 is already tagged as v1.1.0" in caught.value.message


def test_remote_only_tag_is_refused(own_workspace: Workspace, packagist: FakePackagist, token: str) -> None:
    git(own_workspace.monorepo, "tag", "-d", "v1.1.0")
    with pytest.raises(ProviderError, match="tag v1.1.0 already exists on origin"):
        release_in(own_workspace, "enum", "v1.1.0", dry_run=True)


def test_branch_other_than_the_default_needs_any_branch(
    own_workspace: Workspace, packagist: FakePackagist, token: str
) -> None:
    git(own_workspace.monorepo, "checkout", "-q", "-b", "backport-1.0")
    with pytest.raises(ProviderError, match="on branch backport-1.0, not origin's default branch main"):
        release_in(own_workspace, "enum", "v1.0.1", dry_run=True)
    outcome = release_in(own_workspace, "enum", "v1.0.1", dry_run=True, any_branch=True)
    assert outcome.exit_code == 0
    assert outcome.result["flags"] == ["v1.0.1 is not above the highest stable tag v1.1.0 (a backport?)"]  # type: ignore[index]


def test_missing_origin_and_unknown_package(
    own_workspace: Workspace, packagist: FakePackagist, token: str
) -> None:
    with pytest.raises(ProviderError, match="no origin remote: add one with git remote add origin URL"):
        release_in(own_workspace, "feature-flags", "v0.1.0", root=".", dry_run=True)
    with pytest.raises(ProviderError, match='no package matching "nope"'):
        release_in(own_workspace, "nope", "v0.1.0", dry_run=True)


def test_release_end_to_end(own_workspace: Workspace, packagist: FakePackagist, token: str) -> None:
    packagist.publish("acme/enum", "v1.1.0", "v1.0.0")
    packagist.on_update = lambda request: packagist.publish("acme/enum", "v1.2.0", "v1.1.0", "v1.0.0")
    asked: list[str] = []
    outcome = release_in(
        own_workspace, "enum", "v1.2.0", message="Enum labels", confirm=lambda q: asked.append(q) or True
    )
    assert outcome.exit_code == 0
    result = outcome.result
    assert isinstance(result, dict)
    assert [(s["step"], s["status"]) for s in result["steps"]] == [
        ("tag", "done"),
        ("push", "done"),
        ("notify", "done"),
        ("verify", "done"),
    ]
    assert asked and "git -C monorepo push origin v1.2.0" in asked[0]
    repo = own_workspace.monorepo
    assert git(repo, "cat-file", "-t", "v1.2.0").strip() == "tag"
    assert git(repo, "tag", "-l", "--format=%(contents:subject)", "v1.2.0").strip() == "Enum labels"
    assert "refs/tags/v1.2.0" in git(repo, "ls-remote", "--tags", "origin")
    [post] = packagist.posts()
    assert post.path == "/api/update-package"
    assert post.query == {"username": ["acme"], "apiToken": [TOKEN]}
    assert json.loads(post.body) == {"repository": {"url": own_workspace.origin("monorepo").as_uri()}}
    assert packagist.p2_requests("acme/enum"), "verified by polling p2"
    assert result["notes"] == ["acme/enum v1.2.0 is released and visible on Packagist"]
    assert TOKEN not in jsonfmt.pretty(result)


def test_version_never_visible(own_workspace: Workspace, packagist: FakePackagist, token: str) -> None:
    packagist.publish("acme/enum", "v1.1.0")
    outcome = release_in(own_workspace, "enum", "v1.2.0", yes=True, timeout_s=1)
    assert outcome.exit_code == 1
    result = outcome.result
    assert isinstance(result, dict)
    assert [s["status"] for s in result["steps"]] == ["done", "done", "done", "failed"]
    assert result["steps"][3]["detail"] == "not visible after 1 s (last answer: latest v1.1.0)"
    assert result["notes"] == [
        "tag v1.2.0 is pushed to origin and Packagist was asked to update, but v1.2.0 is not visible "
        "after 1 s; check again later (the last command below)"
    ]
    assert result["finish_by_hand"] == ["sf packagist status acme/enum --root monorepo"]
    assert "refs/tags/v1.2.0" in git(own_workspace.monorepo, "ls-remote", "--tags", "origin")


def test_rejected_update_lists_the_commands_to_finish(
    own_workspace: Workspace, packagist: FakePackagist, token: str
) -> None:
    packagist.update_reply = Reply(
        403, b'{"status":"error","message":"Invalid credentials for ' + TOKEN.encode() + b'"}'
    )
    outcome = release_in(own_workspace, "enum", "v1.2.0", yes=True)
    assert outcome.exit_code == 1
    result = outcome.result
    assert isinstance(result, dict)
    assert [s["status"] for s in result["steps"]] == ["done", "done", "failed", "not-run"]
    assert result["steps"][2]["detail"].startswith("Packagist answered HTTP 403: ")
    origin = own_workspace.origin("monorepo").as_uri()
    assert result["finish_by_hand"] == [
        "curl -sS -X POST -H 'Content-Type: application/json' "
        f'"{packagist.url}/api/update-package?username=acme&apiToken=$PACKAGIST_API_TOKEN" '
        f'-d \'{{"repository":{{"url":"{origin}"}}}}\'',
        "sf packagist status acme/enum --root monorepo",
    ]
    assert result["notes"] == [
        "step notify failed (done: tag, push); finish with the commands in finish_by_hand"
    ]
    assert TOKEN not in jsonfmt.pretty(result)


def test_unconfirmed_release_changes_nothing(
    own_workspace: Workspace, packagist: FakePackagist, token: str
) -> None:
    before = git_state(own_workspace)
    with pytest.raises(ProviderError, match="release not confirmed; nothing was changed"):
        release_in(own_workspace, "enum", "v1.2.0", confirm=lambda question: False)
    assert git_state(own_workspace) == before
    assert packagist.requests == []


def test_token_and_username_from_the_token_file(
    own_workspace: Workspace, packagist: FakePackagist, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("PACKAGIST_API_TOKEN", raising=False)
    monkeypatch.delenv("PACKAGIST_USERNAME", raising=False)
    config = tmp_path / "config"
    (config / "sofia").mkdir(parents=True)
    (config / "sofia/packagist.env").write_text(
        f"# packagist.org API\nexport PACKAGIST_API_TOKEN='{TOKEN}'\nPACKAGIST_USERNAME=acme-bot\n"
    )
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    outcome = release_in(own_workspace, "enum", "v1.2.0", dry_run=True)
    assert "username=acme-bot&apiToken=***" in outcome.result["steps"][2]["command"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("origin", "url"),
    [
        ("git@github.com:acme/enum.git", "https://github.com/acme/enum"),
        ("ssh://git@gitlab.example.com:2222/acme/enum.git", "https://gitlab.example.com/acme/enum"),
        ("https://deploy:s3cret@github.com/acme/enum.git", "https://github.com/acme/enum.git"),
        ("https://github.com/acme/enum", "https://github.com/acme/enum"),
        ("file:///srv/git/enum.git", "file:///srv/git/enum.git"),
    ],
)
def test_origin_as_https_url(origin: str, url: str) -> None:
    assert release.https_url(origin) == url


def test_release_is_never_an_mcp_tool() -> None:
    provider = by_name("packagist_release")
    assert provider is not None
    assert provider.mcp is False
    assert provider.annotations == MUTATES


def test_cli_dry_run_and_release(own_workspace: Workspace, packagist: FakePackagist, token: str) -> None:
    env = {"PACKAGIST_API_TOKEN": TOKEN}
    dry = run_sf(
        "packagist",
        "release",
        "enum",
        "v1.2.0",
        "--root",
        "monorepo",
        "--dry-run",
        cwd=own_workspace.root,
        env=env,
    )
    assert dry.returncode == 0, dry.stderr
    assert "git -C monorepo tag -a v1.2.0 -m 'Release v1.2.0'" in dry.stdout
    assert "apiToken=***" in dry.stdout
    refused = run_sf(
        "packagist", "release", "enum", "v1.2.0", "--root", "monorepo", cwd=own_workspace.root, env=env
    )
    assert refused.returncode == 1
    assert "release not confirmed" in refused.stderr
    assert "refs/tags/v1.2.0" not in git(own_workspace.monorepo, "ls-remote", "--tags", "origin")
    packagist.on_update = lambda request: packagist.publish("acme/enum", "v1.2.0")
    done = run_sf(
        "packagist",
        "release",
        "enum",
        "v1.2.0",
        "--root",
        "monorepo",
        "--yes",
        "--json",
        cwd=own_workspace.root,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert [s["status"] for s in json.loads(done.stdout)["steps"]] == ["done"] * 4
    for output in (dry, refused, done):
        assert TOKEN not in output.stdout + output.stderr
