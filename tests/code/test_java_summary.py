"""Java summaries: package, imports, types with relations, generics and annotations, methods with
their signatures, fields with their modifiers, enum constants as cases; exported and brief."""

from __future__ import annotations

from typing import Any

from tests.code.conftest import FIXTURES
from tests.code.summarised import summarised

JAVA = FIXTURES / "java"
ORDER = "src/com/acme/Order.java"


def rows(table: list[dict[str, Any]], *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(c, "") for c in columns) for row in table]


def test_the_header_types_and_relations() -> None:
    document = summarised(JAVA, ORDER)
    assert document["namespace"] == "com.acme"
    assert document["imports"] == [
        "java.util.List",
        "java.util.ArrayList",
        "com.acme.util.Money",
        "static com.acme.util.Money.zero",
    ]
    assert rows(document["types"], "kind", "name", "vis", "extends", "implements", "detail")[0] == (
        "class",
        "Order",
        "public",
        "Base",
        "Comparable<Order<T>>, Serializable",
        "<T extends Item>",
    )
    assert document["types"][0]["attrs"] == '@Entity; @Table(name = "orders")'
    assert [t["name"] for t in document["types"]] == [
        "Order",
        "Order.Line",
        "Order.Listener",
        "Order.State",
        "Order.Total",
    ]


def test_methods_carry_signatures_visibility_and_annotations() -> None:
    document = summarised(JAVA, ORDER)
    functions = rows(
        document["functions"], "owner", "name", "sig", "line", "end_line", "vis", "mods", "attrs"
    )
    assert functions[2] == ("Order", "add", "void (T item)", 33, 36, "public", "synchronized", "@Override")
    assert (
        "Order",
        "pick",
        "<K> K (List<K> from) throws IllegalStateException",
        44,
        47,
        "package",
        "static",
        "",
    ) in functions
    assert ("Order.Listener", "added", "void (Order<?> order)", 67, 67, "public", "", "") in functions


def test_fields_and_enum_constants() -> None:
    document = summarised(JAVA, ORDER)
    assert rows(document["properties"], "owner", "name", "type", "vis", "mods", "value")[:3] == [
        ("Order", "MAX_ITEMS", "int", "public", "static final", "100"),
        ("Order", "items", "List<T>", "private", "final", ""),
        ("Order", "total", "Money", "protected", "", ""),
    ]
    assert ("Order.Total", "amount", "Money", "public") in rows(
        document["properties"], "owner", "name", "type", "vis"
    ), "a record's components are its fields, read through public accessors"
    assert ("Order.Total", "items", "int", "public") in rows(
        document["properties"], "owner", "name", "type", "vis"
    )
    assert rows(document["cases"], "owner", "name") == [
        ("Order.State", "OPEN"),
        ("Order.State", "PAID"),
        ("Order.State", "SHIPPED"),
    ]


def test_exported_keeps_public_members_of_public_types() -> None:
    document = summarised(JAVA, ORDER, exported=True)
    assert [t["name"] for t in document["types"]] == ["Order", "Order.Line"]
    names = [(f["owner"], f["name"]) for f in document["functions"]]
    assert ("Order", "pick") not in names and ("Order.Line", "count") not in names
    assert ("Order", "compareTo") in names


def test_brief_drops_imports_properties_and_attrs() -> None:
    document = summarised(JAVA, ORDER, brief=True)
    assert "imports" not in document and "properties" not in document
    assert all("attrs" not in row for row in document["functions"])
