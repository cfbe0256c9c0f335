"""C++ summaries: includes and using-declarations, namespaces and classes with their bases and
template parameters, members with signatures and the visibility of their access section,
virtual / abstract / deleted / defaulted members, fields, aliases, enum classes; exported,
brief, slices by name."""

from __future__ import annotations

from typing import Any

from tests.code.conftest import FIXTURES, code, slice_text
from tests.code.summarised import summarised

CPP = FIXTURES / "cpp"
HEADER = "src/shape.hpp"


def rows(table: list[dict[str, Any]], *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(c, "") for c in columns) for row in table]


def test_imports_and_types_with_bases_and_template_parameters() -> None:
    summary = summarised(CPP, HEADER)
    assert summary["imports"] == ["<string>", "<vector>", "legacy.h"]
    assert rows(summary["types"], "kind", "name", "extends", "detail") == [
        ("namespace", "geo", "", ""),
        ("class", "geo::Shape", "", ""),
        ("class", "geo::Circle", "Shape", ""),
        ("struct", "geo::Circle::Style", "", ""),
        ("enum", "geo::Color", "", ": unsigned char"),
        ("struct", "geo::Point", "", ""),
        ("type", "geo::Points", "", "= std::vector<Point>"),
        ("type", "geo::ShapePtr", "", ""),
        ("class", "geo::Box", "", "<typename T, int N = 4>"),
        ("namespace", "geo::helpers", "", ""),
    ]
    assert summarised(CPP, "app/main.cpp")["imports"] == [
        "../src/shape.hpp",
        "geo::Circle",
        "namespace g = geo",
    ]


def test_members_with_signatures_and_modifiers() -> None:
    functions = rows(summarised(CPP, HEADER)["functions"], "owner", "name", "sig", "line", "mods")
    assert functions == [
        ("geo::Shape", "~Shape", "()", 13, "virtual default"),
        ("geo::Shape", "area", "double () const", 15, "virtual abstract"),
        ("geo::Shape", "name", "std::string () const", 16, "virtual"),
        ("geo::Circle", "Circle", "(double radius)", 24, "explicit"),
        ("geo::Circle", "Circle", "(const Circle&)", 25, "delete"),
        ("geo::Circle", "~Circle", "() override", 26, ""),
        ("geo::Circle", "area", "double () const override", 27, ""),
        ("geo::Circle", "unit", "Circle ()", 28, "static"),
        ("geo::Circle", "operator==", "bool (const Circle& other) const", 29, ""),
        ("geo::Circle", "operator bool", "() const", 30, ""),
        ("geo::Box", "put", "void (const T& item)", 54, ""),
        ("geo::Box", "operator[]", "T &(int i)", 55, ""),
        ("geo::Box", "convert", "<typename U> U () const", 57, ""),
        ("geo::helpers", "scale", "double (double by)", 64, ""),
    ]


def test_fields_take_the_visibility_of_their_access_section() -> None:
    properties = rows(summarised(CPP, HEADER)["properties"], "owner", "name", "type", "vis", "mods", "value")
    assert properties == [
        ("geo::Shape", "sides_", "int", "protected", "", "0"),
        ("geo::Circle::Style", "stroke", "int", "public", "", ""),
        ("geo::Circle", "radius_", "double", "private", "", ""),
        ("geo::Circle", "kPi", "double", "private", "static constexpr", "3.14159"),
        ("geo::Point", "x", "double", "public", "", ""),  # a struct starts public
        ("geo::Point", "y", "double", "public", "", ""),
        ("geo::Box", "items_", "T [N]", "private", "", ""),
    ]
    assert rows(summarised(CPP, HEADER)["cases"], "owner", "name", "value") == [
        ("geo::Color", "Red", ""),
        ("geo::Color", "Green", "4"),
        ("geo::Color", "Blue", ""),
    ]


def test_out_of_line_definitions_and_file_level_visibility() -> None:
    functions = rows(summarised(CPP, "app/main.cpp")["functions"], "owner", "name", "vis")
    assert functions == [
        ("Report", "area", "public"),
        ("", "measure", "private"),  # static
        ("Ring", "Ring", "public"),
        ("Ring", "inner", "public"),
        ("", "main", "public"),
    ]
    source = rows(summarised(CPP, "src/shape.cpp")["functions"], "owner", "name", "sig")
    assert ("geo::Box", "put", "<typename T, int N> void (const T& item)") in source
    assert ("geo::Shape", "name", "std::string () const") in source


def test_exported_leaves_protected_and_private_members_out() -> None:
    summary = summarised(CPP, HEADER, exported=True)
    assert [(p["owner"], p["name"]) for p in summary["properties"]] == [
        ("geo::Circle::Style", "stroke"),
        ("geo::Point", "x"),
        ("geo::Point", "y"),
    ]


def test_brief_keeps_signatures_only() -> None:
    summary = summarised(CPP, HEADER, brief=True)
    assert "imports" not in summary and "properties" not in summary
    assert summary["functions"][1]["sig"] == "double () const"


def test_slices_through_code_and_by_name(no_passthrough: None) -> None:
    text = slice_text(code(CPP, "src/shape.cpp", symbols=["geo::Circle::area"]))
    assert text.startswith("// --- geo::Circle::area (src/shape.cpp:11-14) ---\n// area: pi r squared\n")
    found = code(CPP, ".", symbols=["Circle::area"])
    assert [(f["path"], [s["symbol"] for s in f["slices"]]) for f in found["files"]] == [
        ("src/shape.cpp", ["geo::Circle::area"]),
        ("src/shape.hpp", ["geo::Circle::area"]),
    ]
