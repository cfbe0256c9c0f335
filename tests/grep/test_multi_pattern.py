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


@pytest.mark.parametrize("chunk", [7, 4 << 20])
def test_odd_paths_and_lines_in_the_walk_match_separate_rg_runs(
    tmp_path: Path, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk prints each path once, ended by NUL, and each line as `NUMBER:line`: a path with a
    line end, a colon or digits, empty and CRLF lines, invalid UTF-8 and a line without its end
    still give every pattern its own rg run's hits, also read a few bytes at a time."""
    from sofia.providers.grep import ripgrep

    monkeypatch.setattr(ripgrep, "STREAM_CHUNK", chunk)
    one_walk_only(monkeypatch)
    (tmp_path / "12:34.txt").write_text("beta\n\nalpha\n")
    (tmp_path / "7").mkdir()
    (tmp_path / "7" / "8:9").write_text("alpha: 1:2 beta\n")
    (tmp_path / "crlf.txt").write_bytes(b"alpha\r\n\r\nbeta\r\n")
    (tmp_path / "latin\xe9.txt".encode("latin-1").decode("utf-8", "surrogateescape")).write_bytes(
        b"caf\xe9 alpha\n"
    )
    (tmp_path / "no-end.txt").write_text("beta alpha")
    check_each(tmp_path, ["alpha", "beta", ":"], {})
    check_each(tmp_path, [r"^$", r"^alpha", r"beta$"], {"regex": True})
    before = {pattern: len(vimgrep(tmp_path, pattern)) for pattern in ("alpha", "beta")}
    (tmp_path / "two\nlines.txt").write_text("beta alpha\n")  # a name rg's --vimgrep cannot print
    result = grep(tmp_path, "alpha", "beta", budget=None, max_per_pattern=0)
    for entry, col in zip(result["patterns"], [6, 1], strict=True):
        found = {(h["line"], h["col"], h["text"]) for h in rows(entry) if h["file"] == "two\nlines.txt"}
        assert found == {(1, col, "beta alpha")}
        assert entry["total"] == before[entry["pattern"]] + 1
