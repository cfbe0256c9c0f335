"""C++ summaries: includes and using-declarations, namespaces and classes with their bases and
template parameters, members with signatures and the visibility of their access section,
virtual / abstract / deleted / defaulted members, fields, aliases, enum classes; exported,
brief, slices by name."""

from __future__ import annotations

from pathlib import Path
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
    assert summary["namespace"] == "geo"  # every declaration is in it: written once, not before each name
    assert rows(summary["types"], "kind", "name", "extends", "detail") == [
        ("class", "Shape", "", ""),
        ("class", "Circle", "Shape", ""),
        ("struct", "Circle::Style", "", ""),
        ("enum", "Color", "", ": unsigned char"),
        ("struct", "Point", "", ""),
        ("type", "Points", "", "= std::vector<Point>"),
        ("type", "ShapePtr", "", ""),
        ("class", "Box", "", "<typename T, int N = 4>"),
        ("namespace", "helpers", "", ""),
    ]
    assert summarised(CPP, "app/main.cpp")["imports"] == [
        "../src/shape.hpp",
        "geo::Circle",
        "namespace g = geo",
    ]


def test_members_with_signatures_and_modifiers() -> None:
    functions = rows(summarised(CPP, HEADER)["functions"], "owner", "name", "sig", "line", "mods")
    assert functions == [
        ("Shape", "~Shape", "()", 13, "virtual default"),
        ("Shape", "area", "double () const", 15, "virtual abstract"),
        ("Shape", "name", "std::string () const", 16, "virtual"),
        ("Circle", "Circle", "(double radius)", 24, "explicit"),
        ("Circle", "Circle", "(const Circle&)", 25, "delete"),
        ("Circle", "~Circle", "() override", 26, ""),
        ("Circle", "area", "double () const override", 27, ""),
        ("Circle", "unit", "Circle ()", 28, "static"),
        ("Circle", "operator==", "bool (const Circle& other) const", 29, ""),
        ("Circle", "operator bool", "() const", 30, ""),
        ("Box", "put", "void (const T& item)", 54, ""),
        ("Box", "operator[]", "T &(int i)", 55, ""),
        ("Box", "convert", "<typename U> U () const", 57, ""),
        ("helpers", "scale", "double (double by)", 64, ""),
    ]


def test_fields_take_the_visibility_of_their_access_section() -> None:
    properties = rows(summarised(CPP, HEADER)["properties"], "owner", "name", "type", "vis", "mods", "value")
    assert properties == [
        ("Shape", "sides_", "int", "protected", "", "0"),
        ("Circle::Style", "stroke", "int", "public", "", ""),
        ("Circle", "radius_", "double", "private", "", ""),
        ("Circle", "kPi", "double", "private", "static constexpr", "3.14159"),
        ("Point", "x", "double", "public", "", ""),  # a struct starts public
        ("Point", "y", "double", "public", "", ""),
        ("Box", "items_", "T [N]", "private", "", ""),
    ]
    assert rows(summarised(CPP, HEADER)["cases"], "owner", "name", "value") == [
        ("Color", "Red", ""),
        ("Color", "Green", "4"),
        ("Color", "Blue", ""),
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
    shape = summarised(CPP, "src/shape.cpp")
    assert shape["namespace"] == ""  # geo::Shape::name is defined outside namespace geo
    source = rows(shape["functions"], "owner", "name", "sig")
    assert ("geo::Box", "put", "<typename T, int N> void (const T& item)") in source
    assert ("geo::Shape", "name", "std::string () const") in source


def test_exported_leaves_protected_and_private_members_out() -> None:
    summary = summarised(CPP, HEADER, exported=True)
    assert [(p["owner"], p["name"]) for p in summary["properties"]] == [
        ("Circle::Style", "stroke"),
        ("Point", "x"),
        ("Point", "y"),
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


def test_static_members_defined_out_of_line_after_a_macro(tmp_path: Path) -> None:
    (tmp_path / "network.cpp").write_text(
        "int Network::rank_ = 0;\n"
        "THREAD_LOCAL std::vector<comm_size_t> Network::block_len_;\n"
        "THREAD_LOCAL BruckMap Network::bruck_map_;\n"
    )
    constants = summarised(tmp_path, "network.cpp")["constants"]
    assert rows(constants, "owner", "name", "type", "value") == [
        ("Network", "rank_", "int", "0"),  # not `int Network::`
        ("Network", "block_len_", "std::vector<comm_size_t>", ""),  # not owned by `std::vector`
        ("Network", "bruck_map_", "BruckMap", ""),
    ]
