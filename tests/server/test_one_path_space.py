"""Over MCP, with the server started in a package of a monorepo: every path a tool prints goes
back into `code`; `changed` shows the rest of the repository only inside the allowed roots; and
inputs no path or argument can carry get a validation error naming the parameter, never a traceback."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.changed.monorepo import build_monorepo
from tests.helpers import Repo
from tests.server.harness import Connection, connect, text

pytestmark = pytest.mark.anyio


@pytest.fixture
def monorepo(tmp_path: Path) -> Repo:
    return build_monorepo(tmp_path)


@pytest.fixture
async def package_server(monorepo: Repo) -> AsyncIterator[Connection]:
    async with connect(monorepo.path / "src" / "Core", "--workers", "1") as connection:
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
