"""Adding a language as docs/adding-a-language.md says: the scaffold writes one record, one module
with its Spec and one query file, and the new language is then read end to end by `code` (summary,
slice, find by name), `grep` (the enclosing symbol) and `refs` (definitions and classified uses),
and listed in the generated docs/languages.md — with no engine edited."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

QUERY = """\
(package_declaration [(identifier) (scoped_identifier)] @name) @package
(import_declaration) @import
(class_declaration name: (identifier) @name) @definition.class
(method_declaration name: (identifier) @name) @definition.method
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name)) @definition.field
(local_variable_declaration type: (_) @binding.type declarator: (variable_declarator name: (identifier) @binding.name)) @binding
"""

SOURCE = """\
package demo;

/** Keeps a running total. */
public class Ledger {
    private int total;

    /** Adds to the total. */
    public void add(int amount) {
        total += amount; // add grows the total
    }

    public int balance() {
        add(0);
        return total;
    }
}
""" + "".join(
    f"// history {n}: every entry ever added to a ledger is kept in its journal\n" for n in range(40)
)


def _digests(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("checkout")
    for part in ("sofia", "scripts", "docs"):
        shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "README.md", root / "README.md")
    (root / "tests" / "syntax").mkdir(parents=True)
    query = root / "ledger.scm"
    query.write_text(QUERY)
    before = _digests(root)
    done = subprocess.run(
        [sys.executable, str(root / "scripts" / "new_language.py"), "ledgerlang", "--title", "Ledger",
         "--ext", ".ledger", "--grammar", "java", "--query", str(query),
         "--comments", "line_comment", "block_comment", "--strings", "string_literal", "string_fragment"],
        capture_output=True, text=True, check=False, cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    after = _digests(root)
    module = root / "sofia" / "syntax" / "languages" / "ledgerlang.py"
    text = module.read_text().replace(
        "from sofia.syntax.queried import Spec\n",
        "from sofia.syntax.queried import Spec\nfrom sofia.syntax.uses.tables import Uses\n",
    )
    module.write_text(text.replace("\n)\n", '\n    uses=Uses(calls={"method_invocation": "name"}),\n)\n'))
    changed = {p for p in set(after) & set(before) if after[p] != before[p]} | (set(after) - set(before))
    (root / "changed.json").write_text(json.dumps(sorted(changed)))
    work = root / "work"
    work.mkdir()
    (work / "Ledger.ledger").write_text(SOURCE)
    return root


def _sf(checkout: Path, *args: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "SOFIA_CODE_RAW_BELOW": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "sofia", *args, "--json"],
        capture_output=True, text=True, check=False, cwd=checkout / "work", env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_scaffold_writes_the_record_the_module_the_query_and_docs_only(checkout: Path) -> None:
    changed = set(json.loads((checkout / "changed.json").read_text()))
    assert changed == {
        "sofia/syntax/registry.py",
        "sofia/syntax/languages/ledgerlang.py",
        "sofia/syntax/languages/ledgerlang.scm",
        "tests/syntax/test_ledgerlang.py",
        "tests/fixtures/code/ledgerlang/example.ledger",
        "docs/languages.md",
        "README.md",
    }
    assert "| Ledger | `ledgerlang` | `.ledger` |" in (checkout / "docs" / "languages.md").read_text()


def test_code_summarises_and_slices_the_new_language(checkout: Path) -> None:
    summary = _sf(checkout, "code", "Ledger.ledger")
    document = summary["files"][0]  # type: ignore[index]
    assert document["lang"] == "ledgerlang"
    assert document["namespace"] == "demo"
    assert [f["name"] for f in document["functions"]] == ["add", "balance"]
    sliced = subprocess.run(
        [sys.executable, "-m", "sofia", "code", "Ledger.ledger", "Ledger.add"],
        capture_output=True, text=True, check=True, cwd=checkout / "work",
        env={**os.environ, "PYTHONPATH": str(checkout), "SOFIA_CODE_RAW_BELOW": "0"},
    ).stdout  # fmt: skip
    assert "/** Adds to the total. */" in sliced and "total += amount" in sliced
    assert "balance" not in sliced


def test_grep_names_the_enclosing_symbol(checkout: Path) -> None:
    result = _sf(checkout, "grep", "return total")
    hits = result["patterns"][0]["hits"]["Ledger.ledger"]  # type: ignore[index]
    assert [hit["symbol"] for hit in hits] == ["Ledger.balance"]


def test_refs_finds_the_definition_and_classifies_the_uses(checkout: Path) -> None:
    result = _sf(checkout, "refs", "add")
    symbol = result["symbols"][0]  # type: ignore[index]
    assert [d["qname"] for d in symbol["definitions"]] == ["Ledger.add"]
    assert symbol["totals"]["in_comments"] == 1
    assert symbol["kinds"] == {"call": 1}
