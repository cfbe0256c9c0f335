"""refs in Rust: receivers typed by parameters, typed `let`s, struct expressions and `self` are
exact, also through a `use ... as` alias; `Type::f()` and `Self::f()` name their type; a
same-named method of an unrelated type is elsewhere; `Foo { .. }` and a tuple struct's call are
`new`, `impl Trait for Foo` implements; a macro's tokens are read as calls and member accesses;
comments and strings count apart."""

from __future__ import annotations

from pathlib import Path

from tests.code.conftest import FIXTURES
from tests.refs.conftest import entry, refs, rows, uses

RUST = FIXTURES / "rust"
MAIN = "src/main.rs"
SHAPES = "src/shapes.rs"


def test_definitions_with_kind_and_signature() -> None:
    item = entry(refs(RUST, "area"), "area")
    assert [(d["qname"], d["kind"], d["line"]) for d in item["definitions"]] == [
        ("Shape::area", "method", 13),
        ("Circle::area", "method", 42),
        ("Square::area", "method", 55),
        ("Wrapper::area", "method", 80),
    ]
    assert item["definitions"][2]["sig"] == "pub fn area(&self) -> f64"


def test_typed_receivers_are_exact_and_an_unrelated_type_is_elsewhere() -> None:
    item = entry(refs(RUST, "Circle::area"), "Circle::area")
    found = uses(item)
    assert (MAIN, 12, "call", "exact") in found  # c.area(), c: &Round (Circle as Round)
    assert (SHAPES, 115, "call", "exact") in found  # c.area(), let c: Circle
    exact_columns = {row["col"] for row in rows(item, "exact") if row["line"] == 12}
    assert exact_columns == {17, 43}  # c.area() and copy.area() (copy = Round { .. }), not sq.area()
    assert (MAIN, 6, "call", "name") in found  # |s| s.area(): the closure's parameter has no type
    assert (MAIN, 13, "call", "exact") in found  # c.area() in format!'s tokens
    assert (SHAPES, 81, "call", "name") in found  # self.inner.area(): inner's type is not followed
    assert item["totals"]["in_comments"] == 5 and item["totals"]["in_strings"] == 1
    square = entry(refs(RUST, "Square::area"), "Square::area")
    assert [(row["line"], row["col"]) for row in rows(square, "exact")] == [(12, 29)]  # sq.area(), sq: Square


def test_scoped_calls_name_their_type() -> None:
    item = entry(refs(RUST, "Circle::new"), "Circle::new")
    exact = {(row[0], row[1]) for row in uses(item) if row[3] == "exact"}
    assert exact == {
        (MAIN, 11),
        (MAIN, 17),
        (SHAPES, 37),
        (SHAPES, 114),
    }  # Round::new, Self::new, Circle::new


def test_self_fields_are_exact() -> None:
    item = entry(refs(RUST, "radius"), "radius")
    assert (SHAPES, 43, "reference", "exact") in uses(item)  # self.radius in Circle::area
    assert (MAIN, 10, "reference", "exact") in uses(item)  # c.radius, c: &Round


def test_kinds_of_type_uses() -> None:
    shape = entry(refs(RUST, "Shape"), "Shape")
    assert {(row[0], row[1], row[2]) for row in uses(shape)} >= {
        (SHAPES, 41, "implements"),  # impl Shape for Circle
        (SHAPES, 79, "implements"),  # impl<'a, T: Shape> Shape for &'a Wrapper<T>
        (SHAPES, 75, "type"),  # a bound: T: Shape
        (MAIN, 3, "import"),
        (MAIN, 5, "type"),  # Box<dyn Shape>
    }
    circle = entry(refs(RUST, "Circle"), "Circle")
    kinds = {(row[0], row[1], row[2]) for row in uses(circle)}
    assert (SHAPES, 33, "new") in kinds  # Circle { radius, label: None }
    assert (MAIN, 10, "new") in kinds  # Round { .. }: the alias followed
    square = entry(refs(RUST, "Square"), "Square")
    assert (MAIN, 19, "new", "name") in uses(square)  # Square(3.0), a tuple struct


def test_a_macro_call_and_a_use_alias(tmp_path: Path) -> None:
    (tmp_path / "lib.rs").write_text(
        "macro_rules! twice { ($e:expr) => { $e * 2 } }\n"
        "pub fn run() -> u8 {\n    twice!(2)\n}\n"
        "use crate::run as go;\n"
        "pub fn again() -> u8 { go() + run() }\n"
    )
    twice = entry(refs(tmp_path, "twice"), "twice")
    assert [(d["kind"], d["line"]) for d in twice["definitions"]] == [("macro", 1)]
    assert [(row[1], row[2]) for row in uses(twice)] == [(3, "call")]
    run = entry(refs(tmp_path, "run"), "run")
    assert {(row[1], row[2]) for row in uses(run)} == {(5, "import"), (6, "call")}
    assert run["kinds"] == {"import": 1, "call": 2}  # go() through the alias, and run()
