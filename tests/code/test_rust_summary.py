"""Rust summaries: imports as written, types with supertraits and the traits an `impl` beside
them implements, methods owned by their impl's type with their signatures (a trait impl's
methods name the trait in `via` instead: the trait declares their signatures), visibility read off
`pub` (`pub(crate)` is crate), fields, consts and statics, enum variants; slices through `code`."""

from __future__ import annotations

from typing import Any

from tests.code.conftest import FIXTURES, code, slice_text
from tests.code.summarised import summarised

RUST = FIXTURES / "rust"
SHAPES = "src/shapes.rs"


def rows(table: list[dict[str, Any]], *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(c, "") for c in columns) for row in table]


def test_imports_and_types() -> None:
    document = summarised(RUST, SHAPES)
    assert document["imports"] == [
        "std::collections::HashMap",
        "std::fmt::{self, Display as Show}",
        "super::*",
    ]
    assert rows(document["types"], "kind", "name", "vis", "extends", "implements", "attrs", "detail") == [
        ("trait", "Shape", "public", "Show, Clone", "", "", ""),
        ("struct", "Circle", "public", "", "Shape, Show", "#[derive(Debug, Clone)]", ""),
        ("struct", "Square", "public", "", "", "#[derive(Debug, Clone)]", ""),
        ("enum", "Kind", "public", "", "", "", ""),
        ("union", "Bits", "public", "", "", "#[repr(C)]", ""),
        ("type", "Registry", "public", "", "", "", "<K> = HashMap<K, Circle>"),
        ("struct", "Wrapper", "public", "", "Shape", "", "<T: Shape>"),
        ("module", "units", "super", "", "", "", ""),
        ("module", "units::metric", "public", "", "", "", ""),
        ("module", "tests", "private", "", "", "#[cfg(test)]", ""),
    ]


def test_functions_with_signatures_and_visibility() -> None:
    functions = summarised(RUST, SHAPES)["functions"]
    assert rows(functions, "owner", "name", "sig", "vis", "via")[:9] == [
        ("Shape", "area", "(&self) -> f64", "public", ""),  # a trait's members are as visible as it
        ("Shape", "name", "(&self) -> String", "public", ""),
        ("Circle", "new", "(radius: f64) -> Self", "public", ""),
        ("Circle", "scaled", "<T: Into<f64>>(&self, by: T) -> Circle", "crate", ""),
        ("Circle", "area", "", "public", "Shape"),  # impl Shape for Circle: the trait declares it
        ("Circle", "fmt", "", "public", "Show"),
        ("Square", "area", "(&self) -> f64", "public", ""),
        ("Wrapper", "area", "", "public", "Shape"),
        ("", "circle", "", "public", ""),  # #[macro_export]
    ]
    by_name = {row["name"]: row for row in functions}
    assert (by_name["factor"]["owner"], by_name["factor"]["vis"]) == ("units::metric::to_metres", "private")
    assert by_name["circle_area"]["attrs"] == "#[test]"
    assert (by_name["c_area"]["line"], by_name["c_area"]["end_line"]) == (104, 104)


def test_fields_constants_and_variants() -> None:
    document = summarised(RUST, SHAPES)
    assert rows(document["properties"], "owner", "name", "type", "vis") == [
        ("Circle", "radius", "f64", "public"),
        ("Circle", "label", "Option<String>", "private"),
        ("Bits", "whole", "u32", "public"),
        ("Bits", "halves", "[u16; 2]", "private"),
        ("Wrapper", "inner", "T", "private"),
    ]
    assert rows(document["constants"], "name", "type", "value") == [
        ("MAX_SIDE", "f64", "1_000.0"),
        ("CREATED", "usize", "0"),
    ]
    assert rows(document["cases"], "owner", "name") == [
        ("Kind", "Round"),
        ("Kind", "Angular"),
        ("Kind", "Other"),
    ]


def test_exported_keeps_pub_items_and_trait_members() -> None:
    document = summarised(RUST, SHAPES, exported=True)
    assert "tests" not in [t["name"] for t in document["types"]]
    assert "units" not in [t["name"] for t in document["types"]]  # pub(super)
    names = [(f.get("owner", ""), f["name"]) for f in document["functions"]]
    assert ("Circle", "fmt") in names and ("Circle", "scaled") not in names
    assert [p["name"] for p in document["properties"]] == ["radius", "whole"]


def test_brief_keeps_signatures_only() -> None:
    document = summarised(RUST, SHAPES, brief=True)
    assert "imports" not in document and "properties" not in document
    assert all("attrs" not in row for row in document["types"] + document["functions"])
    assert document["functions"][2]["sig"] == "(radius: f64) -> Self"


def test_slices_through_code_and_by_name(no_passthrough: None) -> None:
    result = code(RUST, SHAPES, symbols=["Circle::new", "Square.area"])
    text = slice_text(result)
    assert text.startswith("// --- Circle::new (src/shapes.rs:31-34) ---\n    /// Makes a circle;")
    assert "// --- Square::area (src/shapes.rs:54-57) ---\n    /// A square's area: not a circle's.\n" in text
    found = code(RUST, "src", symbols=["area"])
    symbols = [s["symbol"] for f in found["files"] for s in f["slices"]]
    assert symbols == ["Shape::area", "Circle::area", "Square::area", "Wrapper::area"]
