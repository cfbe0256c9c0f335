"""Scala symbols: types qualify their members, a companion object is named as its class is
(`Cart.apply` beside `Cart.add`), defs in bodies are methods and elsewhere functions, vals of
bodies and files are symbols, Scaladoc and annotations belong to their declaration's slice."""

from __future__ import annotations

from sofia.syntax import parse, slice_text, touched_symbols
from tests.code.conftest import FIXTURES

CART = FIXTURES / "scala" / "shop" / "Cart.scala"


def test_every_declaration_is_a_symbol_qualified_by_its_types() -> None:
    tree = parse(CART.read_bytes(), "scala", CART.name)
    assert tree.parse_errors == 0
    assert [(s.kind, s.qname, s.line) for s in tree.walk()] == [
        ("trait", "Item", 10),
        ("method", "Item.sku", 11),  # abstract
        ("property", "Item.price", 12),
        ("class", "Cart", 20),
        ("property", "Cart.limit", 22),
        ("property", "Cart.label", 23),
        ("type", "Cart.Key", 24),
        ("method", "Cart.add", 28),
        ("method", "Cart.add", 29),  # an overload
        ("method", "Cart.compare", 30),
        ("method", "Cart.this", 32),  # a secondary constructor
        ("class", "Cart.Cursor", 34),
        ("method", "Cart.Cursor.next", 35),
        ("method", "Cart.total", 38),
        ("function", "Cart.total.twice", 39),  # local to a method
        ("class", "Cart", 44),  # the companion object
        ("property", "Cart.Empty", 45),
        ("method", "Cart.apply", 46),
        ("method", "Cart.ordering", 47),
        ("class", "Result", 50),
        ("class", "Missing", 51),
        ("class", "Found", 52),
        ("class", "Ledger", 55),
        ("method", "Ledger.add", 56),
        ("enum", "Mode", 59),
        ("function", "load", 64),
        ("property", "defaultOwner", 65),
    ]


def test_a_slice_holds_the_scaladoc_and_the_annotations() -> None:
    source = CART.read_bytes()
    tree = parse(source, "scala", CART.name)
    cart, companion = tree.find("Cart")
    assert (cart.slice_line, cart.line, cart.end_line) == (15, 20, 42)
    assert slice_text(source, cart).startswith(b"/**\n * A shopping cart.\n")
    assert b"@SerialVersionUID(1L)\nfinal case class Cart" in slice_text(source, cart)
    assert (companion.slice_line, companion.end_line) == (44, 48)
    first, second = tree.find("Cart.add")
    assert slice_text(source, first) == (
        b"  /** Adds one item. */\n"
        b'  @deprecated("use plus", "1.0")\n'
        b"  def add(item: T): Cart[T] = copy(items = item :: items)\n"
    )
    assert (second.slice_line, second.line) == (29, 29)
    (item,) = tree.find("Item")
    assert slice_text(source, item).startswith(b"/** What a cart holds. */\ntrait Item {")


def test_a_package_clause_after_the_first_nests_in_it() -> None:
    from sofia.syntax import queried

    assert queried.read(CART.read_bytes(), "scala").package == "com.acme.shop"


def test_grep_and_changed_name_the_innermost_symbol() -> None:
    source = CART.read_bytes()
    tree = parse(source, "scala", CART.name)
    assert tree.enclosing(40).qname == "Cart.total"  # type: ignore[union-attr]
    assert tree.enclosing(39).qname == "Cart.total.twice"  # type: ignore[union-attr]
    assert tree.enclosing(46).qname == "Cart.apply"  # type: ignore[union-attr]
    assert tree.enclosing(61).qname == "Mode"  # type: ignore[union-attr]  # an enum case is a row
    edited = source.replace(b"def add(amount: Int): Int = amount", b"def add(amount: Int): Int = amount + 0")
    assert touched_symbols("scala", source, edited, [(56, 56)], [(56, 56)]) == ["Ledger.add"]
