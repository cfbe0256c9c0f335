"""rg is the matching authority: the (file, line, col) set of every search equals `rg --vimgrep`
with the same options, on a generated tree and on real public code (the interpreter's stdlib)."""

from __future__ import annotations

import sysconfig
from pathlib import Path
from typing import Any

import pytest

from tests.grep.conftest import every_hit, locations, rows, vimgrep

CASES: list[tuple[str, dict[str, Any]]] = [
    ("TOKEN", {}),
    ("token", {"case": False}),
    ("TOKEN", {"word": True}),
    ("технолог", {"word": True}),
    ("технолог", {}),
    (r"TOKEN_?\d+", {"regex": True}),
    (r"(?i)token\w*", {"regex": True, "word": True}),
    ("Token", {"case": False, "exts": ["php", ".TS"]}),
    ("TOKEN", {"ignore_dirs": ["generated", "docs"]}),
    ("->save();", {"exts": ["php"], "ignore_dirs": ["tests"]}),
]


@pytest.mark.parametrize(("pattern", "options"), CASES, ids=[f"{p}-{sorted(o)}" for p, o in CASES])
def test_generated_tree_matches_rg(generated_tree: Path, pattern: str, options: dict[str, Any]) -> None:
    entry = every_hit(generated_tree, pattern, **options)
    expected = vimgrep(generated_tree, pattern, **options)
    assert expected, "the generated tree must hold hits for every case"
    assert locations(entry) == expected
    assert entry["total"] == len(expected) == len(rows(entry))
    assert entry["files"] == len({file for file, _, _ in expected})


def test_generated_tree_leaves_out_ignored_places(generated_tree: Path) -> None:
    files = {hit[0] for hit in locations(every_hit(generated_tree, "TOKEN"))}
    assert ".env" in files and "no-newline.txt" in files
    assert any(f.startswith(".github/") for f in files)
    for ignored in ("node_modules/", "vendor/", "dist/", "logs/", "scratch.tmp"):
        assert not any(ignored in f for f in files), ignored


STDLIB = Path(sysconfig.get_paths()["stdlib"])
STDLIB_CASES: list[tuple[str, dict[str, Any]]] = [
    ("ValueError(", {"root": "email", "exts": ["py"]}),
    ("valueerror", {"case": False, "root": "json"}),
    ("self", {"word": True, "root": "json"}),
    (r"def \w+_\w+\(", {"regex": True, "root": "unittest", "ignore_dirs": ["test"]}),
    ("SIGKILL", {"regex": True, "word": True, "case": False}),
    ("getpreferredencoding", {}),
]


@pytest.mark.parametrize(("pattern", "options"), STDLIB_CASES, ids=[p for p, _ in STDLIB_CASES])
def test_stdlib_matches_rg(pattern: str, options: dict[str, Any]) -> None:
    entry = every_hit(STDLIB, pattern, **options)
    expected = vimgrep(STDLIB, pattern, **options)
    assert len(expected) > 10
    assert locations(entry) == expected
    assert entry["total"] == len(expected)
