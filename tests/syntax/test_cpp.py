"""C++ symbols: namespaces qualify their members, out-of-line definitions belong to the class
their name spells, templates slice from their `template` line, operators and constructors keep
their names; grep's enclosing symbol and changed's touched symbols follow."""

from __future__ import annotations

from pathlib import Path

import pytest

from sofia.syntax import parse, slice_text, touched_symbols
from sofia.syntax.languages.cmacros import prepare_cpp
from tests.code.conftest import FIXTURES
from tests.refs.conftest import entry, refs, uses

CPP = FIXTURES / "cpp"
HEADER = CPP / "src" / "shape.hpp"
SOURCE = CPP / "src" / "shape.cpp"


def test_every_declaration_of_the_header_qualified_by_its_namespace_and_class() -> None:
    tree = parse(HEADER.read_bytes(), "cpp", "src/shape.hpp")
    assert [(s.kind, s.qname, s.line) for s in tree.walk()] == [
        ("namespace", "geo", 8),
        ("class", "geo::Shape", 11),
        ("method", "geo::Shape::~Shape", 13),
        ("method", "geo::Shape::area", 15),
        ("method", "geo::Shape::name", 16),
        ("class", "geo::Circle", 22),
        ("method", "geo::Circle::Circle", 24),  # two constructors: overloads share the qname
        ("method", "geo::Circle::Circle", 25),
        ("method", "geo::Circle::~Circle", 26),
        ("method", "geo::Circle::area", 27),  # the same name as Shape's, its own qname
        ("method", "geo::Circle::unit", 28),
        ("method", "geo::Circle::operator==", 29),
        ("method", "geo::Circle::operator bool", 30),
        ("struct", "geo::Circle::Style", 32),
        ("enum", "geo::Color", 41),
        ("struct", "geo::Point", 43),
        ("type", "geo::Points", 47),
        ("type", "geo::ShapePtr", 48),
        ("class", "geo::Box", 52),
        ("method", "geo::Box::put", 54),
        ("method", "geo::Box::operator[]", 55),
        ("method", "geo::Box::convert", 57),
        ("namespace", "geo::helpers", 63),
        ("prototype", "geo::helpers::scale", 64),
    ]
    assert tree.parse_errors == 0


def test_out_of_line_definitions_belong_to_the_class_their_name_spells() -> None:
    tree = parse(SOURCE.read_bytes(), "cpp", "src/shape.cpp")
    assert [(s.kind, s.qname, s.owner, s.line, s.end_line) for s in tree.walk()] == [
        ("namespace", "geo", "", 5, 33),
        ("method", "geo::Circle::Circle", "geo::Circle", 7, 7),
        ("method", "geo::Circle::~Circle", "geo::Circle", 9, 9),
        ("method", "geo::Circle::area", "geo::Circle", 12, 14),
        ("method", "geo::Circle::unit", "geo::Circle", 16, 18),
        ("method", "geo::Circle::operator==", "geo::Circle", 20, 22),
        ("method", "geo::Box::put", "geo::Box", 25, 27),  # template <typename T, int N> Box<T, N>::put
        ("method", "geo::helpers::scale", "geo::helpers", 29, 31),
        ("method", "geo::Shape::name", "geo::Shape", 35, 37),  # written geo::Shape::name outside
    ]


def test_a_template_slices_from_its_doc_comment_and_template_line() -> None:
    source = HEADER.read_bytes()
    tree = parse(source, "cpp", "src/shape.hpp")
    (box,) = tree.find("geo::Box")
    text = slice_text(source, box).decode()
    assert text.startswith("/// A box of items of one type.\ntemplate <typename T, int N = 4>\nclass Box {")
    assert text.rstrip().endswith("};")
    (convert,) = tree.find("geo::Box::convert")
    assert slice_text(source, convert).decode() == "  template <typename U>\n  U convert() const;\n"
    (area,) = tree.find("geo::Shape::area")
    assert (
        slice_text(source, area)
        .decode()
        .startswith("  /// The area, in square units.\n  virtual double area()")
    )
    (put,) = parse(SOURCE.read_bytes(), "cpp", "src/shape.cpp").find("geo::Box::put")
    assert (
        slice_text(SOURCE.read_bytes(), put)
        .decode()
        .startswith("template <typename T, int N>\nvoid Box<T, N>::put(")
    )


def test_enclosing_symbols_and_touched_ones() -> None:
    source = SOURCE.read_bytes()
    tree = parse(source, "cpp", "src/shape.cpp")
    assert tree.enclosing(13).qname == "geo::Circle::area"  # type: ignore[union-attr]
    assert tree.enclosing(11).qname == "geo::Circle::area"  # type: ignore[union-attr]  # its comment
    assert tree.enclosing(8).qname == "geo"  # type: ignore[union-attr]
    edited = source.replace(b"return by * 2;", b"return by * 3;")
    assert touched_symbols("cpp", source, edited, [(30, 30)], [(30, 30)]) == ["geo::helpers::scale"]


def test_a_project_macro_before_a_class_name_and_a_cpp_dot_h() -> None:
    legacy = CPP / "src" / "legacy.h"
    tree = parse(legacy.read_bytes(), "c", "src/legacy.h")
    assert tree.lang == "cpp"
    assert [(s.kind, s.qname) for s in tree.walk()] == [
        ("constant", "LEGACY_API"),
        ("namespace", "legacy"),
        ("class", "legacy::Store"),  # class LEGACY_API Store
        ("method", "legacy::Store::save"),  # LEGACY_API void save(int id);
    ]


def test_a_loop_macro_and_a_local_alias_are_no_declarations() -> None:
    source = (
        b"void run(std::vector<int> xs) {\n  using Item = int;\n  Q_FOREACH(x, xs) {\n    use(x);\n  }\n}\n"
    )
    assert [(s.kind, s.qname) for s in parse(source, "cpp", "run.cpp").walk()] == [("function", "run")]


def test_a_destructor_after_an_attribute_macro_keeps_its_tilde() -> None:
    source = (
        b"class Split {\n public:\n  __device__ Split() {}\n  __device__ ~Split() { reset(); }\n"
        b"  lib_export ~Split();\n  LIB_API virtual ~Split();\n  __device__ int size() const { return 1; }\n"
        b"  int flip(int m) { return ~mask(m); }\n};\n"
    )
    tree = parse(source, "cpp", "split.cu.hpp")
    assert [(s.kind, s.qname, s.line) for s in tree.walk()] == [
        ("class", "Split", 1),
        ("method", "Split::Split", 3),
        ("method", "Split::~Split", 4),
        ("method", "Split::~Split", 5),
        ("method", "Split::~Split", 6),
        ("method", "Split::size", 7),
        ("method", "Split::flip", 8),  # `return ~mask(m)`: a keyword before `~` stays
    ]
    assert b"return ~mask(m)" in prepare_cpp(source)


HANDLER = b"""namespace digits {
enum result { more, done };
}

struct handler {
  int size;
  %s digits::result on_digit(char digit, bool integral) {
    if (!integral) {
      return digits::more;
    } else {
      size++;
    }
    return digits::done;
  }
};
"""


def test_a_macro_before_a_qualified_return_type_is_blanked() -> None:
    tree = parse(HANDLER % b"FMT_CONSTEXPR", "cpp", "format.h")
    assert [(s.kind, s.qname, s.line) for s in tree.walk()] == [
        ("namespace", "digits", 1),
        ("enum", "digits::result", 2),
        ("struct", "handler", 5),
        ("method", "handler::on_digit", 7),
    ]


@pytest.mark.parametrize("lang", ["c", "cpp"])
@pytest.mark.parametrize(
    "after",
    [b"else {\n  f();\n}", b"while (x) {\n  f();\n}", b"for (;;) {\n}", b"return x;", b"sizeof(x);"],
)
def test_a_keyword_the_grammar_misreads_is_never_a_name(lang: str, after: bytes) -> None:
    # Where a macro the grammar cannot get past cuts a function off, its recovery reads the rest
    # (`} else {`) as a function or variable named by the keyword, the struct before it its type.
    source = b"struct handler {\n  int x;\n} " + after + b"\n"
    assert [(s.kind, s.qname) for s in parse(source, lang, "x.h").walk()] == [("struct", "handler")]


def test_a_run_of_macros_alone_on_their_lines_is_blanked() -> None:
    source = (
        b'#include "format.h"\n\nFMT_BEGIN_NAMESPACE\nFMT_MODULE_EXPORT_BEGIN\n\n'
        b"template <typename T> struct printf_formatter { printf_formatter() = delete; };\n\n"
        b"template <typename Char>\nclass parse_context : public base<Char> {\n};\n"
        b"FMT_MODULE_EXPORT_END\nFMT_END_NAMESPACE\n"
    )
    assert b"FMT_" not in prepare_cpp(source)
    tree = parse(source, "cpp", "printf.h")
    assert [(s.kind, s.qname, s.line) for s in tree.walk()] == [
        ("struct", "printf_formatter", 6),
        ("method", "printf_formatter::printf_formatter", 6),
        ("class", "parse_context", 9),
    ]


@pytest.mark.parametrize("lang", ["c", "cpp"])
def test_a_macro_after_storage_keywords_before_a_type_and_a_name_is_blanked(lang: str) -> None:
    """`static THREAD_LOCAL comm_size_t buffer_size_;` declares buffer_size_, not comm_size_t;
    a macro after `static` with only a name after it is the declaration's type and stays."""
    source = b"static THREAD_LOCAL comm_size_t buffer_size_;\nextern MY_HANDLE handle;\n"
    tree = parse(source, lang, "network." + lang)
    assert [(s.kind, s.qname) for s in tree.walk()] == [("var", "buffer_size_"), ("var", "handle")]


def test_a_class_member_after_a_storage_keyword_and_a_macro_is_named_by_its_name(tmp_path: Path) -> None:
    (tmp_path / "network.h").write_text(
        "typedef int comm_size_t;\nclass Network {\n  static THREAD_LOCAL comm_size_t buffer_size_;\n};\n"
    )
    result = refs(tmp_path, "comm_size_t", "buffer_size_")
    assert [d["qname"] for d in entry(result, "comm_size_t")["definitions"]] == ["comm_size_t"]
    assert uses(entry(result, "comm_size_t")) == {("network.h", 3, "type", "exact")}
    assert [d["qname"] for d in entry(result, "buffer_size_")["definitions"]] == ["Network::buffer_size_"]
