"""A type named bare, without an import, in Java, Kotlin, Scala and C#: its own package's (or
namespace's) type where the package declares one, and exact for it; elsewhere for a same-named
type of another package; where the package declares none (a wildcard or default import may
bring it) a name match for every definition, never dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.refs.conftest import entry, refs, uses

LAYOUTS: dict[str, tuple[dict[str, str], str]] = {
    "Java": (
        {
            "billing/Invoice.java": "package billing;\npublic class Invoice {}\n",
            "archive/Invoice.java": "package archive;\npublic class Invoice {}\n",
            "billing/Desk.java": "package billing;\nclass Desk {\n  Invoice open() { return new Invoice(); }\n}\n",
            "shop/Till.java": "package shop;\nimport archive.*;\nclass Till {\n  Invoice last() { return new Invoice(); }\n}\n",
        },
        "java",
    ),
    "Kotlin": (
        {
            "billing/Invoice.kt": "package billing\n\nclass Invoice\n",
            "archive/Invoice.kt": "package archive\n\nclass Invoice\n",
            "billing/Desk.kt": "package billing\n\nclass Desk {\n  fun open(): Invoice = Invoice()\n}\n",
            "shop/Till.kt": "package shop\n\nimport archive.*\nclass Till {\n  fun last(): Invoice = Invoice()\n}\n",
        },
        "kt",
    ),
    "Scala": (
        {
            "billing/Invoice.scala": "package billing\n\nclass Invoice\n",
            "archive/Invoice.scala": "package archive\n\nclass Invoice\n",
            "billing/Desk.scala": "package billing\n\nclass Desk {\n  def open(): Invoice = new Invoice()\n}\n",
            "shop/Till.scala": "package shop\n\nimport archive._\nclass Till {\n  def last(): Invoice = new Invoice()\n}\n",
        },
        "scala",
    ),
    "C#": (
        {
            "Billing/Invoice.cs": "namespace Billing;\npublic class Invoice {}\n",
            "Archive/Invoice.cs": "namespace Archive;\npublic class Invoice {}\n",
            "Billing/Desk.cs": "namespace Billing;\nclass Desk {\n  Invoice Open() { return new Invoice(); }\n}\n",
            "Shop/Till.cs": "using Archive;\nnamespace Shop;\nclass Till {\n  Invoice Last() { return new Invoice(); }\n}\n",
        },
        "cs",
    ),
}


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize("lang", sorted(LAYOUTS))
def test_a_bare_type_is_its_own_packages(tmp_path: Path, lang: str) -> None:
    files, ext = LAYOUTS[lang]
    _write(tmp_path, files)
    own, other = ("Billing", "Archive") if lang == "C#" else ("billing", "archive")
    desk = f"{own}/Desk.{ext}"
    line = 3 if lang in ("Java", "C#") else 4
    till = next(rel for rel in files if "Till" in rel)
    mine = entry(refs(tmp_path, f"{own}.Invoice"), f"{own}.Invoice")
    theirs = entry(refs(tmp_path, f"{other}.Invoice"), f"{other}.Invoice")
    assert {(line, match) for file, line, _, match in uses(mine) if file == desk} == {(line, "exact")}
    assert not {row for row in uses(theirs) if row[0] == desk}  # elsewhere: not listed
    assert theirs["totals"]["elsewhere"] >= 2
    # a package that declares none: the wildcard import may bring either
    assert {match for file, _, _, match in uses(mine) if file == till} == {"name"}
    assert {match for file, _, _, match in uses(theirs) if file == till} == {"name"}


def test_ruby_constants_are_looked_up_through_the_lexical_modules(tmp_path: Path) -> None:
    """Inside `module Billing`, `Invoice` is `Billing::Invoice` where Billing defines one, else the
    top-level `Invoice`; a compact `class Billing::Till` does not open Billing's scope."""
    _write(
        tmp_path,
        {
            "billing.rb": "module Billing\n  class Invoice\n  end\nend\n",
            "invoice.rb": "class Invoice\nend\n",
            "desk.rb": "module Billing\n  class Desk\n    def open\n      Invoice.new\n    end\n  end\nend\n"
            "class Shop\n  def last\n    Invoice.new\n  end\nend\n"
            "class Billing::Till\n  def sum\n    Invoice.new\n  end\nend\n",
        },
    )
    found = refs(tmp_path, "Billing::Invoice", "Invoice")
    nested = {(line, match) for _, line, _, match in uses(entry(found, "Billing::Invoice"))}
    assert nested == {(4, "exact")}
    every = {(line, match) for _, line, _, match in uses(entry(found, "Invoice"))}
    assert every == {(4, "exact"), (10, "exact"), (15, "exact")}
    assert entry(found, "Billing::Invoice")["totals"]["elsewhere"] >= 2  # lines 10 and 15


def test_an_inherited_member_type_comes_before_the_package(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "billing/Invoice.java": "package billing;\npublic class Invoice {}\n",
            "billing/Base.java": "package billing;\nclass Base {\n  static class Invoice {}\n}\n",
            "billing/Desk.java": "package billing;\nclass Desk extends Base {\n  Invoice open() { return null; }\n}\n",
        },
    )
    found = refs(tmp_path, "billing.Invoice", "Base.Invoice")
    assert {row[3] for row in uses(entry(found, "Base.Invoice")) if row[0] == "billing/Desk.java"} == {
        "exact"
    }
    assert not {row for row in uses(entry(found, "billing.Invoice")) if row[0] == "billing/Desk.java"}


def test_csharp_looks_through_the_enclosing_namespaces(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "Invoice.cs": "namespace Acme;\npublic class Invoice {}\n",
            "Other.cs": "namespace Other;\npublic class Invoice {}\n",
            "App/Desk.cs": "namespace Acme.App;\nclass Desk {\n  Invoice Open() { return new Invoice(); }\n}\n",
        },
    )
    found = refs(tmp_path, "Acme.Invoice", "Other.Invoice")
    assert {(f, line, m) for f, line, _, m in uses(entry(found, "Acme.Invoice"))} == {
        ("App/Desk.cs", 3, "exact")
    }
    assert not uses(entry(found, "Other.Invoice"))
