"""Ruby symbols: classes and modules qualify with `::` (nested or written qualified), instance
methods are `Owner#name` and singleton ones (`def self.x`, `class << self`) `Owner.name`, a `def`
outside any class is a function; `#` comments above belong to the slice, also the first comment
of a body (which the grammar places before the body)."""

from __future__ import annotations

import pytest

from sofia.syntax import lookup, parse, slice_text, touched_symbols
from tests.code.conftest import FIXTURES

SHAPES = FIXTURES / "ruby" / "lib" / "shapes.rb"


def test_kinds_and_qualified_names() -> None:
    tree = parse(SHAPES.read_bytes(), "ruby", SHAPES.name)
    assert [(s.kind, s.qname, s.line, s.end_line) for s in tree.walk()] == [
        ("module", "Geometry", 8, 76),
        ("module", "Geometry::Measurable", 13, 17),
        ("method", "Geometry::Measurable#measured?", 14, 16),
        ("class", "Geometry::Circle", 20, 75),
        ("method", "Geometry::Circle.unit", 29, 31),
        ("method", "Geometry::Circle#initialize", 34, 37),
        ("method", "Geometry::Circle#area", 40, 42),
        ("method", "Geometry::Circle#<=>", 44, 46),
        ("method", "Geometry::Circle#radius=", 48, 50),
        ("method", "Geometry::Circle.from_json", 53, 58),  # in class << self
        ("method", "Geometry::Circle.cache", 62, 62),
        ("method", "Geometry::Circle#scale_by", 67, 67),  # an endless def
        ("method", "Geometry::Circle#secret", 71, 71),
        ("method", "Geometry::Circle#shown", 73, 73),  # public def shown
        ("class", "Geometry::Square", 79, 84),  # written qualified
        ("method", "Geometry::Square#area", 81, 83),  # the same name on an unrelated class
        ("function", "describe", 86, 88),
    ]
    assert tree.parse_errors == 0


def test_slices_hold_the_comments_above() -> None:
    source = SHAPES.read_bytes()
    tree = parse(source, "ruby", SHAPES.name)
    (unit,) = tree.find("Geometry::Circle.unit")
    assert (
        slice_text(source, unit).decode()
        == "    # Builds a unit circle.\n    def self.unit\n      new(1)\n    end\n"
    )
    (circle,) = tree.find("Geometry::Circle")
    assert (circle.slice_line, circle.line) == (19, 20)
    (area,) = tree.find("Geometry::Square#area")
    assert slice_text(source, area).decode().startswith("  # The side squared.\n  def area\n")


def test_names_are_found_in_any_spelling() -> None:
    tree = parse(SHAPES.read_bytes(), "ruby", SHAPES.name)
    assert [s.qname for s in lookup.find(tree, "area")] == ["Geometry::Circle#area", "Geometry::Square#area"]
    for spelling in ("Geometry::Circle#area", "Geometry::Circle::area", "Geometry.Circle.area"):
        assert [s.line for s in lookup.find(tree, spelling)] == [40], spelling
    assert [s.qname for s in lookup.find(tree, "Geometry::Circle.from_json")] == [
        "Geometry::Circle.from_json"
    ]


@pytest.mark.parametrize(
    ("text", "qualifier", "name", "member"),
    [
        ("Geometry::Circle#area", ("Geometry", "Circle"), "area", True),
        ("Circle.unit", ("Circle",), "unit", True),
        ("valid?", (), "valid?", False),
    ],
)
def test_a_requested_name_splits_on_hash(
    text: str, qualifier: tuple[str, ...], name: str, member: bool
) -> None:
    query = lookup.parse_query(text)
    assert (query.qualifier, query.name, query.member) == (qualifier, name, member)


def test_enclosing_symbol_and_touched() -> None:
    source = SHAPES.read_bytes()
    tree = parse(source, "ruby", SHAPES.name)
    assert tree.enclosing(41).qname == "Geometry::Circle#area"  # type: ignore[union-attr]
    assert tree.enclosing(55).qname == "Geometry::Circle.from_json"  # type: ignore[union-attr]
    assert tree.enclosing(2) is None
    assert touched_symbols("ruby", source, source, [(82, 82)], [(82, 82)]) == ["Geometry::Square#area"]


def test_a_singleton_method_on_another_constant_is_owned_by_it() -> None:
    tree = parse(b"class A\n  def B.make; end\n  def A.build; end\nend\n", "ruby", "x.rb")
    assert tree.qnames() == ["A", "A::B.make", "A.build"]
