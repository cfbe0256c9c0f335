"""refs in Scala: definitions with kind and signature; calls through `this`, a bare call in the
class, a parameter, a val typed `Foo`, `val x = new Foo` and a companion object (`Foo.create`)
are exact, `new` is new, the type after `extends` extends and one after `with` implements, an
import rename (`{Invoice => Bill}`) is followed, a same-named member of an unrelated type is
apart, comments, strings and a shadowing local are counted apart."""

from __future__ import annotations

from tests.refs.conftest import FIXTURES, accounted, entry, refs, uses

SC = FIXTURES / "scala"
CHECKOUT = "app/Checkout.scala"
SPECIAL = "app/Special.scala"
INVOICE = "billing/Invoice.scala"


def test_a_method_through_typed_receivers() -> None:
    item = entry(refs(SC, "Invoice.total"), "Invoice.total")
    assert [(d["file"], d["line"], d["kind"], d["sig"]) for d in item["definitions"]] == [
        (INVOICE, 6, "method", "def total(): Int = 0")
    ]
    assert uses(item) == {
        (CHECKOUT, 9, "call", "exact"),  # a parameter typed Invoice
        (CHECKOUT, 10, "call", "exact"),  # a val typed Invoice
        (CHECKOUT, 12, "call", "exact"),  # val local = new Invoice(2)
        (SPECIAL, 9, "call", "exact"),  # val made = new Bill(3), Bill a rename of Invoice
        (INVOICE, 9, "call", "exact"),  # this.total()
        (INVOICE, 10, "call", "exact"),  # total() inside Invoice
        (CHECKOUT, 16, "call", "exact"),  # find().total(): find is declared to return an Invoice
    }
    totals = item["totals"]
    assert totals["elsewhere"] == 2  # Receipt's total and receipt.total()
    assert totals["locals"] == 2  # val total = 3 and its use in the interpolated string
    assert totals["in_comments"] == 2 and totals["in_strings"] == 1
    assert accounted(item) == totals["text"] == 15


def test_a_same_named_member_of_an_unrelated_type_is_not_exact() -> None:
    item = entry(refs(SC, "Receipt.total"), "Receipt.total")
    exact = {(f, line) for f, line, _, match in uses(item) if match == "exact"}
    assert exact == {(CHECKOUT, 13)}  # receipt.total(), a constructor parameter typed Receipt


def test_a_class_its_companion_and_a_rename() -> None:
    item = entry(refs(SC, "Invoice"), "Invoice")
    assert [(d["line"], d["kind"], d["sig"]) for d in item["definitions"]] == [
        (5, "class", "class Invoice(val id: Long) extends Document with Payable"),
        (14, "class", "object Invoice"),
    ]
    assert uses(item) == {
        (CHECKOUT, 3, "import", "exact"),
        (CHECKOUT, 6, "type", "exact"),
        (CHECKOUT, 6, "new", "exact"),
        (CHECKOUT, 8, "type", "exact"),
        (CHECKOUT, 11, "new", "exact"),
        (CHECKOUT, 17, "reference", "exact"),  # Invoice.create(4): the companion
        (CHECKOUT, 20, "type", "exact"),
        (CHECKOUT, 20, "reference", "exact"),
        (SPECIAL, 3, "import", "exact"),  # {Invoice => Bill}
        (SPECIAL, 6, "extends", "exact"),  # extends Bill(4)
        (SPECIAL, 8, "new", "exact"),  # new Bill(3)
        (INVOICE, 15, "type", "exact"),
        (INVOICE, 15, "new", "exact"),
    }


def test_a_companion_objects_member_is_exact_through_its_name() -> None:
    item = entry(refs(SC, "Invoice.create"), "Invoice.create")
    assert [(d["line"], d["kind"], d["qname"]) for d in item["definitions"]] == [
        (15, "method", "Invoice.create")
    ]
    assert uses(item) == {(CHECKOUT, 17, "call", "exact"), (CHECKOUT, 20, "call", "exact")}


def test_extends_and_with_read_as_extends_and_implements() -> None:
    result = refs(SC, "Document", "Payable")
    assert uses(entry(result, "Document")) == {(INVOICE, 5, "extends", "name")}
    assert uses(entry(result, "Payable")) == {
        (INVOICE, 5, "implements", "name"),
        (SPECIAL, 6, "implements", "name"),
    }
