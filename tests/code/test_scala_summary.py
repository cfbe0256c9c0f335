"""Scala summaries: chained packages, imports with renames, hidden names and wildcards, classes,
case classes, objects, traits, enums and type aliases with what they extend and mix in,
annotations, defs with their signatures, vals, vars and constructor fields with their
visibility (`private[shop]` kept whole); exported, brief, slices and find-by-name through `code`."""

from __future__ import annotations

from typing import Any

from tests.code.conftest import FIXTURES, code, slice_text
from tests.code.summarised import summarised

SC = FIXTURES / "scala"
CART = "shop/Cart.scala"


def rows(table: list[dict[str, Any]], *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(c, "") for c in columns) for row in table]


def test_the_header_types_and_relations() -> None:
    document = summarised(SC, CART)
    assert document["namespace"] == "com.acme.shop"
    assert document["imports"] == [
        "scala.collection.mutable",
        "scala.collection.{Map => SMap, Seq}",
        "java.util._",
        "com.acme.core.{Entity => Base, Hidden => _}",
    ]
    assert rows(document["types"], "kind", "name", "mods", "extends", "implements", "detail") == [
        ("trait", "Item", "", "", "", ""),
        ("class", "Cart", "final case", "Base", "Serializable, Ordered[Cart[T]]", "[T <: Item]"),
        ("type", "Cart.Key", "", "", "", "= String"),
        ("class", "Cart.Cursor", "", "", "", ""),
        ("class", "Cart", "object", "", "", ""),
        ("class", "Result", "sealed abstract", "", "", ""),
        ("class", "Missing", "case object", "Result", "", ""),
        ("class", "Found", "case", "Result", "", ""),
        ("class", "Ledger", "", "", "", ""),
        ("enum", "Mode", "", "", "", ""),
    ]
    cart = document["types"][1]
    assert (cart["line"], cart["end_line"], cart["attrs"]) == (20, 42, "@SerialVersionUID(1L)")


def test_defs_carry_signatures_owners_and_modifiers() -> None:
    document = summarised(SC, CART)
    functions = rows(document["functions"], "owner", "name", "sig", "line", "end_line", "mods")
    assert functions == [
        ("Item", "sku", ": String", 11, 11, ""),
        ("Cart", "add", "(item: T): Cart[T]", 28, 28, ""),
        ("Cart", "add", "(item: T, times: Int): Cart[T]", 29, 29, ""),
        ("Cart", "compare", "(that: Cart[T]): Int", 30, 30, "override"),
        ("Cart", "this", "(owner: String)", 32, 32, ""),
        ("Cart.Cursor", "next", "(): Option[T]", 35, 35, ""),
        ("Cart", "total", ": BigDecimal", 38, 41, ""),
        ("Cart.total", "twice", "(x: BigDecimal)", 39, 39, ""),
        ("Cart", "apply", "(owner: String): Cart[Item]", 46, 46, ""),  # the companion's
        ("Cart", "ordering", "[T <: Item]: Ordering[Cart[T]]", 47, 47, "implicit"),
        ("Ledger", "add", "(amount: Int): Int", 56, 56, ""),
        ("", "load", "(name: String): Cart[Item]", 64, 64, ""),
    ]
    assert document["functions"][1]["attrs"] == '@deprecated("use plus", "1.0")'


def test_vals_vars_fields_and_cases() -> None:
    document = summarised(SC, CART)
    assert rows(document["properties"], "owner", "name", "type", "vis", "mods", "value") == [
        ("Item", "price", "BigDecimal", "public", "val", ""),
        ("Cart", "items", "List[T]", "public", "", ""),  # a case class parameter
        ("Cart", "owner", "String", "private", "val", ""),
        ("Cart", "limit", "Int", "private[shop]", "val", "10"),
        ("Cart", "label", "", "protected", "var", '"cart"'),
        ("Cart", "Empty", "", "public", "val", '"empty cart: add nothin…'),
        ("Found", "count", "Int", "public", "", ""),
        ("", "defaultOwner", "", "public", "val", '"nobody"'),
    ]
    assert rows(document["cases"], "owner", "name") == [
        ("Mode", "Open"),
        ("Mode", "Closed"),
        ("Mode", "Limited"),
    ]


def test_exported_leaves_out_private_and_protected() -> None:
    document = summarised(SC, CART, exported=True)
    names = {(p["owner"], p["name"]) for p in document["properties"]}
    assert ("Cart", "limit") not in names and ("Cart", "label") not in names
    assert ("Cart", "owner") not in names and ("Cart", "items") in names


def test_brief_drops_imports_properties_and_attrs() -> None:
    document = summarised(SC, CART, brief=True)
    assert "imports" not in document and "properties" not in document
    assert all("attrs" not in row for row in document["functions"])


def test_slices_and_find_by_name(no_passthrough: None) -> None:
    result = code(SC, CART, symbols=["Cart.apply", "Ledger.add"])
    pieces = [(s["symbol"], s["line"], s["end_line"]) for s in result["files"][0]["slices"]]
    assert pieces == [("Cart.apply", 46, 46), ("Ledger.add", 56, 56)]
    assert "def apply(owner: String): Cart[Item] = new Cart[Item](Nil, owner)" in slice_text(result)
    found = code(SC, "shop", symbols=["add"])
    assert [s["symbol"] for d in found["files"] for s in d["slices"]] == [
        "Cart.add",
        "Cart.add",
        "Ledger.add",
    ]
    globbed = code(SC, "**/*.scala", symbols=["Item"])
    assert [s["text"] for d in globbed["files"] for s in d["slices"]] == [
        "/** What a cart holds. */\ntrait Item {\n  def sku: String\n  val price: BigDecimal\n}\n"
    ]
