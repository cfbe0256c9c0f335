"""refs in C++: a method declared in its class and defined out of line, calls on receivers typed
by a local, a reference or pointer parameter, `new` and `this` are exact, a same-named method of
an unrelated type is its own; a class's uses as a base, a type, an instantiation and an import."""

from __future__ import annotations

from tests.code.conftest import FIXTURES
from tests.refs.conftest import accounted, entry, refs, rows, uses

CPP = FIXTURES / "cpp"
MAIN = "app/main.cpp"


def test_a_method_declared_in_its_class_and_defined_out_of_line() -> None:
    item = entry(refs(CPP, "Circle::area"), "Circle::area")
    assert [(d["file"], d["line"], d["kind"], d["qname"]) for d in item["definitions"]] == [
        ("src/shape.cpp", 12, "method", "geo::Circle::area"),
        ("src/shape.hpp", 27, "method", "geo::Circle::area"),
    ]
    found = uses(item)
    assert {(line, match) for file, line, kind, match in found if file == MAIN and kind == "call"} == {
        (13, "exact"),  # local.area(), ref.area(), ptr->area(), made->area()
        (14, "name"),  # Circle::unit().area(): what unit() returns is not read
        (23, "exact"),  # this->area() in Ring, a Circle
    }
    assert not any(line == 15 for _, line, _, _ in found)  # report.area(): Report's own
    assert item["totals"]["in_comments"] == 3 and item["totals"]["in_strings"] == 1
    assert accounted(item) == item["totals"]["text"]


def test_the_four_typed_receivers_on_one_line_are_each_exact() -> None:
    item = entry(refs(CPP, "Circle::area"), "Circle::area")
    on_line = [row for row in rows(item, "exact") if row["line"] == 13]
    assert [row["col"] for row in on_line] == [22, 35, 49, 64]


def test_an_unrelated_types_method_of_the_same_name() -> None:
    item = entry(refs(CPP, "Report::area"), "Report::area")
    assert [(d["file"], d["line"]) for d in item["definitions"]] == [(MAIN, 7)]
    found = uses(item)
    assert (MAIN, 15, "call", "exact") in found
    # a Circle's area is not Report's, but whether Circle inherits from Report is not said here
    assert {(line, match) for _, line, _, match in found if line != 15} == {
        (13, "name"),
        (14, "name"),
        (23, "name"),
    }


def test_a_class_as_base_type_instantiation_and_import() -> None:
    item = entry(refs(CPP, "geo::Circle"), "geo::Circle")
    found = {(line, kind, match) for file, line, kind, match in uses(item) if file == MAIN}
    assert (3, "import", "exact") in found  # using geo::Circle;
    assert (10, "type", "exact") in found  # const Circle& ref, Circle* ptr
    assert (12, "new", "exact") in found  # new Circle(3.0)
    assert (20, "extends", "exact") in found  # class Ring : public g::Circle


def test_a_namespace_function_called_through_an_alias_qualified_name() -> None:
    item = entry(refs(CPP, "helpers::scale"), "helpers::scale")
    assert [(d["file"], d["line"], d["kind"]) for d in item["definitions"]] == [
        ("src/shape.cpp", 29, "method"),  # double helpers::scale(double by) {...}: qualified out of line
        ("src/shape.hpp", 64, "prototype"),
    ]
    assert uses(item) == {(MAIN, 28, "call", "exact")}  # g::helpers::scale(1)
