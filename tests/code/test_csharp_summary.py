"""C# summaries: namespace, usings with aliases, types with their base class and interfaces,
attributes, members' signatures as written (operators, indexers, destructors, explicit interface
implementations), properties, events and fields, constants and enum members; exported, brief,
slices and find-by-name through `code`."""

from __future__ import annotations

from typing import Any

from tests.code.conftest import FIXTURES, code, slice_text
from tests.code.summarised import summarised

CS = FIXTURES / "csharp"
CART = "Shop/Cart.cs"
LEGACY = "Shop/Legacy.cs"


def rows(table: list[dict[str, Any]], *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(c, "") for c in columns) for row in table]


def test_the_header_types_and_relations() -> None:
    document = summarised(CS, CART)
    assert document["namespace"] == "Acme.Shop"
    assert document["imports"] == [
        "System",
        "System.Collections.Generic",
        "static System.Math",
        "Json = System.Text.Json.JsonSerializer",
    ]
    assert rows(document["types"], "kind", "name", "vis", "mods", "extends", "implements", "detail") == [
        ("class", "Cart", "public", "partial", "Entity", "IEnumerable<TItem>, IDisposable", "<TItem>"),
        ("enum", "Cart.State", "internal", "", "", "", ""),
        ("interface", "Cart.IObserver", "public", "", "", "", ""),
        ("class", "Cart.Line", "public", "record", "", "", ""),
        ("struct", "Cart.Money", "public", "record", "", "", ""),
        ("struct", "Cart.Slot", "private", "", "", "", ""),
        ("type", "Cart.Handler", "public", "delegate", "", "", "void (object sender, string reason)"),
        ("class", "Invoice", "internal", "", "Entity", "", ""),
    ]
    assert document["types"][0]["attrs"] == '[Serializable]; [Obsolete("Use Basket")]'


def test_members_carry_signatures_as_written() -> None:
    document = summarised(CS, CART)
    functions = rows(document["functions"], "owner", "name", "sig", "line", "end_line", "vis", "mods")
    assert functions == [
        ("Cart", "this", "TItem [int index]", 30, 30, "public", ""),
        ("Cart", "Cart", "()", 32, 32, "public", ""),
        ("Cart", "Cart", "(int capacity)", 34, 37, "public", ""),
        ("Cart", "~Cart", "()", 39, 39, "private", ""),
        ("Cart", "Add", "void (TItem item)", 43, 43, "public", ""),
        ("Cart", "Add", "void (TItem item, int times)", 45, 45, "public", ""),
        ("Cart", "operator +", "Cart<TItem> (Cart<TItem> cart, TItem item)", 47, 47, "public", "static"),
        ("Cart", "operator int", "implicit (Cart<TItem> cart)", 49, 49, "public", "static"),
        ("Cart", "Map", "TOut <TOut>(Func<TItem, TOut> map) where TOut : struct", 51, 55, "public", ""),
        ("Cart.Map", "Twice", "int (int n)", 53, 53, "private", ""),
        ("Cart", "Dispose", "void IDisposable.Dispose()", 57, 57, "public", ""),
        ("Cart", "Dispose", "void ()", 59, 59, "public", ""),
        ("Cart.IObserver", "Notify", "void (Cart<TItem> cart)", 63, 63, "public", ""),
        ("Invoice", "Add", "void (string line)", 79, 79, "public", ""),
    ]
    assert document["functions"][4]["attrs"] == "[Pure]"


def test_properties_events_fields_constants_and_enum_members() -> None:
    document = summarised(CS, CART)
    assert rows(document["properties"], "owner", "name", "type", "vis", "mods", "value") == [
        ("Cart", "prefix", "string", "private", "static readonly", '"cart"'),
        ("Cart", "count", "int", "private", "", ""),
        ("Cart", "version", "int", "private", "", "1"),
        ("Cart", "Changed", "EventHandler?", "public", "event", ""),
        ("Cart", "Count", "int", "public", "", ""),
        ("Cart", "Total", "decimal", "public", "", ""),
        ("Cart", "Label", "string", "protected internal", "", ""),
        ("Cart.Line", "Sku", "string", "public", "", ""),  # a record's positional parameters
        ("Cart.Line", "Quantity", "int", "public", "", ""),
        ("Cart.Money", "Amount", "decimal", "public", "", ""),
        ("Cart.Money", "Currency", "string", "public", "", ""),
        ("Cart.Slot", "Index", "int", "public", "", ""),
        ("Cart", "items", "List<TItem>", "private", "readonly", ""),
    ]
    assert rows(document["constants"], "owner", "kind", "name", "type", "value") == [
        ("Cart", "const", "MaxLines", "int", "50"),
    ]
    assert rows(document["cases"], "owner", "name", "value") == [
        ("Cart.State", "Open", "1"),
        ("Cart.State", "Paid", ""),
        ("Cart.State", "Shipped", ""),
    ]


def test_default_visibility_by_place() -> None:
    document = summarised(CS, LEGACY)
    assert document["namespace"] == "Acme.Legacy"
    assert document["imports"] == ["System"]
    assert rows(document["types"], "name", "vis", "implements") == [
        ("IStore", "internal", ""),
        ("Store", "internal", "IStore"),
        ("Store.Entry", "private", ""),
    ]
    # An interface's members are public, as is Store.Save: the vis column, all public, is left out.
    assert rows(document["functions"], "owner", "name") == [("IStore", "Save"), ("Store", "Save")]
    assert all("vis" not in row for row in document["functions"])


def test_exported_keeps_public_members_of_public_types() -> None:
    document = summarised(CS, CART, exported=True)
    assert [t["name"] for t in document["types"]] == [
        "Cart",
        "Cart.IObserver",
        "Cart.Line",
        "Cart.Money",
        "Cart.Handler",
    ]
    names = {(f["owner"], f["name"]) for f in document["functions"]}
    assert ("Cart", "Map") in names and ("Cart.Map", "Twice") not in names
    assert ("Invoice", "Add") not in names  # Invoice is internal
    assert [p["name"] for p in document["properties"] if p["owner"] == "Cart"] == [
        "Changed",
        "Count",
        "Total",
    ]


def test_brief_drops_imports_properties_and_attrs() -> None:
    document = summarised(CS, CART, brief=True)
    assert "imports" not in document and "properties" not in document
    assert all("attrs" not in row and "detail" not in row for row in document["types"])


def test_slices_and_find_by_name(no_passthrough: None) -> None:
    result = code(CS, CART, symbols=["Cart.Label", "Invoice.Add"])
    pieces = [(s["symbol"], s["line"], s["end_line"]) for s in result["files"][0]["slices"]]
    assert pieces == [("Cart.Label", 24, 28), ("Invoice.Add", 78, 79)]
    assert "// Add is mentioned here" in slice_text(result)
    found = code(CS, "Shop", symbols=["Save"])
    assert [(d["path"], s["symbol"]) for d in found["files"] for s in d["slices"]] == [
        ("Shop/Legacy.cs", "IStore.Save"),
        ("Shop/Legacy.cs", "Store.Save"),
    ]
    globbed = code(CS, "**/*.cs", symbols=["Cart.Money"])
    assert [s["text"] for d in globbed["files"] for s in d["slices"]] == [
        "    public record struct Money(decimal Amount, string Currency);\n"
    ]
