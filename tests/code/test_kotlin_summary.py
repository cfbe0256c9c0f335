"""Kotlin summaries: package, imports with aliases, classes, objects, interfaces, enums and type
aliases with their superclass and interfaces, annotations, functions with their signatures
(extensions owned by their receiver, companion objects classes holding their members), properties from bodies
and primary constructors, constants and enum entries; exported, brief, slices and find-by-name
through `code`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.code.conftest import FIXTURES, code, slice_text
from tests.code.summarised import summarised

KT = FIXTURES / "kotlin"
CART = "shop/Cart.kt"


def rows(table: list[dict[str, Any]], *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(c, "") for c in columns) for row in table]


def test_the_header_types_and_relations() -> None:
    document = summarised(KT, CART)
    assert document["namespace"] == "com.acme.shop"
    assert document["imports"] == [
        "java.math.BigDecimal",
        "com.acme.core.Entity as Base",
        "kotlinx.coroutines.*",
    ]
    assert rows(document["types"], "kind", "name", "mods", "extends", "implements", "detail") == [
        ("type", "Listener", "", "", "", "= (Cart<*>) -> Unit"),
        ("class", "Cart", "data", "Base", "Iterable<T>", "<T : Item>"),
        ("class", "Cart.Cursor", "inner", "", "", ""),
        ("class", "Cart.Line", "", "", "", ""),
        ("class", "Cart.Factory", "companion object", "", "", ""),
        ("class", "Result", "sealed", "", "", ""),
        ("class", "Result.Empty", "object", "Result", "", ""),
        ("class", "Result.Full", "data", "Result", "", ""),
        ("enum", "State", "", "", "", ""),
        ("interface", "Item", "", "", "", ""),
        ("interface", "Observer", "fun", "", "", ""),
        ("class", "Serializable", "annotation", "", "", ""),
        ("class", "Registry", "object", "", "", ""),
        ("class", "Invoice", "", "", "", ""),
        ("class", "Invoice.Companion", "companion object", "", "", ""),
    ]
    attrs = {row["name"]: row.get("attrs", "") for row in document["types"]}
    assert attrs["Cart"] == "@Serializable"
    assert attrs["Serializable"] == "@Target(AnnotationTarget.CLASS)"


def test_functions_carry_signatures_owners_and_modifiers() -> None:
    document = summarised(KT, CART)
    functions = rows(document["functions"], "owner", "name", "sig", "line", "end_line", "vis", "mods")
    assert functions == [
        ("Cart", "constructor", "(id: Long)", 26, 26, "public", ""),
        ("Cart", "add", "(item: T)", 30, 30, "public", ""),
        ("Cart", "add", "(item: T, times: Int): Cart<T>", 32, 32, "public", ""),
        ("Cart", "iterator", "(): Iterator<T>", 34, 34, "public", "override"),
        ("Cart", "map", "<R> (transform: (T) -> R): List<R> where R : Comparable<R>", 36, 39, "public", ""),
        ("Cart.map", "twice", "(n: Int)", 37, 37, "public", ""),
        ("Cart.Cursor", "next", "(): T?", 42, 42, "public", ""),
        ("Cart.Factory", "empty", "(): Cart<Item>", 49, 49, "public", ""),
        ("State", "next", "()", 61, 61, "public", "override"),
        ("State", "next", "(): State", 65, 65, "public", "open"),
        ("Item", "price", "(): BigDecimal", 70, 70, "public", ""),
        ("Observer", "notify", "(cart: Cart<*>)", 74, 74, "public", ""),
        ("Registry", "register", "(cart: Cart<*>)", 81, 81, "internal", ""),
        ("String", "toSku", "(): String", 84, 84, "public", ""),  # an extension
        ("", "load", "(id: Long): Cart<Item>?", 88, 88, "private", "suspend"),
        ("Invoice", "add", "(line: String)", 92, 92, "public", ""),
        ("Invoice.Companion", "of", "(line: String): Invoice", 95, 95, "public", ""),
    ]
    assert document["functions"][1]["attrs"] == '@Deprecated("Use plus")'


def test_properties_constants_and_entries() -> None:
    document = summarised(KT, CART)
    assert rows(document["properties"], "owner", "name", "type", "vis", "mods", "value") == [
        ("", "defaultCurrency", "String", "public", "val", '"EUR"'),
        ("Cart", "id", "Long", "public", "val", ""),  # primary constructor parameters
        ("Cart", "owner", "String", "public", "var", ""),
        ("Cart", "items", "", "private", "val", ""),
        ("Cart", "label", "String", "public", "var", ""),
        ("Cart.Line", "sku", "String", "public", "val", ""),
        ("Result.Full", "count", "Int", "public", "val", ""),
        ("State", "code", "Int", "public", "val", ""),
        ("Item", "sku", "String", "public", "val", ""),
        ("Cart", "isEmpty", "Boolean", "public", "val", ""),  # an extension property
    ]
    assert rows(document["constants"], "owner", "name", "value") == [
        ("", "MAX_LINES", "50"),
        ("Cart.Factory", "VERSION", "2"),
    ]
    assert rows(document["cases"], "owner", "name") == [
        ("State", "OPEN"),
        ("State", "PAID"),
        ("State", "SHIPPED"),
    ]


def test_exported_leaves_out_private_and_internal() -> None:
    document = summarised(KT, CART, exported=True)
    names = {(f["owner"], f["name"]) for f in document["functions"]}
    assert ("Registry", "register") not in names and ("", "load") not in names
    assert ("String", "toSku") in names
    assert "items" not in {p["name"] for p in document["properties"]}


def test_brief_drops_imports_properties_and_attrs() -> None:
    document = summarised(KT, CART, brief=True)
    assert "imports" not in document and "properties" not in document
    assert all("attrs" not in row for row in document["functions"])


def test_slices_and_find_by_name(no_passthrough: None) -> None:
    result = code(KT, CART, symbols=["Cart.label", "String.toSku"])
    pieces = [(s["symbol"], s["line"], s["end_line"]) for s in result["files"][0]["slices"]]
    assert pieces == [("Cart.label", 22, 24), ("String.toSku", 84, 84)]
    assert "set(value) { owner = value }" in slice_text(result)
    found = code(KT, "shop", symbols=["add"])
    assert [s["symbol"] for d in found["files"] for s in d["slices"]] == [
        "Cart.add",
        "Cart.add",
        "Invoice.add",
    ]
    globbed = code(KT, "**/*.kt", symbols=["Serializable"])
    assert [s["text"] for d in globbed["files"] for s in d["slices"]] == [
        "@Target(AnnotationTarget.CLASS)\nannotation class Serializable\n"
    ]


def test_a_long_default_is_cut_at_24_characters(tmp_path: Path) -> None:
    (tmp_path / "Opts.kt").write_text(
        "fun open(path: String, mode: Int = 0, retry: Policy = Policy.exponential(base = 2, cap = 30)): File = TODO()\n"
        "fun pick(items: Map<String, Int> = emptyMap()) {}\n"
    )
    sigs = [row["sig"] for row in summarised(tmp_path, "Opts.kt")["functions"]]
    assert sigs == [
        "(path: String, mode: Int = 0, retry: Policy = Policy.exponential(base…): File",
        "(items: Map<String, Int> = emptyMap())",
    ]


def test_one_line_bodies_keep_their_declarations(tmp_path: Path, no_passthrough: None) -> None:
    """tree-sitter-kotlin needs a separator before a class body's `}`, which Kotlin does not:
    `class Store { fun save() = 1 }` must still declare Store.save, and its text stay as written."""
    (tmp_path / "Shop.kt").write_text(
        "class Store { fun save() = 1 }\n"
        'object Keys { const val NAME = "a }" }\n'
        "class Shop {\n"
        "  private val store: Store = Store()\n"
        "  fun run() = listOf(1).map { it + 1 }.also { _ -> /* none */ }\n"
        "}\n"
    )
    document = summarised(tmp_path, "Shop.kt")
    assert "parse_errors" not in document
    assert rows(document["functions"], "owner", "name", "line") == [("Store", "save", 1), ("Shop", "run", 5)]
    assert rows(document["constants"], "owner", "name", "value") == [("Keys", "NAME", '"a }"')]
    found = code(tmp_path, ".", symbols=["Store.save"])
    assert [s["text"] for d in found["files"] for s in d["slices"]] == ["class Store { fun save() = 1 }\n"]
