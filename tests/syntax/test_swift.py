"""Swift symbols: one grammar node for classes, structs, enums and extensions told apart by their
keyword; an extension qualifies its members; attributes and `///` docs belong to the slice."""

from __future__ import annotations

from sofia.syntax import parse, slice_text
from tests.code.conftest import FIXTURES

SHAPES = FIXTURES / "swift" / "Sources" / "Shapes.swift"


def test_kinds_and_qualified_names() -> None:
    tree = parse(SHAPES.read_bytes(), "swift", SHAPES.name)
    assert [(s.kind, s.qname) for s in tree.walk()] == [
        ("interface", "Shape"),
        ("method", "Shape.area"),
        ("class", "Circle"),
        ("method", "Circle.init"),
        ("method", "Circle.deinit"),
        ("method", "Circle.area"),
        ("method", "Circle.subscript"),
        ("class", "Circle.Inner"),
        ("struct", "Point"),
        ("method", "Point.moved"),
        ("enum", "Color"),
        ("method", "Color.x"),
        ("method", "Circle.grow"),
        ("function", "free"),
        ("type", "Num"),
    ]


def test_a_slice_starts_at_the_doc_comment_and_the_attribute() -> None:
    source = SHAPES.read_bytes()
    tree = parse(source, "swift", SHAPES.name)
    (shape,) = tree.find("Shape")
    assert slice_text(source, shape).decode().startswith("/// A shape.\n@objc public protocol Shape")
    (area,) = tree.find("Circle.area")
    assert slice_text(source, area).decode().lstrip().startswith("@discardableResult")
