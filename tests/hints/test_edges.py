"""Every edge spells every parameter reference for its caller, and lets no mark through.

The test tool (`tests.hints.referring`) names its parameters in every form `param` has, in an
error, in notes, in rows and nested lists of a result, and in a text result; the real `sf` and the
real `sf mcp` must show the CLI's flags and the MCP parameters respectively, and no mark at all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sofia.errors import CLOSE, OPEN, SEPARATOR, TOOL
from tests.helpers import run_sf
from tests.server.harness import REPO, connect, server_env, text

pytestmark = pytest.mark.anyio

PROVIDERS = {"SOFIA_TEST_PROVIDERS": "tests.hints.referring", "PYTHONPATH": str(REPO)}
MARKS = (OPEN, SEPARATOR, CLOSE, TOOL)

MCP_SPELLINGS = [
    "exts",
    "root=…",
    "paths=[…]",
    "file=…",
    'file="src/router.ts"',
    "max_per_pattern=5",
    "regex=true",
    "case=false",
    'scope="repo"',
    'exts=["php","ts"]',
    "nope=3",
    "grep",
    "cc_ls",
]
CLI_SPELLINGS = [
    "--ext",
    "--root DIR",
    "-- PATH...",
    "FILE",
    "src/router.ts",
    "--max-per-pattern 5",
    "--regex",
    "--no-case",
    "--scope repo",
    "--ext php,ts",
    "nope=3",
    "sf grep",
    "sf cc ls",
]


def unmarked(*texts: str) -> None:
    for shown in texts:
        assert not any(mark in shown for mark in MARKS), repr(shown)


def sf(*args: str, cwd: Path) -> tuple[int, str, str]:
    done = run_sf("hints", "refer", *args, cwd=cwd, env=PROVIDERS)
    unmarked(done.stdout, done.stderr)
    return done.returncode, done.stdout, done.stderr


def test_the_cli_error_shows_flags(tmp_path: Path) -> None:
    code, out, err = sf("--mode", "error", cwd=tmp_path)
    every = " | ".join(CLI_SPELLINGS)
    assert code == 1, err
    assert err == f"sf hints refer: error: bad call: {every} (pass {every})\n"
    assert out == ""


def test_the_cli_result_shows_flags_in_every_string(tmp_path: Path) -> None:
    code, out, err = sf("--mode", "notes", "--json", cwd=tmp_path)
    every = " | ".join(CLI_SPELLINGS)
    assert code == 0, err
    result = json.loads(out)
    assert result["notes"] == [f"note: {every}"]
    assert result["rows"][0]["error"] == f"row: {every}"
    assert result["nested"]["deeper"] == [[f"cell: {every}"]]
    for form in (["--md"], []):  # Markdown, and TOON, the default
        assert "--max-per-pattern 5" in sf("--mode", "notes", *form, cwd=tmp_path)[1]


def test_the_cli_text_result_shows_flags(tmp_path: Path) -> None:
    code, out, _ = sf("--mode", "text", cwd=tmp_path)
    assert code == 0
    assert out == f"text: {' | '.join(CLI_SPELLINGS)}\n"


def test_a_message_cut_through_a_reference_leaves_no_mark(tmp_path: Path) -> None:
    code, _, err = sf("--mode", "long", cwd=tmp_path)
    assert code == 1
    assert "… (message cut:" in err


async def test_mcp_shows_parameters_and_no_mark(tmp_path: Path) -> None:
    every = " | ".join(MCP_SPELLINGS)
    async with connect(tmp_path, env=server_env(**PROVIDERS)) as server:
        failed = await server.call("hints_refer", {"mode": "error"})
        assert failed.is_error
        assert text(failed) == f"bad call: {every} (pass {every})"

        result = json.loads(text(await server.call("hints_refer", {"mode": "notes"})))
        assert result["notes"] == [f"note: {every}"]
        assert result["rows"][0]["error"] == f"row: {every}"
        assert result["nested"]["deeper"] == [[f"cell: {every}"]]

        assert text(await server.call("hints_refer", {"mode": "text"})) == f"text: {every}\n"

        cut = await server.call("hints_refer", {"mode": "long"})
        assert cut.is_error and "… (message cut:" in text(cut)
        unmarked(text(failed), text(cut))


async def test_mcp_toon_payload_has_no_mark(tmp_path: Path) -> None:
    async with connect(tmp_path, "--payload", "toon", env=server_env(**PROVIDERS)) as server:
        shown = text(await server.call("hints_refer", {"mode": "notes"}))
    unmarked(shown)
    assert "max_per_pattern=5" in shown
