"""Adding a tool as docs/adding-a-tool.md says: the scaffold writes the module, one registry record,
a test file and a docs page, and touches nothing in server/, workers/ or cli/; the new tool is then
listed, validated, confined (its path parameter has a name no other tool uses) and on the CLI."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.server.harness import Connection, connect, text

REPO = Path(__file__).resolve().parents[2]
DESCRIPTION = "Open TODO comments under a directory, one row each. Use instead of grepping for TODO."


def _digests(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project with a tool added by the scaffold."""
    root = tmp_path_factory.mktemp("checkout")
    for part in ("sofia", "scripts", "docs"):
        shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "tests").mkdir()
    return root


@pytest.fixture(scope="module")
def scaffolded(checkout: Path) -> dict[str, set[str]]:
    before = _digests(checkout)
    done = subprocess.run(
        [sys.executable, str(checkout / "scripts" / "new_tool.py"), "todos", "--description", DESCRIPTION,
         "--path-param", "target", "--root", str(checkout)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    after = _digests(checkout)
    return {
        "added": set(after) - set(before),
        "changed": {path for path in set(after) & set(before) if after[path] != before[path]},
    }


def test_the_scaffold_touches_the_module_the_record_and_its_tests_only(
    scaffolded: dict[str, set[str]],
) -> None:
    assert scaffolded["added"] == {
        "sofia/providers/todos/__init__.py",
        "tests/todos/__init__.py",
        "tests/todos/test_todos.py",
        "docs/todos.md",
    }
    assert scaffolded["changed"] == {"sofia/providers/registry.py"}


def _env(checkout: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "SOFIA_TEST_PROVIDERS"}
    env["PYTHONPATH"] = str(checkout)
    return env


def test_the_new_tool_is_on_the_cli(checkout: Path, scaffolded: dict[str, set[str]], tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "sofia", "todos", "--target", "src", "--json"],
        cwd=tmp_path, env=_env(checkout), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rows"] == [{"path": "src"}]
    helped = subprocess.run(
        [sys.executable, "-m", "sofia", "--help"],
        cwd=tmp_path,
        env=_env(checkout),
        capture_output=True,
        text=True,
        check=False,
    )
    assert "todos" in helped.stdout


@pytest.fixture
async def server(
    checkout: Path, scaffolded: dict[str, set[str]], tmp_path: Path
) -> AsyncIterator[Connection]:
    workspace = tmp_path / "workspace"
    (workspace / "src").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    async with connect(workspace, "--workers", "1", "--tools", "todos", env=_env(checkout)) as connection:
        yield connection


@pytest.mark.anyio
async def test_the_new_tool_is_listed_validated_and_confined(server: Connection) -> None:
    listed = (await server.session.list_tools()).tools
    assert [tool.name for tool in listed] == ["todos"]
    assert listed[0].description == DESCRIPTION
    assert set(listed[0].input_schema["properties"]) == {"target", "limit"}
    answered = await server.call("todos", {"target": "src"})
    assert not answered.is_error and json.loads(text(answered))["rows"] == [{"path": "src"}]
    invalid = await server.call("todos", {"limit": "many"})
    assert invalid.is_error and text(invalid).startswith("limit: ")
    refused = await server.call("todos", {"target": "../outside"})
    assert (
        refused.is_error
        and text(refused).startswith("target=")
        and "outside the allowed roots" in text(refused)
    )
