"""What the front-end adds around every call: path confinement, the output budget, the repeat-call
stub of `code`, and the workspace root handed to providers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Repo
from tests.server.harness import Connection, connect, server_env, text

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("frontend")
    repo = Repo(base / "workspace")
    repo.write(
        "src/Widget.php",
        "<?php\nnamespace App;\n\nclass Widget\n{\n    public function label(): string\n    {\n        return 'w';\n    }\n}\n",
    )
    repo.write(
        "src/router/index.ts", "export default [{ path: '/', component: () => import('../Home.vue') }]\n"
    )
    repo.write("README.md", "hello\n")
    repo.commit("init")
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    (repo.path / "escape").symlink_to(outside)
    (repo.path / "inner").symlink_to(repo.path / "src")
    projects = base / "claude-projects"
    projects.mkdir()
    return repo.path


@pytest.fixture(scope="module")
async def server(workspace: Path) -> AsyncIterator[Connection]:
    env = server_env(CC_PROJECTS_DIR=str(workspace.parent / "claude-projects"))
    async with connect(
        workspace, "--workers", "1", "--tools", "test,cc,grep,vue,code", env=env
    ) as connection:
        yield connection


REFUSED = [
    ("test_paths", {"files": ["../outside/secret.txt"]}, "files"),
    ("test_paths", {"files": ["src/a.php", "../**/*.php"]}, "files"),
    ("test_paths", {"root": "/etc"}, "root"),
    ("test_paths", {"files": ["escape/secret.txt"]}, "files"),
    ("test_paths", {"file": "escape"}, "file"),
    ("test_paths", {"package": "../outside"}, "package"),
    ("test_paths", {"package": "/etc/composer.json"}, "package"),
    ("test_paths", {"projects_dir": "../claude-projects"}, "projects_dir"),
    ("grep", {"patterns": ["secret"], "root": ".."}, "root"),
    ("vue_routes", {"file": "/etc/passwd"}, "file"),
    ("code", {"files": ["escape/secret.txt"]}, "files"),
    ("cc_show", {"session": "/etc/passwd.jsonl"}, "session"),
    ("cc_paths", {"session": "../outside/secret.txt"}, "session"),
    ("test_paths", {"where": "../outside"}, "where"),
    ("cc_paths", {"where": "../outside"}, "where"),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "parameter"), REFUSED, ids=[f"{t}-{p}-{i}" for i, (t, _, p) in enumerate(REFUSED)]
)
async def test_paths_outside_the_roots_are_refused(
    server: Connection, workspace: Path, tool: str, arguments: dict[str, Any], parameter: str
) -> None:
    result = await server.call(tool, arguments)
    assert result.is_error
    message = text(result)
    assert message.startswith(f"{parameter}=")
    assert f"outside the allowed roots ({workspace}" in message
    assert "--root DIR" in message


ALLOWED = [
    ("test_paths", {"files": ["src/Widget.php", "src/**/*.php", "inner/Widget.php"], "root": "src"}),
    ("test_paths", {"package": "acme/widget"}),
    ("test_paths", {"package": "./src"}),
    ("cc_paths", {"projects_dir": "../claude-projects"}),
    ("cc_paths", {"session": "3f2a"}),
    ("cc_paths", {"session": "../claude-projects/-home-dev-app/3f2a.jsonl"}),
    ("test_paths", {"where": "src", "label": "../../etc"}),
]


@pytest.mark.parametrize(("tool", "arguments"), ALLOWED)
async def test_paths_inside_the_roots_pass(server: Connection, tool: str, arguments: dict[str, Any]) -> None:
    result = await server.call(tool, arguments)
    assert not result.is_error, text(result)


async def test_absolute_paths_inside_the_workspace_pass(server: Connection, workspace: Path) -> None:
    result = await server.call("test_paths", {"files": [str(workspace / "src" / "Widget.php")]})
    assert not result.is_error, text(result)


async def test_providers_get_the_workspace_root_and_the_budget(server: Connection, workspace: Path) -> None:
    seen = json.loads(text(await server.call("test_pid")))
    assert seen["root"] == str(workspace.resolve())
    assert seen["budget"] == 20_000


async def test_an_identical_code_call_gets_the_stub_until_forced_or_changed(
    server: Connection, workspace: Path
) -> None:
    first = await server.call("code", {"files": ["src/Widget.php"]})
    assert not first.is_error and "Widget" in text(first)
    second = await server.call("code", {"files": ["src/Widget.php"]})
    assert not second.is_error
    stub = text(second)
    assert stub.startswith("already returned in call #") and stub.endswith(
        "ago) — unchanged; pass force=true to get it again"
    )
    assert text(await server.call("code", {"files": ["src/Widget.php"], "force": True})) == text(first)
    assert text(await server.call("code", {"files": ["src/Widget.php"], "brief": True})) != stub
    widget = workspace / "src" / "Widget.php"
    original = widget.read_text()
    try:
        widget.write_text(original.replace("label", "caption"))
        changed = text(await server.call("code", {"files": ["src/Widget.php"]}))
    finally:
        widget.write_text(original)
    assert "caption" in changed and not changed.startswith("already returned")


async def test_code_slices_come_back_as_raw_source_text(server: Connection) -> None:
    result = await server.call("code", {"files": ["src/Widget.php"], "symbols": ["Widget::label"]})
    assert not result.is_error, text(result)
    body = text(result)
    assert "public function label(): string" in body
    assert not body.lstrip().startswith("{")


async def test_root_option_replaces_the_workspace(workspace: Path) -> None:
    outside = workspace.parent / "outside"
    async with connect(workspace, "--root", str(outside), "--workers", "1", "--tools", "test") as server:
        allowed = await server.call(
            "test_paths", {"files": [str(outside / "secret.txt")], "root": str(outside)}
        )
        refused = await server.call("test_paths", {"files": [str(workspace / "README.md")]})
        by_default = await server.call("test_paths", {"files": ["secret.txt"]})
    assert not allowed.is_error, text(allowed)
    assert refused.is_error and text(refused).startswith("files=") and f"({outside})" in text(refused)
    # Started outside its only root, the server serves that root: relative paths and the default
    # root="." start there, and the directory it was started in is not allowed.
    assert not by_default.is_error, text(by_default)


async def test_output_budget_comes_from_the_environment_and_bounds_payloads(tmp_path: Path) -> None:
    env = server_env(SOFIA_MAX_OUTPUT_TOKENS="1234")
    async with connect(tmp_path, "--workers", "1", "--tools", "test", env=env) as server:
        assert json.loads(text(await server.call("test_pid")))["budget"] == 1234
        fits = await server.call("test_big", {"size": 4_000})
        refused = await server.call("test_big", {"size": 10_000})
    assert not fits.is_error
    assert refused.is_error and "over the output budget of 1,234" in text(refused)


async def test_a_claude_code_folder_given_with_a_tilde_is_allowed_for_cc_tools_only(tmp_path: Path) -> None:
    home = tmp_path / "home"
    session = home / "projects" / "-home-dev-app" / "3f2a.jsonl"
    session.parent.mkdir(parents=True)
    session.write_text("{}\n")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    env = server_env(HOME=str(home), CC_PROJECTS_DIR="~/projects")
    async with connect(workspace, "--workers", "1", "--tools", "test,cc", env=env) as server:
        for_cc = await server.call("cc_paths", {"session": str(session)})
        for_others = await server.call("test_paths", {"session": str(session)})
    assert not for_cc.is_error, text(for_cc)
    assert for_others.is_error and text(for_others).startswith("session=")
