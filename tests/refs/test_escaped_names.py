"""A name written escaped — Rust's `r#type`, C#'s `@class`, a keyword or a sentence in backticks
in Kotlin, Swift and Scala — is the name the compiler reads: its definition is named without the
escape, its escaped uses are uses, and `code` finds it however the agent spells it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sofia.syntax import language_for, parse
from tests.helpers import call
from tests.refs.conftest import entry, refs, uses


def sliced(result: dict[str, Any]) -> list[str]:
    """The symbols a `code` answer gives: its slices, or those a small file given whole holds."""
    return [
        name
        for file in result["files"]
        for name in ([s["symbol"] for s in file["slices"]] if "slices" in file else file["symbols"])
    ]


# (file, source, the escaped name as written, the name, its qname, line of the escaped call)
CASES = [
    (
        "lib.rs",
        "struct Token;\nimpl Token {\n    fn r#type(&self) -> u8 { 1 }\n}\n"
        "fn read(t: Token) -> u8 { t.r#type() }\n// type in a comment\n",
        "r#type",
        "type",
        "Token::type",
        5,
    ),
    (
        "Node.cs",
        "class Node {\n    void @class() {}\n    void Walk() { @class(); }\n}\n",
        "@class",
        "class",
        "Node.class",
        3,
    ),
    (
        "Range.kt",
        "class Range {\n    fun `in`(x: Int) = x > 0\n    fun check() = `in`(3)\n}\n",
        "`in`",
        "in",
        "Range.in",
        3,
    ),
    (
        "Style.swift",
        "struct Style {\n  func `default`() {}\n  func apply() { self.`default`() }\n}\n",
        "`default`",
        "default",
        "Style.default",
        3,
    ),
    (
        "Keys.scala",
        "class Keys {\n  def `type`(): Int = 1\n  def read(): Int = this.`type`()\n}\n",
        "`type`",
        "type",
        "Keys.type",
        3,
    ),
]


EVERY_CASE = pytest.mark.parametrize(
    ("file", "source", "written", "name", "qname", "line"), CASES, ids=[c[0] for c in CASES]
)


@EVERY_CASE
def test_an_escaped_definition_is_its_name_and_its_escaped_use_a_use(
    tmp_path: Path, file: str, source: str, written: str, name: str, qname: str, line: int
) -> None:
    (tmp_path / file).write_text(source)
    tree = parse(source.encode(), language_for(tmp_path / file) or "", file)
    assert qname in tree.qnames()
    item = entry(refs(tmp_path, name), name)
    assert [d["qname"] for d in item["definitions"]] == [qname]
    assert (file, line, "call", "exact") in uses(item)
    assert item["totals"].get("other", 0) == 0, "an escaped use is no longer a larger token"


@EVERY_CASE
def test_code_finds_an_escaped_name_as_written_or_as_read(
    tmp_path: Path, file: str, source: str, written: str, name: str, qname: str, line: int
) -> None:
    (tmp_path / file).write_text(source)
    owner = qname.rsplit(name, 1)[0]
    for spelling in (name, written, owner + written):
        found = call("code", {"files": ["."], "symbols": [spelling]}, tmp_path)
        assert sliced(found) == [qname], spelling
        here = call("code", {"files": [file], "symbols": [spelling]}, tmp_path)
        assert sliced(here) == [qname], spelling


def test_a_test_named_in_words_keeps_its_spaces_in_every_language_that_allows_it(tmp_path: Path) -> None:
    """Kotlin, Swift and Scala test names in backticks (`` `adds two numbers` ``) are one name with
    its spaces, the same in the three, and found by that name with or without the backticks."""
    sources = {
        "CartTest.kt": "class CartTest {\n    fun `adds two numbers`() {\n    }\n}\n",
        "CartTests.swift": "class CartTests {\n  func `adds two numbers`() {\n  }\n}\n",
        "CartSpec.scala": "class CartSpec {\n  def `adds two numbers`(): Unit = {\n  }\n}\n",
    }
    for file, source in sources.items():
        (tmp_path / file).write_text(source)
        owner = file.split(".")[0]
        tree = parse(source.encode(), language_for(tmp_path / file) or "", file)
        assert f"{owner}.adds two numbers" in tree.qnames()
        for spelling in ("adds two numbers", "`adds two numbers`"):
            here = call("code", {"files": [file], "symbols": [spelling]}, tmp_path)
            assert sliced(here) == [f"{owner}.adds two numbers"]
    found = call("code", {"files": ["."], "symbols": ["`adds two numbers`"]}, tmp_path)
    assert sorted(sliced(found)) == [
        "CartSpec.adds two numbers",
        "CartTest.adds two numbers",
        "CartTests.adds two numbers",
    ]
    item = entry(refs(tmp_path, "`adds two numbers`"), "`adds two numbers`")
    assert item["totals"]["definitions"] == 3
    printed = call("code", {"files": ["."], "symbols": ["CartTest.adds two numbers"]}, tmp_path)
    assert sliced(printed) == ["CartTest.adds two numbers"], "a qname as grep prints it is a key"


@pytest.mark.parametrize("written", ["adds two", "Cart.adds two.numbers", "Cart. adds"])
def test_whitespace_outside_backticks_or_a_qnames_last_segment_reads_as_several_names(
    tmp_path: Path, written: str
) -> None:
    from sofia.errors import ProviderError

    (tmp_path / "CartTest.kt").write_text("class CartTest {\n    fun `adds two`() {}\n}\n")
    with pytest.raises(ProviderError, match="symbol name holds whitespace"):
        call("refs", {"symbols": [written]}, tmp_path)
