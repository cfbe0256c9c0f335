"""A long-lived process keeps classified files between calls: an unchanged file is not parsed
again, a changed, replaced or deleted one is, and the answer is the same either way."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.refs import memo
from sofia.syntax import uses as uses_layer
from tests.refs.conftest import entry, memo_held, refs, uses


def tree(root: Path) -> Path:
    (root / "lib.py").write_text("def target(x):\n    return x\n")
    (root / "a.py").write_text("from lib import target\n\n\ndef f():\n    return target(1)\n")
    (root / "b.py").write_text("from lib import target\n\n\ndef g():\n    return target(2)\n")
    return root


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The sources the classifier parses, in order."""
    seen: list[bytes] = []
    real = uses_layer.syntax_of

    def counting(source: bytes, lang: str, *rest: Any) -> uses_layer.Syntax:
        seen.append(source)
        return real(source, lang, *rest)

    monkeypatch.setattr(uses_layer, "syntax_of", counting)
    return seen


def test_an_unchanged_tree_is_not_parsed_again_and_answers_the_same(
    tmp_path: Path, parses: list[bytes]
) -> None:
    root = tree(tmp_path)
    first = refs(root, "target")
    assert len(parses) == 3
    again = refs(root, "target")
    assert len(parses) == 3
    assert again == first
    assert memo_held()[0] == 3


def test_a_qualified_name_reuses_the_files_of_the_bare_one(tmp_path: Path, parses: list[bytes]) -> None:
    root = tree(tmp_path)
    refs(root, "target")
    item = entry(refs(root, "lib.target"), "lib.target")
    assert len(parses) == 3
    assert item["totals"]["exact"] == 4


def test_an_edited_file_is_classified_again(tmp_path: Path, parses: list[bytes]) -> None:
    root = tree(tmp_path)
    refs(root, "target")
    edited = root / "a.py"
    before = edited.stat()
    edited.write_text("from lib import target\n\n\ndef f():\n    return target(1) + target(3)\n")
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))  # same mtime: size and ctime tell
    item = entry(refs(root, "target"), "target")
    assert parses[-1] == edited.read_bytes()
    assert ("a.py", 5, "call", "exact") in uses(item) and item["totals"]["uses"] == 5


def test_a_replaced_file_of_the_same_size_is_classified_again(tmp_path: Path, parses: list[bytes]) -> None:
    root = tree(tmp_path)
    refs(root, "target")
    replacement = root / "b.tmp"
    replacement.write_text("from lib import target\n\n\ndef g():\n    return target   \n")
    assert replacement.stat().st_size == (root / "b.py").stat().st_size
    replacement.replace(root / "b.py")
    item = entry(refs(root, "target"), "target")
    assert ("b.py", 5, "reference", "exact") in uses(item)
    assert ("b.py", 5, "call", "exact") not in uses(item)


def test_a_deleted_file_is_not_recalled(tmp_path: Path) -> None:
    root = tree(tmp_path)
    refs(root, "target")
    (root / "b.py").unlink()
    item = entry(refs(root, "target"), "target")
    assert {row[0] for row in uses(item)} == {"a.py"}


def test_the_kept_bytes_stay_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tree(tmp_path)
    monkeypatch.setattr(memo, "MAX_BYTES", 600)
    refs(root, "target")
    entries, held = memo_held()
    assert held <= 600 and 0 < entries < 3
