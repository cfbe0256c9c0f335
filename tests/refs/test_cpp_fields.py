"""refs in C++ where a receiver's type is declared in another file than the use: a field of the
class whose out-of-line method holds it, declared in the class's header (directly, through
`this`, a smart pointer, an element of a container, a range-for variable, or inherited from a
parent in a header that header includes), and a named cast's type. Each is exact for its own
type's method and elsewhere for the other's; a field no file declares stays a name match. The
same receivers typed by the use's own file are exact as well."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sofia.providers.refs import fields
from tests.refs.conftest import FIXTURES, accounted, entry, forget_memo, refs, uses

CPP = FIXTURES / "cpp"
ENGINE = "src/engine.cpp"
INLINE = "src/inline.hpp"
LOCAL = "src/local.cpp"
TABLES = {6, 7, 10, 11, 13, 15, 20}
"""main_, this->main_, tables_[0], tables_.back(), by_id_[7]->, a range over tables_, kept_->."""
INDEXES = {8, 9, 12, 18, 21}
"""index_, spare_->, indexes_[0]->, a range over indexes_, reinterpret_cast<const Index*>."""
UNDECLARED = 22


def _lines(item: dict[str, object], file: str, match: str) -> set[int]:
    return {line for f, line, _, m in uses(item) if f == file and m == match}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("symbol", "mine", "theirs"),
    [("Table::size", TABLES, INDEXES), ("Index::size", INDEXES, TABLES)],
)
def test_a_field_declared_in_the_header_types_its_receiver(
    symbol: str, mine: set[int], theirs: set[int]
) -> None:
    item = entry(refs(CPP, symbol), symbol)
    assert _lines(item, ENGINE, "exact") == mine
    assert not _lines(item, ENGINE, "exact") & theirs
    assert _lines(item, ENGINE, "name") == {UNDECLARED}
    assert item["totals"]["elsewhere"] >= len(theirs)
    assert accounted(item) == item["totals"]["text"]


@pytest.mark.parametrize(("symbol", "mine"), [("Table::size", {12, 13, 15}), ("Index::size", {18, 20, 21})])
def test_receivers_the_file_types_itself(symbol: str, mine: set[int]) -> None:
    """`this->first_->`, an element of a parameter, an `auto` range variable, `.at()`, a cast."""
    item = entry(refs(CPP, symbol), symbol)
    assert _lines(item, LOCAL, "exact") == mine
    assert not _lines(item, LOCAL, "name")


def test_an_inherited_field_of_a_class_the_file_declares() -> None:
    item = entry(refs(CPP, "Table::size"), "Table::size")
    assert _lines(item, INLINE, "exact") == {9}


def test_past_the_bound_on_files_read_a_field_stays_a_name_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fields, "MAX_FILES", 0)
    forget_memo()
    item = entry(refs(CPP, "Table::size"), "Table::size")
    header_typed = TABLES | INDEXES - {21}  # the cast's type is written on its line
    assert _lines(item, ENGINE, "name") == header_typed | {UNDECLARED}
    assert not _lines(item, ENGINE, "exact")
    assert accounted(item) == item["totals"]["text"]


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


USE = '#include "a.h"\nvoid A::Run() { held_->size(); }\n'
SIZES = "struct Table { int size() const; };\nstruct Index { int size() const; };\n"


def test_include_and_parent_cycles_end(tmp_path: Path) -> None:
    """a.h and b.h include each other and their classes name each other as parents: the field
    is still found, and a field neither declares stays a name match."""
    _write(
        tmp_path,
        {
            "sizes.h": SIZES,
            "a.h": '#include "b.h"\n#include "sizes.h"\nclass A : public B { void Run(); };\n',
            "b.h": '#include "a.h"\nclass B : public A { protected: Table* held_; };\n',
            "a.cpp": USE + "void A::Other() { lost_->size(); }\n",
        },
    )
    item = entry(refs(tmp_path, "Table::size"), "Table::size")
    assert {(f, line, m) for f, line, _, m in uses(item)} == {("a.cpp", 2, "exact"), ("a.cpp", 3, "name")}


def test_a_header_outside_the_workspace_is_not_read(tmp_path: Path) -> None:
    workspace = tmp_path / "work"
    _write(tmp_path, {"a.h": '#include "work/sizes.h"\nclass A { void Run(); Table* held_; };\n'})
    _write(workspace, {"sizes.h": SIZES, "a.cpp": USE.replace('"a.h"', '"../a.h"')})
    item = entry(refs(workspace, "Table::size"), "Table::size")
    assert {(f, line, m) for f, line, _, m in uses(item)} == {("a.cpp", 2, "name")}


def test_an_include_naming_a_fifo_is_not_opened(tmp_path: Path) -> None:
    _write(tmp_path, {"sizes.h": SIZES, "a.cpp": USE})
    os.mkfifo(tmp_path / "a.h")
    item = entry(refs(tmp_path, "Table::size"), "Table::size")
    assert {(f, line, m) for f, line, _, m in uses(item)} == {("a.cpp", 2, "name")}
