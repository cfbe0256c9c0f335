"""Rust symbols: modules qualify what they hold, an `impl` block qualifies its members by the
type it implements for (generics, `&` and lifetimes looked through), trait methods are the
trait's, `///` docs and `#[...]` attributes belong to the item's slice."""

from __future__ import annotations

from sofia.syntax import lookup, parse, slice_text, touched_symbols
from tests.code.conftest import FIXTURES

SHAPES = FIXTURES / "rust" / "src" / "shapes.rs"


def test_kinds_and_qualified_names() -> None:
    tree = parse(SHAPES.read_bytes(), "rust", SHAPES.name)
    assert [(s.kind, s.qname, s.line, s.end_line) for s in tree.walk()] == [
        ("trait", "Shape", 11, 18),
        ("method", "Shape::area", 13, 13),
        ("method", "Shape::name", 15, 17),
        ("struct", "Circle", 22, 25),
        ("struct", "Square", 28, 28),
        ("method", "Circle::new", 32, 34),
        ("method", "Circle::scaled", 36, 38),
        ("method", "Circle::area", 42, 44),  # impl Shape for Circle
        ("method", "Circle::fmt", 48, 50),  # impl Show for Circle
        ("method", "Square::area", 55, 57),  # the same name on an unrelated type
        ("enum", "Kind", 60, 64),
        ("union", "Bits", 67, 70),
        ("type", "Registry", 72, 72),
        ("struct", "Wrapper", 75, 77),
        ("method", "Wrapper::area", 80, 82),  # impl<'a, T> Shape for &'a Wrapper<T>
        ("macro", "circle", 86, 90),
        ("module", "units", 92, 101),
        ("module", "units::metric", 93, 100),
        ("function", "units::metric::to_metres", 94, 99),
        ("function", "units::metric::to_metres::factor", 95, 97),
        ("function", "c_area", 104, 104),  # in an extern block
        ("module", "tests", 108, 118),
        ("function", "tests::circle_area", 112, 117),
    ]
    assert tree.parse_errors == 0


def test_slices_hold_doc_comments_and_attributes() -> None:
    source = SHAPES.read_bytes()
    tree = parse(source, "rust", SHAPES.name)
    (circle,) = tree.find("Circle")
    assert slice_text(source, circle).decode() == (
        "/// A circle around the origin.\n#[derive(Debug, Clone)]\npub struct Circle {\n"
        "    pub radius: f64,\n    label: Option<String>,\n}\n"
    )
    assert (circle.slice_line, circle.line) == (20, 22)
    (new,) = tree.find("Circle::new")
    assert (
        slice_text(source, new)
        .decode()
        .startswith("    /// Makes a circle; see `Circle::area` for what it covers.\n    pub fn new(")
    )
    (square,) = tree.find("Square")
    assert square.slice_line == 27  # the attribute, with no doc comment above it
    (tests,) = tree.find("tests")
    assert slice_text(source, tests).decode().startswith("#[cfg(test)]\nmod tests {")


def test_a_blank_line_detaches_a_comment() -> None:
    source = b"/// about a\n\nfn a() {}\n/// one\n/// two\nfn b() {}\n"
    tree = parse(source, "rust", "x.rs")
    (a,) = tree.find("a")
    (b,) = tree.find("b")
    assert (a.slice_line, b.slice_line) == (3, 4)


def test_impl_types_are_named_without_generics_references_and_paths() -> None:
    source = (
        b"impl<T> crate::a::Foo<T> { fn one(&self) {} }\n"
        b"impl Tr for &&Bar { fn two(&self) {} }\n"
        b"impl dyn Error + Send { fn three(&self) {} }\n"
        b"impl<T> Tr for [T; 2] { fn four(&self) {} }\n"
    )
    tree = parse(source, "rust", "x.rs")
    assert tree.qnames() == ["Foo::one", "Bar::two", "Error::three", "[T;2]::four"]


def test_enclosing_symbol_and_touched() -> None:
    source = SHAPES.read_bytes()
    tree = parse(source, "rust", SHAPES.name)
    assert tree.enclosing(43).qname == "Circle::area"  # type: ignore[union-attr]
    assert tree.enclosing(96).qname == "units::metric::to_metres::factor"  # type: ignore[union-attr]
    assert tree.enclosing(3) is None
    assert touched_symbols("rust", source, source, [(56, 56)], [(56, 56)]) == ["Square::area"]


def test_a_member_is_found_by_its_name_or_qualified() -> None:
    tree = parse(SHAPES.read_bytes(), "rust", SHAPES.name)
    assert [s.qname for s in lookup.find(tree, "area")] == [
        "Shape::area",
        "Circle::area",
        "Square::area",
        "Wrapper::area",
    ]
    assert [s.line for s in lookup.find(tree, "Square::area")] == [55]
    assert [s.line for s in lookup.find(tree, "Square.area")] == [55]
