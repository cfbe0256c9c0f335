"""Java symbols: nested types qualify their members, overloads share a qname, Javadoc and
annotations belong to their declaration's slice, and the declared line is the name's."""

from __future__ import annotations

from sofia.syntax import parse, slice_text, touched_symbols
from tests.code.conftest import FIXTURES

ORDER = FIXTURES / "java" / "src" / "com" / "acme" / "Order.java"


def test_every_declaration_is_a_symbol_qualified_by_its_types() -> None:
    tree = parse(ORDER.read_bytes(), "java", ORDER.name)
    assert [(s.kind, s.qname) for s in tree.walk()] == [
        ("class", "Order"),
        ("method", "Order.Order"),
        ("method", "Order.Order"),
        ("method", "Order.add"),
        ("method", "Order.add"),
        ("method", "Order.pick"),
        ("method", "Order.compareTo"),
        ("class", "Order.Line"),
        ("method", "Order.Line.count"),
        ("interface", "Order.Listener"),
        ("method", "Order.Listener.added"),
        ("enum", "Order.State"),
        ("method", "Order.State.State"),
        ("method", "Order.State.State"),
        ("class", "Order.Total"),
    ]


def test_a_slice_holds_the_javadoc_and_the_annotations() -> None:
    source = ORDER.read_bytes()
    tree = parse(source, "java", ORDER.name)
    first, second = tree.find("Order.add")
    text = slice_text(source, first).decode()
    assert text.startswith("    /**\n     * Adds one item.")
    assert "@Override" in text and text.rstrip().endswith("}")
    assert (first.slice_line, first.line, first.end_line) == (29, 33, 36)
    assert slice_text(source, second).decode().startswith("    public void add(T item, int times)")
    order = tree.find("Order")[0]
    assert (order.slice_line, order.line) == (8, 13)  # the class's Javadoc, then @Entity and @Table


def test_grep_and_changed_name_the_innermost_symbol() -> None:
    source = ORDER.read_bytes()
    tree = parse(source, "java", ORDER.name)
    holder = tree.enclosing(62)
    assert holder is not None and holder.qname == "Order.Line.count"
    edited = source.replace(b"return count;", b"return count + 1;")
    assert touched_symbols("java", source, edited, [(62, 62)], [(62, 62)]) == ["Order.Line.count"]
