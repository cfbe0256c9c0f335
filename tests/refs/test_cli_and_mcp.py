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
    kinds = {row["kind"] for rows in result["symbols"][0]["exact"].values() for row in rows}
    assert kinds == {"new", "type"}


def uses_shape(grouped: object, root: Path) -> list[str]:
    """How a match's uses depart from docs/refs.md's JSON shape: `{file: [{line, col, kind,
    in}]}`, files that exist, in path order, each file once, rows in line and column order."""
    if not isinstance(grouped, dict):
        return [f"not grouped under files: {grouped!r:.80}"]
    problems = [f"not a file: {file}" for file in grouped if not (root / file).is_file()]
    if list(grouped) != sorted(grouped, key=lambda f: f.encode()):
        problems.append(f"files out of order: {list(grouped)}")
    for file, rows in grouped.items():
        problems += [f"{file}: row keys {sorted(r)}" for r in rows if set(r) != {"line", "col", "kind", "in"}]
        places = [(r["line"], r["col"]) for r in rows]
        if not rows or places != sorted(places):
            problems.append(f"{file}: rows {places}")
    return problems


def test_cli_json_groups_each_match_s_uses_under_their_file_as_documented() -> None:
    root = FIXTURES / "php"
    done = run_sf("refs", "UserController::destroy", "destroy", "--json", cwd=root)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    for item in result["symbols"]:
        assert item["exact"] or item["name"]
        for match in ("exact", "name"):
            assert uses_shape(item.get(match, {}), root) == [], (item["symbol"], match)
        shown = sum(len(rows) for match in ("exact", "name") for rows in item.get(match, {}).values())
        assert shown == item["totals"]["uses"]
    toon = run_sf("refs", "UserController::destroy", "destroy", cwd=root).stdout
    assert "exact[8]{file,line,col,kind,in}:" in toon  # the CLI's TOON keeps one flat table


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
    assert uses_shape(item["exact"], root) == [] and uses_shape(item["name"], root) == []
    assert refused.is_error and "empty symbol name" in text(refused)
    slices = text(by_name)  # code by name answers with source text, one header per definition
    assert "// --- Server.Routes (api/server.go:11-13) ---" in slices
    assert "// --- other.Routes (cmd/main.go:11-11) ---" in slices


@pytest.mark.anyio
async def test_refs_over_mcp_classifies_in_a_pool_inside_the_worker(tmp_path: Path) -> None:
    """The server's worker is itself a pool process: refs' own pool starts inside it (forkserver
    on Linux) and answers as the worker alone does."""
    (tmp_path / "lib.py").write_text("def target(x):\n    return x\n")
    for index in range(300):
        (tmp_path / f"m{index:03}.py").write_text(
            f"from lib import target\n\n\ndef f():\n    return target({index})\n"
        )
    answers = []
    for jobs in ("1", "2"):
        env = server_env(test_providers=False, SOFIA_REFS_JOBS=jobs)
        async with connect(tmp_path, "--workers", "1", env=env) as connection:
            result = await connection.call("refs", {"symbols": ["target", "lib.target"], "max_per_symbol": 0})
            assert not result.is_error, text(result)
            answers.append(json.loads(text(result)))
    serial, pooled = answers
    assert pooled == serial
    assert serial["symbols"][0]["totals"]["uses"] == 300 * 2
