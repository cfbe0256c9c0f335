"""The CLI: telling files from symbols among positionals, and `sf code` end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sofia.providers.code import CliParams, Params, prepare
from sofia.providers.contract import Context, ProviderError
from tests.code.conftest import FIXTURES, code
from tests.helpers import run_sf

GO = FIXTURES / "go"


def classify(*args: str, root: Path = GO) -> Params:
    return prepare(CliParams(files=list(args)), Context(root=root))


def test_file_and_words_are_symbols_in_order() -> None:
    params = classify("server/server.go", "Routes", "New")
    assert (params.files, params.symbols) == (["server/server.go"], ["Routes", "New"])


def test_go_receiver_spelling_is_a_symbol_not_a_glob() -> None:
    params = classify("server/server.go", "(*Server).Routes", "New")
    assert params.symbols == ["(*Server).Routes", "New"]


def test_file_and_existing_directory_are_files() -> None:
    params = classify("server/server.go", "cache")
    assert (params.files, params.symbols) == (["server/server.go", "cache"], [])


def test_one_positional_is_a_file() -> None:
    assert classify("Routes").files == ["Routes"]


def test_paths_mixed_with_words_is_an_error() -> None:
    with pytest.raises(ProviderError) as caught:
        classify("server/server.go", "cache/cache.go", "Routes")
    assert caught.value.message == "mixed files and symbols: Routes"
    assert caught.value.hint == "for bodies use sf code FILE SYMBOL..., for summaries pass only paths"


def test_globs_and_slashes_are_paths() -> None:
    assert classify("server/server.go", "cache/*.go").symbols == []
    assert classify("server/server.go", "cache/missing.go").files == ["server/server.go", "cache/missing.go"]


def test_missing_first_argument_makes_all_files_then_not_found() -> None:
    params = classify("missing.go", "server/server.go")
    assert params.files == ["missing.go", "server/server.go"]
    with pytest.raises(ProviderError, match="not found: missing.go"):
        code(GO, *params.files)


def test_symbol_flag_keeps_positionals_as_files() -> None:
    params = prepare(CliParams(files=["server/server.go"], symbols=["New"]), Context(root=GO))
    assert (params.files, params.symbols) == (["server/server.go"], ["New"])
    params = prepare(CliParams(files=["server/server.go", "Routes"], symbols=["New"]), Context(root=GO))
    assert (params.files, params.symbols) == (["server/server.go"], ["Routes", "New"])


def test_cli_slice_prints_source_text() -> None:
    done = run_sf("code", "server/server.go", "Server.Routes", cwd=GO, env={"SOFIA_CODE_RAW_BELOW": "0"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("// --- Server.Routes (server/server.go:40-47) ---\n// Routes registers")


def test_cli_summary_toon_and_json() -> None:
    env = {"SOFIA_CODE_RAW_BELOW": "0"}
    toon = run_sf("code", "server/server.go", cwd=GO, env=env)
    assert toon.returncode == 0, toon.stderr
    assert toon.stdout.startswith("path: server/server.go\nlines: 61\nnamespace: server\n")
    assert "functions[5]{owner,name,sig,line,end_line,vis}:" in toon.stdout
    assert "properties.Server[2]{name,type,vis,attrs}:" in toon.stdout
    as_json = run_sf("code", "server/server.go", "--json", cwd=GO, env=env)
    result = json.loads(as_json.stdout)
    assert list(result) == ["files", "notes", "stats"]
    assert result["files"][0]["imports"][2] == "chi github.com/go-chi/chi/v5"


def test_cli_raw_file_is_printed_verbatim_behind_a_header(tmp_path: Path) -> None:
    (tmp_path / "tiny.go").write_bytes(b"package tiny\r\n\r\nfunc A() {}\r\n")
    done = subprocess.run(
        [sys.executable, "-m", "sofia", "code", "tiny.go"], cwd=tmp_path, capture_output=True, check=True
    )
    assert done.stdout == (
        b"# raw: tiny.go (0.0K < 8K: full file is cheaper than structure)\npackage tiny\r\n\r\nfunc A() {}\r\n"
    )


def test_cli_error_exits_1_with_nothing_on_stdout(tmp_path: Path) -> None:
    for index in range(251):
        (tmp_path / "pkg").mkdir(exist_ok=True)
        (tmp_path / "pkg" / f"f{index}.go").write_text("package pkg\n")
    done = run_sf("code", "pkg", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "pkg matched 251 files; the limit is 250 per call" in done.stderr


def test_cli_mixed_error(tmp_path: Path) -> None:
    (tmp_path / "a.go").write_text("package a\n")
    (tmp_path / "b.go").write_text("package a\n")
    done = run_sf("code", "a.go", "b.go", "Foo", cwd=tmp_path)
    assert done.returncode == 1
    assert "mixed files and symbols: Foo" in done.stderr
