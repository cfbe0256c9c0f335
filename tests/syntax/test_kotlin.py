"""Kotlin symbols: nested and inner classes qualify their members, a companion object is a class
of its own (`Companion` when unnamed), an extension is owned by the type it extends, properties are symbols, KDoc and
annotations belong to their declaration's slice — also for the annotated classes the grammar
misreads as expressions."""

from __future__ import annotations

from sofia.syntax import parse, slice_text, touched_symbols
from tests.code.conftest import FIXTURES

CART = FIXTURES / "kotlin" / "shop" / "Cart.kt"


def test_every_declaration_is_a_symbol_qualified_by_its_types() -> None:
    tree = parse(CART.read_bytes(), "kotlin", CART.name)
    assert tree.parse_errors == 0
    assert [(s.kind, s.qname, s.line) for s in tree.walk()] == [
        ("property", "defaultCurrency", 11),
        ("type", "Listener", 13),
        ("class", "Cart", 19),
        ("property", "Cart.items", 20),
        ("property", "Cart.label", 22),
        ("method", "Cart.constructor", 26),
        ("method", "Cart.add", 30),
        ("method", "Cart.add", 32),
        ("method", "Cart.iterator", 34),
        ("method", "Cart.map", 36),
        ("function", "Cart.map.twice", 37),
        ("class", "Cart.Cursor", 41),
        ("method", "Cart.Cursor.next", 42),
        ("class", "Cart.Line", 45),
        ("class", "Cart.Factory", 47),  # companion object Factory
        ("method", "Cart.Factory.empty", 49),
        ("class", "Result", 53),
        ("class", "Result.Empty", 54),
        ("class", "Result.Full", 55),
        ("enum", "State", 58),
        ("method", "State.next", 61),  # PAID's own body
        ("method", "State.next", 65),
        ("interface", "Item", 68),
        ("property", "Item.sku", 69),
        ("method", "Item.price", 70),
        ("interface", "Observer", 73),
        ("method", "Observer.notify", 74),
        ("class", "Serializable", 78),
        ("class", "Registry", 80),
        ("method", "Registry.register", 81),
        ("function", "String.toSku", 84),
        ("property", "Cart.isEmpty", 86),
        ("function", "load", 88),
        ("class", "Invoice", 90),
        ("method", "Invoice.add", 92),
        ("class", "Invoice.Companion", 94),  # an unnamed companion object
        ("method", "Invoice.Companion.of", 95),
    ]


def test_a_slice_holds_the_kdoc_and_the_annotations() -> None:
    source = CART.read_bytes()
    tree = parse(source, "kotlin", CART.name)
    (cart,) = tree.find("Cart")
    assert (cart.slice_line, cart.line, cart.end_line) == (15, 19, 51)
    assert slice_text(source, cart).startswith(b"/**\n * A shopping cart")
    first, second = tree.find("Cart.add")
    assert slice_text(source, first) == (
        b'    /** Adds an item. */\n    @Deprecated("Use plus")\n    fun add(item: T) { items.add(item) }\n'
    )
    assert (second.slice_line, second.line) == (32, 32)
    (marker,) = tree.find("Serializable")  # `@Target(...)` then `annotation class Serializable`
    assert slice_text(source, marker) == b"@Target(AnnotationTarget.CLASS)\nannotation class Serializable\n"
    (extension,) = tree.find("Cart.isEmpty")
    assert extension.owner == "Cart" and slice_text(source, extension).startswith(b"val Cart<*>.isEmpty")


def test_grep_and_changed_name_the_innermost_symbol() -> None:
    source = CART.read_bytes()
    tree = parse(source, "kotlin", CART.name)
    assert tree.enclosing(24).qname == "Cart.label"  # type: ignore[union-attr]  # a setter's body
    assert tree.enclosing(37).qname == "Cart.map.twice"  # type: ignore[union-attr]
    assert tree.enclosing(48).qname == "Cart.Factory"  # type: ignore[union-attr]  # a companion's constant
    assert tree.enclosing(62).qname == "State"  # type: ignore[union-attr]  # an entry's closing brace
    edited = source.replace(b"owner = value", b"owner = value.trim()")
    assert touched_symbols("kotlin", source, edited, [(24, 24)], [(24, 24)]) == ["Cart.label"]
