"""C# symbols: nested types qualify their members (the namespace does not), overloads,
constructors share a qname, the destructor is `~Cart`, operators `operator +` and indexers `this`,
properties are symbols, `///` comments and attribute lists belong to their declaration's slice."""

from __future__ import annotations

from sofia.syntax import parse, slice_text, touched_symbols
from tests.code.conftest import FIXTURES

CART = FIXTURES / "csharp" / "Shop" / "Cart.cs"
LEGACY = FIXTURES / "csharp" / "Shop" / "Legacy.cs"


def test_every_declaration_is_a_symbol_qualified_by_its_types() -> None:
    tree = parse(CART.read_bytes(), "csharp", CART.name)
    assert tree.parse_errors == 0
    assert [(s.kind, s.qname, s.line) for s in tree.walk()] == [
        ("class", "Cart", 11),
        ("property", "Cart.Count", 20),
        ("property", "Cart.Total", 22),
        ("property", "Cart.Label", 24),
        ("method", "Cart.this", 30),
        ("method", "Cart.Cart", 32),
        ("method", "Cart.Cart", 34),
        ("method", "Cart.~Cart", 39),
        ("method", "Cart.Add", 43),
        ("method", "Cart.Add", 45),
        ("method", "Cart.operator +", 47),
        ("method", "Cart.operator int", 49),
        ("method", "Cart.Map", 51),
        ("function", "Cart.Map.Twice", 53),
        ("method", "Cart.Dispose", 57),
        ("method", "Cart.Dispose", 59),
        ("enum", "Cart.State", 61),
        ("interface", "Cart.IObserver", 63),
        ("method", "Cart.IObserver.Notify", 63),
        ("class", "Cart.Line", 65),
        ("struct", "Cart.Money", 67),
        ("struct", "Cart.Slot", 69),
        ("type", "Cart.Handler", 71),
        ("class", "Invoice", 76),
        ("method", "Invoice.Add", 79),
    ]


def test_block_namespaces_do_not_qualify_either() -> None:
    tree = parse(LEGACY.read_bytes(), "csharp", LEGACY.name)
    assert tree.qnames() == [
        "IStore",
        "IStore.Name",
        "IStore.Save",
        "Store",
        "Store.Name",
        "Store.Save",
        "Store.Entry",
    ]


def test_a_slice_holds_the_doc_comment_and_the_attributes() -> None:
    source = CART.read_bytes()
    tree = parse(source, "csharp", CART.name)
    (cart,) = tree.find("Cart")
    assert (cart.slice_line, cart.line, cart.end_line) == (8, 11, 74)
    assert slice_text(source, cart).startswith(b"/// <summary>A shopping cart")
    first, second = tree.find("Cart.Add")
    assert slice_text(source, first) == (
        b"    /// <summary>Adds an item.</summary>\n"
        b"    [Pure]\n"
        b"    public void Add(TItem item) { items.Add(item); Count++; }\n"
    )
    assert slice_text(source, second) == b"    public void Add(TItem item, int times) => Add(item);\n"
    (label,) = tree.find("Cart.Label")
    assert (label.line, label.end_line) == (24, 28)
    (count,) = tree.find("Cart.Count")
    assert slice_text(source, count).startswith(b"    /// <summary>How many lines")


def test_grep_and_changed_name_the_innermost_symbol() -> None:
    source = CART.read_bytes()
    tree = parse(source, "csharp", CART.name)
    assert tree.enclosing(26).qname == "Cart.Label"  # type: ignore[union-attr]  # a getter's body
    assert tree.enclosing(53).qname == "Cart.Map.Twice"  # type: ignore[union-attr]
    assert tree.enclosing(42).qname == "Cart.Add"  # type: ignore[union-attr]  # its attribute
    assert tree.enclosing(15).qname == "Cart"  # type: ignore[union-attr]  # a field is a row only
    edited = source.replace(b"Changed?.Invoke(this", b"Changed?.Invoke(null")
    assert touched_symbols("csharp", source, edited, [(27, 27)], [(27, 27)]) == ["Cart.Label"]
