"""Symbol slices: spellings, byte-exact text, misses with close matches, the whole-file case, text form."""

from __future__ import annotations

from pathlib import Path

import pytest

from sofia.providers.code import as_text
from sofia.providers.contract import ProviderError
from tests.code.conftest import FIXTURES, code, slice_text

GO = FIXTURES / "go"
PY = FIXTURES / "python"
SERVER = "server/server.go"
WIDGETS = "shop/catalog/widgets.py"


def slices(result: dict) -> list[tuple[str, str, int, int]]:
    return [(s["symbol"], s["kind"], s["line"], s["end_line"]) for s in result["files"][0]["slices"]]


@pytest.mark.parametrize("spelling", ["Server.Routes", "(*Server).Routes", "*Server.Routes", "Routes"])
def test_go_method_with_its_doc_comment(spelling: str, no_passthrough: None) -> None:
    result = code(GO, SERVER, symbols=[spelling])
    (piece,) = result["files"][0]["slices"]
    assert piece["symbol"] == "Server.Routes"
    assert piece["text"].startswith(
        "// Routes registers every handler and returns the router.\nfunc (s *Server) Routes()"
    )
    assert piece["text"].endswith("\treturn s.router\n}\n")
    assert (piece["line"], piece["end_line"]) == (40, 47)
    assert result["stats"]["raw_tok"] > 0


def test_python_property_slice_includes_decorator_and_does_not_bleed(no_passthrough: None) -> None:
    result = code(PY, WIDGETS, symbols=["Widget.label"])
    texts = [s["text"] for s in result["files"][0]["slices"]]
    assert texts[0] == (
        "    # The label shown to customers.\n"
        "    @property\n"
        "    def label(self) -> str:\n"
        '        return f"{self.name} ({self.price:.2f})"\n'
    )
    assert texts[1].startswith("    @label.setter\n")
    assert "staticmethod" not in "".join(texts)


def test_slices_are_byte_exact(no_passthrough: None) -> None:
    source = (GO / SERVER).read_bytes()
    result = code(GO, SERVER, symbols=["New", "handleSearch", "ContactSource"])
    for piece in result["files"][0]["slices"]:
        assert piece["text"].encode() in source
        lines = source.decode().splitlines(keepends=True)[piece["line"] - 1 : piece["end_line"]]
        assert "".join(lines) == piece["text"]


def test_several_symbols_in_order_with_headers_and_a_partial_miss(no_passthrough: None) -> None:
    result = code(GO, SERVER, symbol="handleSearch", symbols=["New", "Routez"])
    assert slices(result) == [("Server.handleSearch", "method", 49, 61), ("New", "function", 30, 38)]
    assert result["files"][0]["missing"] == [{"symbol": "Routez", "close": "Server.Routes"}]
    text = slice_text(result)
    assert text.startswith(
        "// --- Server.handleSearch (server/server.go:49-61) ---\nfunc (s *Server) handleSearch("
    )
    assert "\n\n// --- New (server/server.go:30-38) ---\n// New builds a Server" in text
    assert text.endswith("// --- Routez: not found; close: Server.Routes ---\n")


def test_python_text_form_uses_hash_headers(no_passthrough: None) -> None:
    text = slice_text(code(PY, WIDGETS, symbols=["fetch"]))
    assert text.startswith("# --- fetch (shop/catalog/widgets.py:109-118) ---\nasync def fetch(\n")


def test_all_missing_is_an_error_with_close_and_available_names(no_passthrough: None) -> None:
    with pytest.raises(ProviderError) as caught:
        code(GO, SERVER, symbols=["Rotes", "Nothing"])
    assert caught.value.message == "none of the symbols were found in server/server.go: Rotes, Nothing"
    assert caught.value.hint.startswith("close: Server.Routes; available: Server, ContactSource,")


def test_ambiguous_bare_name_returns_every_match(no_passthrough: None) -> None:
    result = code(PY, WIDGETS, symbols=["__init__"])
    assert [s[0] for s in slices(result)] == ["Base.__init__", "Widget.__init__"]
    assert result["notes"] == ["__init__ matches 2 symbols: Base.__init__, Widget.__init__; all are shown"]


def test_small_file_with_valid_symbols_comes_back_whole(tmp_path: Path) -> None:
    (tmp_path / "hello.go").write_text(
        'package hello\n\n// Hello greets.\nfunc Hello() string { return "hi" }\n'
    )
    result = code(tmp_path, "hello.go", symbols=["Hello"])
    doc = result["files"][0]
    assert (doc["mode"], doc["reason"], doc["symbols"]) == ("raw", "below_threshold", ["Hello"])
    assert doc["content"] == (tmp_path / "hello.go").read_text()
    assert slice_text(result).startswith(
        "// --- hello.go (whole file, 0.1K < 8K; has Hello) ---\npackage hello\n"
    )
    assert result["notes"] == ["whole file returned (0.1K < 8K); it contains Hello"]


def test_small_file_with_a_misspelled_symbol_is_an_error_not_the_file(tmp_path: Path) -> None:
    (tmp_path / "hello.go").write_text('package hello\n\nfunc Hello() string { return "hi" }\n')
    with pytest.raises(ProviderError, match="none of the symbols were found in hello.go: Helo"):
        code(tmp_path, "hello.go", symbols=["Helo"])


def test_slices_not_smaller_than_the_file_return_the_file(tmp_path: Path, no_passthrough: None) -> None:
    (tmp_path / "one.py").write_text("def only():\n    return 1\n")
    doc = code(tmp_path, "one.py", symbols=["only"])["files"][0]
    assert (doc["mode"], doc["reason"]) == ("raw", "slices_not_smaller")


def test_symbols_in_a_missing_file_name_it() -> None:
    with pytest.raises(ProviderError) as caught:
        code(GO, "server/missing.go", symbols=["New"])
    assert caught.value.message.startswith("not found: server/missing.go")
    assert "relative to" in caught.value.hint


@pytest.mark.parametrize("files", [["server/server.go", "cache/cache.go"], ["server"], ["server/*.go"]])
def test_symbols_under_several_files_a_directory_or_a_glob_are_looked_up(files: list[str]) -> None:
    result = code(GO, *files, symbols=["New"])
    found = {(d["path"], s["symbol"]) for d in result["files"] for s in d["slices"]}
    assert ("server/server.go", "New") in found


def test_unsupported_file_type_cannot_be_sliced(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Notes\n")
    with pytest.raises(ProviderError, match="symbols cannot be sliced from this file type: notes.md"):
        code(tmp_path, "notes.md", symbols=["Notes"])


def test_only_slice_results_travel_as_text(no_passthrough: None) -> None:
    text = as_text(code(GO, SERVER, symbols=["New"]))
    assert text is not None and text.startswith("// --- New (server/server.go:")
    assert "func New(" in text
    assert as_text(code(GO, SERVER)) is None
