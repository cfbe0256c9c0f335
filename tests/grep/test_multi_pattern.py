"""Several patterns share one walk, and each pattern's totals and hits are still exactly what its
own rg run reports: overlapping patterns, case folding, whole words, regexes, a line matching
several patterns (it counts for each)."""

from __future__ import annotations

import sysconfig
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.grep.ripgrep import Ripgrep
from tests.grep.conftest import WORDS, grep, locations, rows, vimgrep

GROUPS: list[tuple[list[str], dict[str, Any]]] = [
    (["TOKEN", "TOKEN_42", "OKEN", "xTOKEN", "TOKEN_X"], {}),
    (["TOKEN", "TOKEN_42", "OKEN", "xTOKEN"], {"case": False}),
    (["TOKEN", "TOKEN_42", "OKEN", "xTOKEN"], {"word": True}),
    (["token", "Token_42"], {"word": True, "case": False}),
    (["технолог", "технологии", "поиск", "ТЕХНОЛОГ"], {}),
    (["технолог", "технологии", "ТЕХНОЛОГ"], {"word": True, "case": False}),
    ([r"TOKEN_?\d+", r"(?i)token\w*", r"^\s*user", r"fn\d+\(\)", r"\bId\b"], {"regex": True}),
    ([r"TOKEN_?\d+", r"order\w*"], {"regex": True, "word": True, "case": False}),
    (["user", "order", "Id", "_id", "(", "user_id"], {}),
    (WORDS[:10], {}),
    (["Token", "->save();", "cache"], {"case": False, "exts": ["php", ".TS"], "ignore_dirs": ["generated"]}),
]


def one_walk_only(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Ripgrep, pattern: str) -> None:
        raise AssertionError("a multi-pattern search must not walk the tree once per pattern")

    monkeypatch.setattr(Ripgrep, "count", refuse)


def check_each(root: Path, patterns: list[str], options: dict[str, Any]) -> None:
    result = grep(root, *patterns, budget=None, max_per_pattern=0, **options)
    entries = {entry["pattern"]: entry for entry in result["patterns"]}
    for pattern in patterns:
        expected = vimgrep(root, pattern, **options)
        if not expected:
            assert pattern in result["empty"]
            continue
        entry = entries[pattern]
        assert locations(entry) == expected, pattern
        assert entry["total"] == len(expected) == entry["shown"], pattern
        assert entry["files"] == len({file for file, _, _ in expected}), pattern


@pytest.mark.parametrize(("patterns", "options"), GROUPS, ids=[" ".join(p)[:40] for p, _ in GROUPS])
def test_each_pattern_matches_its_own_rg_run(
    generated_tree: Path, patterns: list[str], options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    one_walk_only(monkeypatch)
    check_each(generated_tree, patterns, options)


def test_lines_matching_several_patterns_count_for_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one_walk_only(monkeypatch)
    (tmp_path / "a.txt").write_text("foob foofoo aaaa\nnothing\nfoo\n")
    result = grep(tmp_path, "foo", "oob", "foob", "aa", "aaa", budget=None, max_per_pattern=0)
    totals = {entry["pattern"]: entry["total"] for entry in result["patterns"]}
    assert totals == {"foo": 4, "oob": 1, "foob": 1, "aa": 2, "aaa": 1}
    cols = [(h["line"], h["col"]) for h in rows(result["patterns"][0])]
    assert cols == [(1, 1), (1, 6), (1, 9), (3, 1)]


STDLIB = Path(sysconfig.get_paths()["stdlib"])


@pytest.mark.parametrize(
    ("patterns", "options"),
    [
        (["self", "return", "def ", "import", "elf"], {"root": "json"}),
        (["self", "Self", "SELF"], {"root": "json", "case": False}),
        (["self", "return", "re"], {"root": "json", "word": True}),
        ([r"def \w+\(", r"\bself\.\w+", r"^\s*#"], {"root": "email", "regex": True}),
    ],
)
def test_real_code_matches_separate_rg_runs(
    patterns: list[str], options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    one_walk_only(monkeypatch)
    check_each(STDLIB, patterns, options)


def test_patterns_rg_refuses_together_are_counted_one_by_one(
    generated_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Ripgrep, "walk_all", lambda self, patterns=None: None)
    check_each(generated_tree, ["TOKEN", "OKEN", "token"], {"case": False})


@pytest.mark.parametrize("chunk", [64, 1000])
def test_the_walk_read_in_small_chunks_while_it_runs_loses_nothing(
    generated_tree: Path, tmp_path: Path, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chunks shorter than one message and chunk ends inside a message: every line still counts."""
    from sofia.providers.grep import ripgrep

    monkeypatch.setattr(ripgrep, "STREAM_CHUNK", chunk)
    one_walk_only(monkeypatch)
    for patterns, options in GROUPS[:3]:
        check_each(generated_tree, patterns, options)
    (tmp_path / "long.txt").write_text("x" * 20_000 + " TOKEN " + "y" * 20_000 + "\nTOKEN_42\n")
    (tmp_path / "short.txt").write_text("OKEN\nTOKEN TOKEN\n")
    check_each(tmp_path, ["TOKEN", "OKEN", "TOKEN_42"], {})


def test_a_file_rg_stops_reading_at_a_nul_byte_is_skipped_with_its_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one_walk_only(monkeypatch)
    (tmp_path / "big.dat").write_bytes(b"NEEDLE here OTHER\n" * 200_000 + b"\x00tail NEEDLE\n")
    (tmp_path / "text.txt").write_text("NEEDLE OTHER NEEDLE\n")
    result = grep(tmp_path, "NEEDLE", "OTHER", budget=None, max_per_pattern=0)
    assert result["skipped"] == [{"path": "big.dat", "reason": "binary"}]
    totals = {entry["pattern"]: (entry["total"], entry["files"]) for entry in result["patterns"]}
    assert totals == {"NEEDLE": (2, 1), "OTHER": (1, 1)}
    assert [(h["file"], h["col"]) for h in rows(result["patterns"][0])] == [("text.txt", 1), ("text.txt", 14)]
