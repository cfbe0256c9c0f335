"""refs in C#: definitions with kind and signature, calls through `this`, fields, parameters,
typed locals and `var x = new T()` (through a `using` alias too) are exact, relations read as
extends or implements, a same-named member of another type is apart, comments, strings and a
shadowing local are counted apart."""

from __future__ import annotations

from tests.refs.conftest import FIXTURES, accounted, entry, refs, uses

CS = FIXTURES / "csharp"
CHECKOUT = "App/Checkout.cs"
INVOICE = "Billing/Invoice.cs"


def test_a_method_through_typed_receivers() -> None:
    item = entry(refs(CS, "Invoice.Total"), "Invoice.Total")
    assert [(d["file"], d["line"], d["kind"], d["sig"]) for d in item["definitions"]] == [
        (INVOICE, 6, "method", "public decimal Total() => 0;")
    ]
    assert uses(item) == {
        (CHECKOUT, 12, "call", "exact"),  # a parameter typed Invoice
        (CHECKOUT, 13, "call", "exact"),  # a field typed Invoice
        (CHECKOUT, 15, "call", "exact"),  # Invoice local = new Invoice()
        (CHECKOUT, 17, "call", "exact"),  # var made = new Bill(), Bill an alias of Invoice
        (INVOICE, 10, "call", "exact"),  # this.Total()
        (INVOICE, 11, "call", "exact"),  # Total() inside Invoice
        (CHECKOUT, 19, "call", "name"),  # Find().Total(): the receiver is not known
    }
    totals = item["totals"]
    # Receipt.Total's definition, and receipt.Total(): `Receipt` through `using Acme.Billing;` is
    # the tree's one class of that name, whose whole chain does not reach Invoice
    assert totals["elsewhere"] == 2
    assert totals["locals"] == 2  # var Total = 3 and its use
    assert totals["in_comments"] == 1 and totals["in_strings"] == 1
    assert accounted(item) == totals["text"] == 14


def test_a_class_through_using_and_its_alias() -> None:
    item = entry(refs(CS, "Invoice"), "Invoice")
    assert [(d["kind"], d["sig"]) for d in item["definitions"]] == [
        ("class", "public class Invoice : Document, IPayable")
    ]
    assert uses(item) == {
        (CHECKOUT, 2, "import", "exact"),  # using Bill = Acme.Billing.Invoice;
        (CHECKOUT, 16, "new", "exact"),  # new Bill()
        (CHECKOUT, 27, "extends", "exact"),  # : Bill
        # `using Acme.Billing;` brings in a namespace: its types are matched by name.
        (CHECKOUT, 8, "type", "name"),
        (CHECKOUT, 8, "new", "name"),
        (CHECKOUT, 10, "type", "name"),
        (CHECKOUT, 14, "type", "name"),
        (CHECKOUT, 14, "new", "name"),
    }


def test_a_base_list_names_the_class_first_and_interfaces_by_their_i() -> None:
    result = refs(CS, "Document", "IPayable", "IInvoice")
    assert uses(entry(result, "Document")) == {(INVOICE, 4, "extends", "name")}
    assert uses(entry(result, "IPayable")) == {(INVOICE, 4, "implements", "name")}
    assert uses(entry(result, "IInvoice")) == {(CHECKOUT, 27, "implements", "name")}
