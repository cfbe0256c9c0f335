"""refs in C++: a method declared in its class and defined out of line, calls on receivers typed
by a local, a reference or pointer parameter, `new` and `this` are exact, a same-named method of
an unrelated type is its own; a class's uses as a base, a type, an instantiation and an import."""

from __future__ import annotations

from pathlib import Path

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
    # a Circle's area is not Report's: shape.hpp declares Circle's whole chain (`public Shape`,
    # the access keyword no parent); what Circle::unit() returns only shape.hpp says
    assert {(line, match) for _, line, _, match in found if line != 15} == {(14, "name")}
    assert item["totals"]["elsewhere"] >= 5


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


SMART = """#include <memory>
class Bin { public: void ReSize(int n); void reset(); };
class Other { public: void ReSize(int n); };
class Group {
  std::unique_ptr<Bin> bin_;
  std::shared_ptr<Other> other_;
  void f(std::unique_ptr<Bin> p, std::optional<Bin> maybe) {
    bin_->ReSize(1);
    other_->ReSize(2);
    p->ReSize(3);
    maybe->ReSize(4);
    p.reset();
  }
};
"""


def test_arrow_on_a_smart_pointer_reaches_the_type_it_points_to(tmp_path: Path) -> None:
    (tmp_path / "group.cpp").write_text(SMART)
    result = refs(tmp_path, "Bin::ReSize", "Bin::reset")
    resize = entry(result, "Bin::ReSize")
    assert uses(resize) == {
        ("group.cpp", 8, "call", "exact"),  # a field std::unique_ptr<Bin>
        ("group.cpp", 10, "call", "exact"),  # a parameter
        ("group.cpp", 11, "call", "exact"),  # std::optional<Bin>
    }
    assert resize["totals"]["elsewhere"] == 2  # Other::ReSize and other_->ReSize(2)
    # `.` reaches the pointer's own members: p.reset() may be unique_ptr's
    assert uses(entry(result, "Bin::reset")) == {("group.cpp", 12, "call", "name")}


def test_two_members_declared_on_one_line_each_have_their_own_qname(tmp_path: Path) -> None:
    (tmp_path / "group.cpp").write_text(SMART)
    result = refs(tmp_path, "reset")
    assert [d["qname"] for d in entry(result, "reset")["definitions"]] == ["Bin::reset"]
