"""The outline parse a summary reads: function bodies found from the text, left out of the parse,
and checked against what the grammar makes of their braces (`sofia.syntax.bodies`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sofia.syntax import bodies, queried, registry
from sofia.syntax.grammars import parse_bytes
from sofia.syntax.languages import c, java, kotlin, ruby, rust
from sofia.syntax.tree import Symbol, SymbolTree

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "code"
OUTLINED = sorted(
    record.name
    for record in registry.LANGUAGES
    if record.symbols == "sofia.syntax.queried" and queried.spec_of(record.name).outline is not None
)


def flat(symbols: list[Symbol]) -> Iterator[Symbol]:
    for symbol in symbols:
        yield symbol
        yield from flat(symbol.children)


def facts(tree: SymbolTree) -> set[tuple[str, str, int, int, int]]:
    return {(s.qname, s.kind, s.line, s.end_line, s.slice_line) for s in flat(tree.symbols)}


def test_every_query_language_has_an_outline() -> None:
    assert {"c", "cpp", "csharp", "java", "kotlin", "ruby", "rust", "scala", "swift"} <= set(OUTLINED)


def test_an_outline_builds_its_symbols_when_first_read_even_after_other_files() -> None:
    """A summary's tree defers its symbols; read after other files were parsed (whose reads
    replace the kept positions and last parse), they are still the file's own."""
    first, second = (FIXTURES / "rust").rglob("*.rs"), (FIXTURES / "java").rglob("*.java")
    rust_source, java_source = next(first).read_bytes(), next(second).read_bytes()
    expected = facts(queried.outline(rust_source, "rust"))  # read at once
    deferred = queried.outline(rust_source, "rust")
    queried.outline(java_source, "java")
    queried.extract(java_source, "java")
    assert facts(deferred) == expected != set()
    assert deferred.parse_errors == 0


@pytest.mark.parametrize("lang", OUTLINED)
def test_an_outline_keeps_every_symbol_outside_the_bodies_it_leaves_out(lang: str) -> None:
    """Over the language's fixtures: some body is left out, and the outline's symbols are the
    whole parse's, less exactly those declared inside a left-out body."""
    spec = queried.spec_of(lang)
    assert spec.outline is not None
    files = [p for p in sorted((FIXTURES / lang).rglob("*")) if registry.language_for(p) is not None]
    assert files, f"no {lang} fixtures under {FIXTURES / lang}"
    left_out_anywhere = 0
    for path in files:
        source = path.read_bytes()
        spans = spec.outline.spans(source)
        tree = bodies.outline(source, queried._grammar(lang), spec.outline, spec.prepare)
        whole = facts(queried.extract(source, lang))
        outlined = facts(queried.outline(source, lang))
        if tree is None:
            assert outlined == whole, path.name
            continue
        left_out_anywhere += len(spans)
        starts = {s.qname: s.start_byte for s in flat(queried.extract(source, lang).symbols)}
        inside = {f for f in whole if any(a <= starts[f[0]] < b for a, b in spans)}
        assert outlined == whole - inside, path.name
    assert left_out_anywhere, f"no {lang} fixture had a body left out"


def test_braces_in_strings_comments_characters_and_directives_do_not_count() -> None:
    source = b"""#define OPEN {
static const char *s = "}{";
/* } */ // {
int f(int c) { if (c == '{') { return 1; } return 0; }
struct point { int x; };
int g(void) __attribute__((pure)) { return '}'; }
"""
    spans = bodies.spans(source, c.OUTLINE)
    assert [source[a - 1 : b + 1] for a, b in spans] == [
        b"{ if (c == '{') { return 1; } return 0; }",
        b"{ return '}'; }",
    ]


def test_raw_strings_and_lifetimes_keep_their_braces() -> None:
    source = b"""fn a<'a>(x: &'a str) -> &'a str { let s = r#"}"#; x }
impl Foo { fn b(&self) { let c = '}'; } }
"""
    spans = bodies.spans(source, rust.OUTLINE)
    assert [source[a - 1 : b + 1] for a, b in spans] == [
        b'{ let s = r#"}"#; x }',
        b"{ let c = '}'; }",
    ]


def test_unbalanced_braces_leave_nothing_out() -> None:
    source = b"#if A\nint f(int a) {\n#else\nint f(void) {\n#endif\n  return 0;\n}\n"
    assert bodies.spans(source, c.OUTLINE) == []
    assert bodies.outline(source, "c", c.OUTLINE) is None


def test_a_guess_the_grammar_does_not_share_is_parsed_after_all() -> None:
    """`A(1) {` looks like a method's header, but is an enum constant's class body: the grammar
    says so, and the second parse reads that body, so the method declared in it is parsed."""
    source = b"""enum Op {
    A(1) {
        int apply(int x) { return x + 1; }
    };
    private final int n;
    Op(int n) { this.n = n; }
    int apply(int x) { return x; }
}
"""
    guessed = bodies.spans(source, java.OUTLINE)
    assert len(guessed) == 3
    found = bodies.outline(source, "java", java.OUTLINE)
    assert found is not None
    tree = found[0]
    assert facts(queried.outline(source, "java")) == facts(queried.extract(source, "java"))
    methods, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        methods += [node.start_point.row] if node.type == "method_declaration" else []
        stack.extend(node.children)
    assert sorted(methods) == [2, 6]


def test_a_body_s_syntax_errors_are_not_read() -> None:
    source = b"fun ok(): Int {\n    val x = ((( 1\n    return x\n}\n\nclass Cart {\n    fun total(): Int { return 0 }\n}\n"
    whole = queried.extract(source, "kotlin")
    outlined = queried.outline(source, "kotlin")
    assert whole.parse_errors > 0
    assert outlined.parse_errors == 0
    assert {"ok", "Cart", "Cart.total"} <= {s.qname for s in flat(outlined.symbols)}


def test_a_ruby_body_runs_to_the_end_at_its_def_s_indentation() -> None:
    source = b"""class Cart
  def total(items)
    items.each do |i|
      i.price
    end
  end

  def one; 1; end
  def two = 2
  def three(a,
            b)
    a + b
  end
  private def four
    if x
      y
    end
  end
end
"""
    spans = ruby.OUTLINE.spans(source)
    assert [source[a:b].decode() for a, b in spans] == [
        "    items.each do |i|\n      i.price\n    end\n  ",
        "    if x\n      y\n    end\n  ",
    ]
    tree = bodies.outline(source, "ruby", ruby.OUTLINE)
    assert tree is not None
    assert facts(queried.outline(source, "ruby")) == facts(queried.extract(source, "ruby"))


def test_a_scan_past_its_deadline_leaves_nothing_out() -> None:
    """A scan that takes too long (hostile headers) gives up, and the file is parsed whole."""
    rust_source = b"fn a() { 1 }\n" * 10
    ruby_source = b"def a\n  1\nend\n" * 10
    assert len(rust.OUTLINE.spans(rust_source)) == 10
    assert len(ruby.OUTLINE.spans(ruby_source)) == 10
    assert rust.OUTLINE.spans(rust_source, deadline=time.monotonic() - 1) == []
    assert ruby.OUTLINE.spans(ruby_source, deadline=time.monotonic() - 1) == []


def test_a_def_without_an_end_at_its_indentation_opens_nothing() -> None:
    source = b"  def broken\n    1\n" * 3 + b"def fine\n  2\nend\n"
    assert [source[a:b] for a, b in ruby.OUTLINE.spans(source)] == [b"  2\n"]


def test_a_swift_computed_property_s_getter_is_a_body() -> None:
    """What a getter declares is the getter's (as a function's is); the properties themselves,
    a protocol's requirements among them, stay rows."""
    source = b"""public protocol Shape {
  var area: Double { get }
}
public struct Square: Shape {
  public var side: Double
  public var area: Double {
    func helper() -> Double { side * side }
    return helper()
  }
}
"""
    whole = {s.qname for s in flat(queried.extract(source, "swift").symbols)}
    outlined = {s.qname for s in flat(queried.outline(source, "swift").symbols)}
    assert "Square.area.helper" in whole or "Square.helper" in whole
    assert outlined == whole - {"Square.area.helper", "Square.helper"}
    rows = queried.read(source, "swift", queried.outline(source, "swift").trees[0]).declarations
    assert [d.name for d in rows if d.kind == "property"] == ["area", "side", "area"]


def test_the_left_out_parse_keeps_lines_and_offsets() -> None:
    source = b"class A {\n  fun f() {\n    g()\n    h()\n  }\n  fun k() = 1\n}\n"
    spans = bodies.spans(source, kotlin.OUTLINE)
    tree = parse_bytes(source, "kotlin", ranges=bodies.included(source, spans))
    k = tree.root_node.descendant_for_byte_range(source.index(b"k()"), source.index(b"k()") + 1)
    assert k.start_point.row == 5
    assert k.start_point.column == 6
