"""The mode of a `code` call is decided once, by the provider, and written into the result: slice
mode when symbols are named, summaries otherwise. A blank symbol name is refused, so no caller can
get summaries while its arguments look like a slice request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sofia.providers.code import as_text
from sofia.providers.contract import ProviderError
from tests.code.conftest import FIXTURES, code
from tests.helpers import run_sf

GO = FIXTURES / "go"
SERVER = "server/server.go"
TWO = ["server/server.go", "cache/cache.go"]


@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"symbols": [" "]}, "symbols[0]"),
        ({"symbols": [""]}, "symbols[0]"),
        ({"symbols": ["New", "\t"]}, "symbols[1]"),
        ({"symbol": "  "}, "symbol"),
    ],
)
def test_a_blank_symbol_is_refused(options: dict[str, object], where: str) -> None:
    with pytest.raises(ProviderError) as raised:
        code(GO, *TWO, **options)
    assert raised.value.message.startswith(f"blank symbol name: {where} is ")
    assert "leave symbols out for summaries" in str(raised.value)


def test_the_default_empty_symbol_means_summaries() -> None:
    result = code(GO, *TWO, symbol="")
    assert "mode" not in result and as_text(result) is None
    assert [d["path"] for d in result["files"]] == TWO
    assert as_text(result) is None


def test_slice_results_say_so_and_have_a_text_form(no_passthrough: None) -> None:
    result = code(GO, SERVER, symbols=["New"])
    assert result["mode"] == "slice"
    text = as_text(result)
    assert text is not None and text.startswith("// --- New (server/server.go:")


def test_whole_file_answer_to_a_slice_request_is_still_slice_mode() -> None:
    result = code(GO, SERVER, symbols=["New"])
    assert result["files"][0]["mode"] == "raw"
    text = as_text(result)
    assert text is not None and text.startswith("// --- server/server.go (whole file,")


def test_a_raw_summary_document_is_never_taken_for_slices(tmp_path: Path) -> None:
    (tmp_path / "tiny.go").write_text("package tiny\n\nfunc A() {}\n")
    result = code(tmp_path, "tiny.go")
    assert result["files"][0]["mode"] == "raw" and as_text(result) is None


def test_cli_blank_symbol_fails_with_the_reason() -> None:
    done = run_sf("code", SERVER, "--symbol", " ", cwd=GO)
    assert done.returncode == 2 and done.stdout == ""  # a refusal of the arguments: a usage error
    assert "blank symbol name: symbols[0]" in done.stderr


def test_cli_json_of_a_slice_call_carries_the_mode() -> None:
    done = run_sf("code", SERVER, "New", "--json", cwd=GO, env={"SOFIA_CODE_RAW_BELOW": "0"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["mode"] == "slice"


@pytest.mark.anyio
async def test_mcp_blank_symbol_with_two_files_is_an_error_not_a_truncated_text(tmp_path: Path) -> None:
    from tests.server.harness import connect, text

    log = tmp_path / "mcp-stderr.log"
    async with connect(GO, "--workers", "1", "--tools", "code", stderr=log) as server:
        blank = await server.call("code", {"files": TWO, "symbols": [" "]})
        summaries = await server.call("code", {"files": TWO})
        sliced = await server.call("code", {"files": [SERVER], "symbols": ["New"]})
    assert blank.is_error and "blank symbol name: symbols[0]" in text(blank)
    assert [d["path"] for d in json.loads(text(summaries))["files"]] == TWO
    assert text(sliced).startswith("// --- server/server.go (whole file,")


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"
