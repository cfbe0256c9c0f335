"""A file that imports a name both as itself and under an alias: each import statement is read
with its own binding, so the alias's uses are followed too (the first binding of the name used
to answer for both, and `Bill` went uncounted)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.refs.conftest import entry, refs, rows

CASES = {
    "kotlin": (
        {
            "a/Invoice.kt": "package a\n\nclass Invoice\n",
            "b/Use.kt": "package b\n\nimport a.Invoice\nimport a.Invoice as Bill\n\nfun f(x: Invoice, y: Bill) = 1\n",
        },
        "a.Invoice",
        ("b/Use.kt", 6),
    ),
    "scala": (
        {
            "a/Invoice.scala": "package a\nclass Invoice\n",
            "b/Use.scala": "package b\nimport a.Invoice\nimport a.{Invoice => Bill}\n"
            "object U { def f(x: Invoice, y: Bill) = 1 }\n",
        },
        "a.Invoice",
        ("b/Use.scala", 4),
    ),
    "rust": (
        {
            "src/a.rs": "pub struct Invoice;\n",
            "src/b.rs": "use crate::a::Invoice;\nuse crate::a::Invoice as Bill;\n\nfn f(x: Invoice, y: Bill) {}\n",
        },
        "Invoice",
        ("src/b.rs", 4),
    ),
}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_the_aliased_import_beside_the_plain_one_is_followed(tmp_path: Path, lang: str) -> None:
    files, symbol, (using, line) = CASES[lang]
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    item = entry(refs(tmp_path, symbol), symbol)
    on_line = [row for row in rows(item, "exact") + rows(item, "name") if row["file"] == using]
    types = [row["col"] for row in on_line if row["line"] == line and row["kind"] == "type"]
    assert len(types) == 2, on_line  # the plain name's use and the alias's
