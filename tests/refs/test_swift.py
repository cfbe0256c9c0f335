"""refs in Swift: typed parameters and `self` make member uses exact, a same-named method of an
unrelated type is elsewhere, argument labels are not uses, comments and strings count apart."""

from __future__ import annotations

from tests.code.conftest import FIXTURES
from tests.refs.conftest import entry, refs, uses

SWIFT = FIXTURES / "swift"


def test_member_uses_by_receiver() -> None:
    item = entry(refs(SWIFT, "Circle.area"), "Circle.area")
    found = uses(item)
    assert ("Sources/Square.swift", 6, "call", "exact") in found  # c.area(), c: Circle
    assert not any(row[0] == "Sources/Square.swift" and row[1] in (7, 8, 9) for row in found)  # Square's own
    assert item["totals"]["in_comments"] == 1 and item["totals"]["in_strings"] == 1


def test_a_call_of_a_type_is_new_and_a_label_is_not_a_use() -> None:
    item = entry(refs(SWIFT, "Circle"), "Circle")
    assert item["kinds"].get("new") == 2
    radius = entry(refs(SWIFT, "radius"), "radius")
    lines = {row[1] for row in uses(radius) if row[0] == "Sources/Shapes.swift"}
    assert 27 not in lines  # Circle(radius: 3): a label
