"""`sf refs` on the command line and the `refs` tool over the real MCP server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import run_sf
from tests.refs.conftest import FIXTURES
from tests.server.harness import connect, server_env, text


def test_cli_prints_toon_with_grouped_uses() -> None:
    done = run_sf("refs", "UserController::destroy", "--max-per-symbol", "3", cwd=FIXTURES / "php")
    assert done.returncode == 0, done.stderr
    assert 'symbol: "UserController::destroy"' in done.stdout
    assert "exact[3]{file,line,col,kind,in}:" in done.stdout
    assert (
        '      src/Http/AdminController.php,9,16,call,"AdminController::purge"\n      "",10,' in done.stdout
    )
    assert "raise --max-per-symbol" in done.stdout


def test_cli_json_and_kind_flag() -> None:
    done = run_sf("refs", "Api", "--kind", "new,type", "--json", cwd=FIXTURES / "ts")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    kinds = {row["kind"] for row in result["symbols"][0]["exact"]}
    assert kinds == {"new", "type"}


def test_cli_bad_name_is_a_clear_error(tmp_path: Path) -> None:
    done = run_sf("refs", "x" * 200, cwd=tmp_path)
    assert done.returncode != 0
    assert "symbol name too long" in done.stderr and len(done.stderr) < 600
    assert done.stdout == ""


@pytest.mark.anyio
async def test_refs_over_mcp(tmp_path: Path) -> None:
    root = tmp_path / "go"
    shutil.copytree(FIXTURES / "go", root)
    async with connect(root, "--workers", "1", env=server_env(test_providers=False)) as connection:
        result = await connection.call("refs", {"symbols": ["Server.Routes"], "root": "."})
        assert not result.is_error, text(result)
        payload = json.loads(text(result))
        refused = await connection.call("refs", {"symbols": [""]})
        by_name = await connection.call("code", {"files": ["."], "symbols": ["Routes"]})
    item = payload["symbols"][0]
    assert item["totals"]["exact"] == 4 and item["totals"]["name"] == 1
    assert refused.is_error and "empty symbol name" in text(refused)
    slices = text(by_name)  # code by name answers with source text, one header per definition
    assert "// --- Server.Routes (api/server.go:11-13) ---" in slices
    assert "// --- other.Routes (cmd/main.go:11-11) ---" in slices
