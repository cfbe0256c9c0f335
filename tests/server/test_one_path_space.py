"""Over MCP, with the server started in a package of a monorepo: every path a tool prints goes
back into `code` (a directory into another tool's `root`), also when the call's `root` is a
subdirectory; `changed` shows the rest of the repository only inside the allowed roots; and
inputs no path or argument can carry get a validation error naming the parameter, never a traceback."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.changed.monorepo import build_monorepo
from tests.github.fakegh import FakeGh
from tests.github.helpers import run_list_args
from tests.helpers import Repo
from tests.server.harness import Connection, connect, server_env, text

pytestmark = pytest.mark.anyio

PACKAGE_FILES = {
    "composer.json": json.dumps({"name": "acme/core", "autoload": {"psr-4": {"Core\\": "src/"}}}),
    "packages/util/composer.json": json.dumps({"name": "acme/util"}),
    "packages/util/src/Util.php": "<?php\nnamespace Util;\n\nfunction help(): int { return 1; } // marker\n",
    "web/src/router/index.ts": (
        "import Home from '../views/Home.vue'\n"
        "export default [{ path: '/', component: Home }, { path: '/about', component: () => import('@/views/About.vue') }]\n"
    ),
    "web/src/views/Home.vue": "<template><p>marker</p></template>\n",
    "web/src/views/About.vue": "<template><p>about</p></template>\n",
}
"""Added to the workspace package (untracked): a nested Composer package and a Vue app."""


@pytest.fixture
def monorepo(tmp_path: Path) -> Repo:
    return build_monorepo(tmp_path)


@pytest.fixture
def workspace(monorepo: Repo) -> Path:
    root = monorepo.path / "src" / "Core"
    for rel, content in PACKAGE_FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content)
    return root


@pytest.fixture
async def package_server(workspace: Path) -> AsyncIterator[Connection]:
    env = server_env(SOFIA_PACKAGIST_URL="http://127.0.0.1:9", SOFIA_PACKAGIST_API_URL="http://127.0.0.1:9")
    async with connect(workspace, "--workers", "1", env=env) as connection:
        yield connection


async def _json(server: Connection, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await server.call(tool, arguments)
    assert not result.is_error, text(result)
    document: dict[str, Any] = json.loads(text(result))
    return document


async def test_every_path_changed_and_grep_print_goes_back_into_code(package_server: Connection) -> None:
    changed = await _json(package_server, "changed", {})
    paths = [row["path"] for row in changed["files"]]
    assert "src/Container.php" in paths and all(not p.startswith(("src/Core", "..")) for p in paths)
    hits = await _json(package_server, "grep", {"patterns": ["marker"]})
    printed = {file for pattern in hits["patterns"] for file in pattern["hits"]} | set(paths)
    assert "src/Container.php" in printed
    for path in sorted(p for p in printed if p.endswith(".php")):
        result = await package_server.call("code", {"files": [path]})
        assert not result.is_error, (path, text(result))


async def readable(server: Connection, path: str) -> None:
    """`path` as a tool printed it goes back into `code`, which prints it the same way."""
    document = await _json(server, "code", {"files": [path], "force": True})
    assert [entry["path"] for entry in document["files"]] == [path]


async def searchable(server: Connection, directory: str) -> None:
    """`directory` as a tool printed it is a `root` for grep, whose hits go back into `code`."""
    hits = await _json(server, "grep", {"patterns": ["<?php", "marker"], "root": directory})
    printed = {file for pattern in hits["patterns"] for file in pattern["hits"]}
    inside = directory == "." or all(p.startswith(f"{directory}/") for p in printed)
    assert printed and inside, printed
    for path in sorted(printed):
        await readable(server, path)


@pytest.mark.parametrize("root", [".", "src", "web/src"])
async def test_grep_paths_are_workspace_paths_for_a_subdirectory_root(
    package_server: Connection, root: str
) -> None:
    hits = await _json(package_server, "grep", {"patterns": ["marker", "import"], "root": root})
    assert hits["root"] == root
    printed = sorted({file for pattern in hits["patterns"] for file in pattern["hits"]})
    assert printed and all(root == "." or p.startswith(f"{root}/") for p in printed), printed
    for path in printed:
        await readable(package_server, path)


async def test_code_paths_go_back_into_code(package_server: Connection) -> None:
    document = await _json(package_server, "code", {"files": ["src", "web/src/**/*.ts"]})
    paths = [entry["path"] for entry in document["files"]]
    assert paths == ["src/Container.php", "src/Moved.php", "web/src/router/index.ts"]
    for path in paths:
        await readable(package_server, path)


async def test_refs_paths_go_back_into_code(package_server: Connection) -> None:
    for root in (".", "src"):
        document = await _json(package_server, "refs", {"symbols": ["Container::get"], "root": root})
        (entry,) = document["symbols"]
        definitions = [row["file"] for row in entry["definitions"]]
        assert definitions == ["src/Container.php"], (root, definitions)
        for path in definitions:
            await readable(package_server, path)


async def test_vue_routes_paths_go_back_into_code(package_server: Connection) -> None:
    document = await _json(package_server, "vue_routes", {"root": "web"})
    components = [route["component"] for route in document["routes"]]
    assert document["files"] == ["web/src/router/index.ts"]
    assert components == ["web/src/views/Home.vue", "web/src/views/About.vue"]
    for path in [*document["files"], *components]:
        await readable(package_server, path)


async def test_composer_dirs_are_roots_for_the_other_tools(package_server: Connection) -> None:
    for root in (".", "packages"):
        listed = await _json(package_server, "composer_ls", {"root": root})
        dirs = [row["dir"] for row in listed["packages"]]
        assert dirs == (["packages/util"] if root == "packages" else [".", "packages/util"]), dirs
        for directory in dirs:
            again = await _json(package_server, "composer_ls", {"root": directory})
            assert directory in [row["dir"] for row in again["packages"]]
            await searchable(package_server, directory)
    shown = await _json(package_server, "composer_show", {"package": "acme/util", "root": "packages"})
    assert shown["dir"] == "packages/util"
    await searchable(package_server, shown["dir"])
    checked = await _json(package_server, "composer_check", {"package": "util", "root": "packages"})
    assert [row["dir"] for row in checked["results"]] == ["packages/util"]
    status = await _json(package_server, "packagist_status", {"root": "packages"})
    assert [row["dir"] for row in status["packages"]] == ["packages/util"]
    await searchable(package_server, status["packages"][0]["dir"])


async def test_github_ci_over_a_tree_prints_workspace_paths(tmp_path: Path) -> None:
    """A checkout of package repositories (no repository itself): `repo_dir` and an unnamed
    package's label are workspace paths that go back into composer_ls and grep."""
    workspace = tmp_path / "checkout"
    for name, manifest in (("alpha", {"name": "acme/alpha"}), ("beta", {})):
        repo = Repo(workspace / "packages" / name)
        repo.write("composer.json", json.dumps(manifest))
        repo.write("src/Thing.php", "<?php\nfunction thing(): int { return 1; }\n")
        repo.commit("initial")
    fake = FakeGh(tmp_path / "fake-gh")
    for name in ("alpha", "beta"):
        fake.add(run_list_args(1), cwd=workspace / "packages" / name, stdout_file="run_list_empty.json")
    async with connect(workspace, "--workers", "1", env=server_env(**fake.env())) as server:
        document = await _json(server, "github_ci", {"root": "packages"})
        assert (document["mode"], document["repo_dir"]) == ("tree", "packages")
        listed = await _json(server, "composer_ls", {"root": document["repo_dir"]})
        assert [row["dir"] for row in listed["packages"]] == ["packages/alpha", "packages/beta"]
        assert "no workflow runs: acme/alpha packages/beta" in document["notes"], document["notes"]
        await searchable(server, "packages/beta")


async def test_the_rest_of_the_repository_stays_inside_the_allowed_roots(
    monorepo: Repo,
    package_server: Connection,
) -> None:
    document = await _json(package_server, "changed", {"scope": "repo"})
    assert all(not row["path"].startswith("..") for row in document["files"])
    assert any("outside the server's allowed roots not listed" in note for note in document["notes"])
    async with connect(
        monorepo.path / "src" / "Core", "--workers", "1", "--root", str(monorepo.path)
    ) as wider:
        everything = await _json(wider, "changed", {"scope": "repo"})
    assert "../../README.md" in [row["path"] for row in everything["files"]]


BAD_INPUT = [
    ("code", {"files": ["a\0b.php"]}, "files", "NUL character"),
    ("grep", {"patterns": ["x"], "root": "src\0"}, "root", "NUL character"),
    ("changed", {"range": "HEAD\0"}, "range", "NUL character"),
    ("changed", {"paths": ["src\0"]}, "paths", "NUL character"),
    ("code", {"files": ["x" * 300 + ".php"]}, "files", "longer than 255 bytes"),
    ("vue_routes", {"file": "a/" * 3000}, "file", "longer than any system allows"),
    ("changed", {"range": "x" * 5_000_000}, "range", "longer than 1,024"),
    ("grep", {"patterns": ["x"], "max_per_pattern": True}, "max_per_pattern", "boolean"),
]


@pytest.mark.parametrize(("tool", "arguments", "parameter", "says"), BAD_INPUT)
async def test_inputs_no_argument_can_carry_are_validation_errors(
    package_server: Connection, tool: str, arguments: dict[str, Any], parameter: str, says: str
) -> None:
    result = await package_server.call(tool, arguments)
    assert result.is_error
    message = text(result)
    assert message.startswith(f"{parameter}") and says in message, message
    assert len(message) < 400 and "Traceback" not in message and "internal error" not in message
