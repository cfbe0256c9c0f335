"""refs in Kotlin: definitions with kind and signature, calls through `this`, properties,
parameters and `val x = Foo()` (through an import alias too) are exact, a constructor call is
`new`, a delegation specifier calling a constructor is extends and one without is implements, a
same-named member of an imported unrelated type is apart, comments, strings and a shadowing local
are counted apart."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import call
from tests.refs.conftest import FIXTURES, accounted, entry, refs, uses

KT = FIXTURES / "kotlin"
CHECKOUT = "app/Checkout.kt"
SPECIAL = "app/Special.kt"
INVOICE = "billing/Invoice.kt"
LEDGER = "billing/Ledger.kt"


def test_a_method_through_typed_receivers() -> None:
    item = entry(refs(KT, "Invoice.total"), "Invoice.total")
    assert [(d["file"], d["line"], d["kind"], d["sig"]) for d in item["definitions"]] == [
        (INVOICE, 5, "method", "fun total(): Int = 0")
    ]
    assert uses(item) == {
        (CHECKOUT, 10, "call", "exact"),  # a parameter typed Invoice
        (CHECKOUT, 11, "call", "exact"),  # a property typed Invoice
        (CHECKOUT, 13, "call", "exact"),  # val local = Invoice(2)
        (SPECIAL, 8, "call", "exact"),  # val made = Bill(3), Bill an alias of Invoice
        (INVOICE, 8, "call", "exact"),  # this.total()
        (INVOICE, 9, "call", "exact"),  # total() inside Invoice
        (CHECKOUT, 15, "call", "name"),  # find().total(): the receiver is not known
    }
    totals = item["totals"]
    assert totals["elsewhere"] == 2  # Receipt.total and receipt.total(), Receipt imported
    assert totals["locals"] == 1  # val total = 3 (its use sits in a string template)
    assert totals["in_comments"] == 1 and totals["in_strings"] == 2
    assert accounted(item) == totals["text"] == 14


def test_a_class_through_imports_and_an_alias() -> None:
    item = entry(refs(KT, "Invoice"), "Invoice")
    assert [(d["kind"], d["sig"]) for d in item["definitions"]] == [
        ("class", "open class Invoice(val id: Long) : Document(), Payable")
    ]
    assert uses(item) == {
        (CHECKOUT, 3, "import", "exact"),
        (CHECKOUT, 7, "type", "exact"),
        (CHECKOUT, 7, "new", "exact"),  # Invoice(1)
        (CHECKOUT, 9, "type", "exact"),
        (CHECKOUT, 12, "new", "exact"),
        (SPECIAL, 3, "import", "exact"),  # import ... Invoice as Bill
        (SPECIAL, 5, "extends", "exact"),  # : Bill(4)
        (SPECIAL, 7, "new", "exact"),  # Bill(3)
    }


def test_delegation_specifiers_read_as_extends_or_implements() -> None:
    result = refs(KT, "Document", "Payable")
    assert uses(entry(result, "Document")) == {(INVOICE, 4, "extends", "name")}
    assert uses(entry(result, "Payable")) == {
        (INVOICE, 4, "implements", "name"),
        (SPECIAL, 5, "implements", "name"),
    }


def test_a_receiver_typed_with_a_qualified_name(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "Base.kt").write_text("package a.b\n\nclass Base {\n    fun ping() {}\n}\n")
    (tmp_path / "a" / "Use.kt").write_text(
        "package c\n\nfun use(x: a.b.Base?) {\n    x.ping()\n    val y: a.b.Base = make()\n    y.ping()\n}\n"
    )
    item = entry(refs(tmp_path, "Base.ping"), "Base.ping")
    assert uses(item) == {("a/Use.kt", 4, "call", "exact"), ("a/Use.kt", 6, "call", "exact")}


def test_a_companion_objects_member_called_through_its_class() -> None:
    item = entry(refs(KT, "Ledger.Companion.create"), "Ledger.Companion.create")
    assert [(d["line"], d["kind"], d["qname"]) for d in item["definitions"]] == [
        (5, "method", "Ledger.Companion.create")
    ]
    assert uses(item) == {(LEDGER, 16, "call", "exact")}  # Ledger.create()
    assert item["totals"]["elsewhere"] == 2  # Journal.Factory.create and Journal.create()


COMPANIONS = """package shop

class Foo {
    companion object {
        fun create(): Foo = Foo()
        const val TAG = "foo"
    }
    fun copy(): Foo = create()
    fun tag() = TAG
    class Nested {
        fun make() = create()
    }
}

class Bar {
    companion object { fun create(): Bar = Bar() }
    fun again() = create()
}

fun main() {
    Foo.create()
    Foo.Companion.create()
}
"""


def test_a_companions_members_reached_bare_from_its_class_and_through_its_name(tmp_path: Path) -> None:
    """Kotlin code calls a companion's member bare inside the class (and its nested classes),
    as `Foo.create()` and as `Foo.Companion.create()`; asked for as `Foo.create`, as Kotlin code
    names it, it is the same definition."""
    (tmp_path / "Foo.kt").write_text(COMPANIONS)
    result = refs(tmp_path, "Foo.Companion.create", "Foo.create", "Foo.TAG")
    for asked in ("Foo.Companion.create", "Foo.create"):
        item = entry(result, asked)
        assert [d["qname"] for d in item["definitions"]] == ["Foo.Companion.create"]
        assert uses(item) == {
            ("Foo.kt", 8, "call", "exact"),  # create() in Foo.copy
            ("Foo.kt", 11, "call", "exact"),  # create() in a nested class
            ("Foo.kt", 21, "call", "exact"),  # Foo.create()
            ("Foo.kt", 22, "call", "exact"),  # Foo.Companion.create()
        }
        assert item["totals"]["elsewhere"] == 2  # Bar's companion create and Bar.again's call
    assert uses(entry(result, "Foo.TAG")) == {("Foo.kt", 9, "reference", "exact")}


def test_code_finds_a_companions_member_by_the_name_kotlin_code_calls_it(tmp_path: Path) -> None:
    (tmp_path / "Foo.kt").write_text(COMPANIONS)
    found = call("code", {"files": ["."], "symbols": ["Foo.create"]}, tmp_path)
    assert [s["symbol"] for f in found["files"] for s in f["slices"]] == ["Foo.Companion.create"]
