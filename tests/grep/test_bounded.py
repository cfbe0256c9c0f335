"""What grep decodes in Python is bounded by what it shows, not by what it counts: the one walk
of several patterns stops after a bounded number of lines, its broadest patterns are counted by rg
alone, and every pattern's totals and hits are still exactly its own rg run's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sofia.providers.grep import combined, engine, ripgrep
from sofia.providers.grep.ripgrep import Ripgrep
from tests.grep.conftest import grep, rows
from tests.grep.test_multi_pattern import GROUPS, check_each

LIMIT = 40
CHUNK = 2048


class Spy:
    """Which patterns got count runs of their own, and the most lines one walk decoded."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.alone: list[str] = []
        self.walks: list[list[str]] = []
        self.most_lines = 0
        count, walk_all, feed = Ripgrep.count, Ripgrep.walk_all, combined.Reader.feed
        spy = self

        def counting(self: Ripgrep, pattern: str) -> Any:
            spy.alone.append(pattern)
            return count(self, pattern)

        def walking(self: Ripgrep, patterns: Any = None) -> Any:
            spy.walks.append(list(patterns or self.request.patterns))
            return walk_all(self, patterns)

        def feeding(self: combined.Reader, complete_lines: bytes) -> None:
            feed(self, complete_lines)
            spy.most_lines = max(spy.most_lines, self.lines)

        monkeypatch.setattr(Ripgrep, "count", counting)
        monkeypatch.setattr(Ripgrep, "walk_all", walking)
        monkeypatch.setattr(combined.Reader, "feed", feeding)
        monkeypatch.setattr(ripgrep, "WALK_LINES", LIMIT)
        monkeypatch.setattr(ripgrep, "STREAM_CHUNK", CHUNK)


def broad_tree(root: Path) -> Path:
    """Every line holds `line`; `RARE` and `SELDOM` are in a few files; `CASE` in mixed case."""
    for index in range(60):
        lines = [f"line {n} of file {index}" for n in range(30)]
        if index % 17 == 0:
            lines[5] += " RARE"
        if index % 23 == 0:
            lines[9] += " SELDOM rare Case"
        (root / f"part{index // 20}").mkdir(exist_ok=True)
        (root / f"part{index // 20}" / f"f{index}.txt").write_text("\n".join(lines) + "\n")
    return root


def test_a_pattern_on_every_line_beside_rare_ones_is_counted_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    root = broad_tree(tmp_path)
    check_each(root, ["line", "RARE", "SELDOM"], {})
    assert spy.alone == ["line"]
    assert spy.walks == [["line", "RARE", "SELDOM"], ["RARE", "SELDOM"]]
    # A stopped walk decodes at most one chunk past the limit (an output line `N:line N of file N`
    # is at least 19 bytes).
    assert spy.most_lines <= LIMIT + CHUNK // 19


def test_broad_patterns_alone_and_without_a_rare_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    root = broad_tree(tmp_path)
    check_each(root, ["line", "of", "file"], {})
    assert sorted(spy.alone) == ["file", "line", "of"]
    check_each(root, ["line", "file", "rare"], {"case": False, "word": True})
    check_each(root, [r"\d+", r"^line", "(?i)rare"], {"regex": True})


def test_shown_hits_and_more_in_are_those_of_a_walk_that_read_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = broad_tree(tmp_path)
    whole = grep(root, "line", "RARE", max_per_pattern=7)
    Spy(monkeypatch)
    bounded = grep(root, "line", "RARE", max_per_pattern=7)
    assert bounded == whole
    (line, rare) = bounded["patterns"]
    assert line["total"] == 60 * 30 and line["shown"] == 7 and len(rows(line)) == 7
    assert rare["total"] == 4 and rare["shown"] == 4


@pytest.mark.parametrize(("patterns", "options"), GROUPS, ids=[" ".join(p)[:40] for p, _ in GROUPS])
def test_every_group_split_at_a_small_limit_matches_separate_rg_runs(
    generated_tree: Path, patterns: list[str], options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    Spy(monkeypatch)
    check_each(generated_tree, patterns, options)


def test_the_patterns_walking_on_together_match_little_of_what_was_read() -> None:
    """The split keeps together only patterns that matched at most a quarter of the lines read,
    and always takes at least the broadest one out."""
    walked = combined.Walked(contents=[b"x\n"] * 100)
    walked.overflow = {"a": 90, "b": 30, "c": 20, "d": 4}
    unused: Any = None
    assert engine._broad(unused, unused, ["a", "b", "c", "d"], walked, unused) == ["a", "b"]
    walked.overflow = {"a": 3, "b": 2}
    assert engine._broad(unused, unused, ["a", "b"], walked, unused) == ["a"]
