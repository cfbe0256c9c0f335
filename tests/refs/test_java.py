"""refs in Java: definitions with kind and signature, uses by kind, receivers typed by `this`,
locals, parameters and fields are exact, a same-named member of an unrelated type is not."""

from __future__ import annotations

from pathlib import Path

from tests.code.conftest import FIXTURES
from tests.refs.conftest import entry, refs, uses

JAVA = FIXTURES / "java"
ORDER = "src/com/acme/Order.java"
CACHE = "src/com/acme/Cache.java"


def test_definitions_of_an_overloaded_method() -> None:
    item = entry(refs(JAVA, "Order.add"), "Order.add")
    assert [(d["qname"], d["kind"], d["line"]) for d in item["definitions"]] == [
        ("Order.add", "method", 33),
        ("Order.add", "method", 38),
    ]
    assert item["definitions"][0]["sig"] == "public synchronized void add(T item)"


def test_typed_receivers_are_exact_and_comments_strings_apart() -> None:
    item = entry(refs(JAVA, "Order.add"), "Order.add")
    found = uses(item)
    assert (CACHE, 9, "call", "exact") in found  # order.add(null), order: Order<Item>
    assert (ORDER, 26, "call", "exact") in found  # add(first) inside Order
    assert (ORDER, 40, "call", "exact") in found  # this.add(item)
    assert (ORDER, 51, "call", "exact") in found  # copy.add(...), copy: Order<T>
    assert (CACHE, 10, "call", "name") in found  # unknown.add(null): the receiver is not known
    assert item["totals"]["in_comments"] == 2 and item["totals"]["in_strings"] == 1


def test_a_same_named_method_of_another_type_is_its_own() -> None:
    item = entry(refs(JAVA, "Cache.add"), "Cache.add")
    exact = {(row[0], row[1]) for row in uses(item) if row[3] == "exact"}
    assert exact == {(CACHE, 8), (ORDER, 53)}  # other.add("y"), cache.add("x")


def test_kinds_of_class_uses(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "Base.java").write_text("package a;\npublic class Base { }\n")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "Child.java").write_text(
        "package b;\n\nimport a.Base;\n\npublic class Child extends Base {\n"
        "    Base make() { return new Base(); }\n}\n"
    )
    item = entry(refs(tmp_path, "Base"), "Base")
    assert [(d["file"], d["kind"]) for d in item["definitions"]] == [("a/Base.java", "class")]
    assert uses(item) == {
        ("b/Child.java", 3, "import", "exact"),
        ("b/Child.java", 5, "extends", "exact"),
        ("b/Child.java", 6, "type", "exact"),
        ("b/Child.java", 6, "new", "exact"),
    }


def test_a_local_of_a_methods_name_is_the_local(tmp_path: Path) -> None:
    """javac: `distance` read after `int distance = …` is the local, and a bare name without
    parentheses is never a method in Java."""
    (tmp_path / "Itr.java").write_text(
        "class Itr {\n    int distance(int a) { return a; }\n    void f(int index) {\n"
        "        int distance = index - 1;\n        int x = distance + 1;\n        distance(3);\n    }\n}\n"
    )
    item = entry(refs(tmp_path, "Itr.distance"), "Itr.distance")
    assert uses(item) == {("Itr.java", 6, "call", "exact")}
    assert item["totals"]["locals"] == 2
