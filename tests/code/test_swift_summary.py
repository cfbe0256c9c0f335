"""Swift summaries: imports, types with their inheritance, signatures with argument labels,
properties with their types, enum cases, access levels (default internal)."""

from __future__ import annotations

from tests.code.conftest import FIXTURES
from tests.code.summarised import summarised

SWIFT = FIXTURES / "swift"


def test_the_summary_rows() -> None:
    document = summarised(SWIFT, "Sources/Shapes.swift")
    assert document["imports"] == ["Foundation", "UIKit"]
    types = [(t["kind"], t["name"], t.get("vis", "public"), t.get("extends", "")) for t in document["types"]]
    assert types[:2] == [
        ("interface", "Shape", "public", "AnyObject"),
        ("class", "Circle", "public", "NSObject, Shape"),
    ]
    functions = {(f.get("owner", ""), f["name"]): f for f in document["functions"]}
    assert functions[("", "free")]["sig"] == "(_ a: Int, label b: Int) -> Int"
    assert functions[("Circle", "grow")]["sig"] == "(_ by: Double)"  # an extension's member
    assert functions[("Circle", "area")]["attrs"] == "@discardableResult"
    properties = [
        (p["owner"], p["name"], p.get("type", ""), p.get("vis", "")) for p in document["properties"]
    ]
    assert ("Circle", "radius", "Double", "private") in properties
    assert [(c["owner"], c["name"]) for c in document["cases"]] == [("Color", "red"), ("Color", "green")]


def test_exported_keeps_public_and_open_declarations() -> None:
    document = summarised(SWIFT, "Sources/Shapes.swift", exported=True)
    assert [t["name"] for t in document["types"]] == ["Shape", "Circle"]
