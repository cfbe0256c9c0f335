"""Language detection, file coordinates under BOM/CRLF, limits and the parse counter."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

from sofia.syntax import (
    LanguageUnsupported,
    ParseTimeout,
    ParseTooLarge,
    ParseUnavailable,
    grammars,
    language_for,
    parse,
    parse_file,
    slice_text,
)
from sofia.syntax.grammars import MAX_PARSE_BYTES, parse_bytes
from tests.helpers import count_parses


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("a/b.php", "php"),
        ("X.GO", "go"),
        ("m.py", "python"),
        ("stubs/m.pyi", "python"),
        ("a.js", "js"),
        ("a.mjs", "js"),
        ("a.cjs", "js"),
        ("a.jsx", "js"),
        ("a.ts", "ts"),
        ("a.mts", "ts"),
        ("a.cts", "ts"),
        ("a.tsx", "tsx"),
        ("App.Vue", "vue"),
        ("README.md", None),
        ("script.rb", "ruby"),
        ("main.zig", None),
        ("Makefile", None),
        ("archive.py.bak", None),
    ],
)
def test_language_for(path: str, lang: str | None) -> None:
    assert language_for(path) == lang


def test_bom_keeps_file_offsets_and_crlf_is_kept() -> None:
    source = b"\xef\xbb\xbfimport os\r\n\r\ndef f():\r\n    return 1\r\n"
    tree = parse(source, "python")
    (f,) = tree.symbols
    assert (f.line, f.end_line) == (3, 4)
    assert source[f.start_byte : f.start_byte + 3] == b"def"
    assert slice_text(source, f) == b"def f():\r\n    return 1\r\n"
    assert tree.parse_errors == 0


def test_file_without_trailing_newline_slices_to_the_end() -> None:
    source = b"package p\n\nfunc A() {}"
    (a,) = parse(source, "go").symbols
    assert slice_text(source, a) == b"func A() {}"


def test_parse_errors_are_counted_and_symbols_recovered() -> None:
    source = b"def ok():\n    pass\n\ndef broken(:\n    pass\n"
    tree = parse(source, "python")
    assert tree.parse_errors > 0
    assert "ok" in tree.qnames()


def test_too_large_is_refused_before_parsing() -> None:
    with pytest.raises(ParseTooLarge):
        parse(b"x = 1\n" * (MAX_PARSE_BYTES // 6 + 1), "python")


def test_a_parse_over_its_time_box_is_abandoned() -> None:
    source = b"x = [" + b"1," * 1_500_000 + b"]\n"
    with pytest.raises(ParseTimeout):
        parse_bytes(source, "python", timeout=0.01)
    assert issubclass(ParseTimeout, ParseUnavailable)


def _reader(source: bytes) -> tuple[object, list[bool]]:
    """A read callback over `source` that answers garbage once `spoiled[0]` is set."""
    spoiled = [False]

    def read(byte: int, point: object) -> bytes:
        return b"?" * len(source[byte:]) if spoiled[0] else source[byte:]

    return read, spoiled


def test_a_tree_parsed_through_its_reader_reads_node_text_from_the_bytes() -> None:
    source = b"class A {\n  void f() { int x = 1; }\n}\n"
    read, spoiled = _reader(source)
    tree = grammars.parser_for("java").parse(read)
    assert grammars.backed(tree, read, source)
    spoiled[0] = True
    for node in (tree.root_node, *tree.root_node.children[0].children):
        assert node.text == source[node.start_byte : node.end_byte]
    parsed = parse_bytes(source, "java")
    assert [n.text for n in parsed.root_node.children] == [source.rstrip(b"\n")]


def test_a_tree_is_left_as_it_is_unless_it_holds_the_reader_named() -> None:
    source = b"class A {}\n"
    read, spoiled = _reader(source)
    tree = grammars.parser_for("java").parse(read)
    assert not grammars.backed(tree, lambda byte, point: b"", source)
    spoiled[0] = True
    assert tree.root_node.text == b"?" * len(source)


def test_a_parse_keeps_no_reference_to_what_it_read() -> None:
    source = bytes(bytearray(b"class A {}\n" * 10))  # a new object: no constant shares its count
    before = sys.getrefcount(source)
    for _ in range(20):
        tree = parse_bytes(source, "java")
    del tree
    gc.collect()
    assert sys.getrefcount(source) == before


def test_unsupported_language() -> None:
    with pytest.raises(LanguageUnsupported):
        parse(b"print 1", "zig")


def test_parse_file_parses_once_and_returns_none_when_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = tmp_path / "m.py"
    good.write_bytes(b"def f():\n    pass\n")
    built = count_parses(monkeypatch)
    tree = parse_file(good)
    assert tree is not None and tree.qnames() == ["f"]
    assert built == ["python"]
    assert parse_file(tmp_path / "notes.md", b"# title") is None
    assert parse_file(tmp_path / "missing.py") is None
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (MAX_PARSE_BYTES + 1))
    assert parse_file(big) is None
