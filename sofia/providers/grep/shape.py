"""Shaping the grep result (docs/grep.md): hits tables with exact totals, `more_in`, `empty`,
`skipped` and notes; the cap applies first, then the largest uniform per-pattern count k that
fits the budget, then fewer `more_in` rows. Whatever is not shown is counted in the one
`omitted` shape (sofia/output/budget.py): `hits` for hits not shown, for any reason, and
`skipped` for skipped files not listed."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sofia.errors import param
from sofia.output import budget as budgets
from sofia.output.grouped import by_file
from sofia.providers.grep.matches import Hit
from sofia.providers.grep.ripgrep import display_path
from sofia.runtime import skips
from sofia.runtime.skips import Skips

if TYPE_CHECKING:
    from sofia.providers.grep.request import Request

MORE_IN_ROWS = 10
HITS_SHOWN = "hits_per_pattern"
"""The budget's first knob: hits shown per pattern (the same for every pattern)."""
MORE_IN_SHOWN = "more_in_rows"
"""Its second: the `more_in` rows (files with hits not shown) listed per pattern."""
SKIPPED_ROWS = 20
NARROW = f"narrow with {param('exts')}, {param('root')} or {param('word', True)}"
NARROW_WORDS = f"narrow with {param('exts')} or {param('root')}"
"""NARROW for a call that already matches whole words: a note never suggests what the call did."""
NARROW_BUDGET = f"narrow with {param('exts')}, {param('root')}, {param('ignore_dirs')} or fewer patterns"
WHERE = "more_in names the files holding the most of the rest"

Enclosing = Callable[[bytes, int], str]
"""(raw path, line) -> qualified name of the enclosing symbol."""
Show = Callable[[bytes], str]
"""raw path -> the path as printed (relative to the workspace)."""


@dataclass
class PatternResult:
    """One pattern after the search: counts of the files that were searched, the first hits in order."""

    pattern: str
    counts: dict[bytes, int]
    hits: list[Hit]
    texts: list[str]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class _Unseen:
    """The largest unseen counts among files without read hits (they never change with k)."""

    top: list[tuple[int, bytes]]
    files: int


class Shaper:
    """Builds the result for a shown count k (and `more_in` rows) and fits it to the budget."""

    def __init__(
        self,
        request: Request,
        results: Sequence[PatternResult],
        skipped: dict[str, str],
        budget: int | None,
        defaults: Skips | None = None,
    ) -> None:
        self.request = request
        self.results = results
        self.skipped = sorted(skipped.items(), key=lambda item: item[0].encode("utf-8", "replace"))
        self.budget = budget
        left_out = defaults or Skips()
        self.default_notes = skips.notes(
            Skips(left_out.dirs, left_out.binary - skipped.keys()), request.shown, "root"
        )
        self.top = max((len(r.hits) for r in results), default=0)
        self.unseen = [self._unseen(r) for r in results]

    def show(self, raw: bytes) -> str:
        return self.request.shown(display_path(raw))

    @staticmethod
    def _unseen(result: PatternResult) -> _Unseen:
        read = {hit.path for hit in result.hits}
        rest = [(-n, path) for path, n in result.counts.items() if path not in read]
        return _Unseen(heapq.nsmallest(MORE_IN_ROWS, rest), len(rest))

    def fit(self, parse: Callable[[Sequence[bytes]], None], enclosing: Enclosing) -> dict[str, Any]:
        """The cap's result if it fits the budget, else the largest uniform k that does, then
        fewer `more_in` rows; past that, the floor note.

        Symbols are looked up only for files whose hits can be shown: k is first bounded with
        empty symbols (a lower bound of every row's cost), then found with the real ones.
        """
        knobs = {HITS_SHOWN: self.top, MORE_IN_SHOWN: MORE_IN_ROWS}
        if self.budget is None:
            parse(self._files_shown(self.top))
            return self.build(knobs, enclosing)
        limit = self.budget
        knobs[HITS_SHOWN] = budgets.largest_prefix(
            self.top,
            lambda k: budgets.fits(self.build({HITS_SHOWN: k, MORE_IN_SHOWN: MORE_IN_ROWS}, _blank), limit),
        )
        parse(self._files_shown(knobs[HITS_SHOWN]))
        ladder = [budgets.Shrink(HITS_SHOWN), budgets.Shrink(MORE_IN_SHOWN)]
        return budgets.fit(lambda trial: self.build(trial, enclosing), knobs, ladder, limit)

    def _files_shown(self, k: int) -> list[bytes]:
        return list(dict.fromkeys(hit.path for r in self.results for hit in r.hits[:k]))

    def build(self, knobs: budgets.Knobs, enclosing: Enclosing) -> dict[str, Any]:
        """The whole result showing at most `k` hits per pattern and `more` more_in rows."""
        notes = [f"duplicate patterns dropped: {', '.join(self.request.duplicates)}"] * bool(
            self.request.duplicates
        )
        patterns, empty, tally = self._patterns(knobs[HITS_SHOWN], knobs[MORE_IN_SHOWN], enclosing)
        notes += self._cut_notes(tally, knobs[MORE_IN_SHOWN])
        result: dict[str, Any] = {"root": self.request.root_display, "patterns": patterns, "empty": empty}
        notes += self._skipped_part(result)
        result["notes"] = [*notes, *self.default_notes]
        omitted = {"hits": tally.total - tally.shown, "skipped": len(self.skipped) - SKIPPED_ROWS}
        return budgets.with_omitted(result, omitted)

    def _patterns(
        self, k: int, more_rows: int, enclosing: Enclosing
    ) -> tuple[list[dict[str, Any]], list[str], _Tally]:
        """Each pattern's entry showing at most `k` hits, the patterns that matched nothing, and
        what was cut and why."""
        cap = self.request.cap
        patterns: list[dict[str, Any]] = []
        empty: list[str] = []
        tally = _Tally()
        for found, unseen in zip(self.results, self.unseen, strict=True):
            total = found.total
            if total == 0:
                empty.append(found.pattern)
                continue
            shown = min(len(found.hits), k)
            hits = found.hits[:shown]
            entry: dict[str, Any] = {
                "pattern": found.pattern,
                "total": total,
                "files": len(found.counts),
                "shown": shown,
                "hits": _by_file(hits, found.texts[:shown], enclosing, self.show),
            }
            more, more_files = _more_in(found, shown, unseen, more_rows, self.show)
            if more:
                entry["more_in"] = more
            patterns.append(entry)
            tally.shown += shown
            tally.total += total
            if shown < total:
                wanted = min(total, cap) if cap else total
                tally.by_cap = tally.by_cap or wanted < total
                tally.by_budget = tally.by_budget or (shown < wanted and (shown < len(found.hits) or not cap))
                tally.more_cut = tally.more_cut or (
                    more_rows < MORE_IN_ROWS and len(more) < min(more_files, MORE_IN_ROWS)
                )
        return patterns, empty, tally

    def _cut_notes(self, tally: _Tally, more_rows: int) -> list[str]:
        """The note for hits not shown (by the cap, the budget, or files changing while searched)
        and the one for `more_in` rows the budget cut."""
        notes: list[str] = []
        if tally.shown < tally.total:
            cap = self.request.cap
            limit = param("max_per_pattern", cap) if tally.by_cap else ""
            hint = f"{WHERE}; " + (
                NARROW_BUDGET
                if tally.by_budget
                else f"{NARROW_WORDS if self.request.word else NARROW}, or raise {param('max_per_pattern')}"
            )
            if not tally.by_cap and not tally.by_budget:
                limit = "files changed while searching"
            cut = self.budget if tally.by_budget else None
            notes.append(budgets.note("hits", tally.shown, tally.total, "hits", cut, hint, limit=limit))
        if tally.more_cut:
            change = f"cut to {more_rows} files per pattern"
            notes.append(budgets.shortened_note("more_in", change, self.budget, NARROW_BUDGET))
        return notes

    def _skipped_part(self, result: dict[str, Any]) -> list[str]:
        """`skipped` (the first files not searched, with why) set in `result`, and its note."""
        count = len(self.skipped)
        if not count:
            return []
        result["skipped"] = [
            {"path": self.request.shown(path), "reason": reason}
            for path, reason in self.skipped[:SKIPPED_ROWS]
        ]
        if count <= SKIPPED_ROWS:
            return [f"{count} file{'s' * (count != 1)} skipped; their matches are not counted"]
        return [
            budgets.note(
                "skipped",
                SKIPPED_ROWS,
                count,
                "files",
                None,
                "their matches are not counted",
                limit=f"first {SKIPPED_ROWS}",
            )
        ]


@dataclass
class _Tally:
    """Hits shown and found over all patterns, and what shortened the lists."""

    shown: int = 0
    total: int = 0
    by_cap: bool = False
    by_budget: bool = False
    more_cut: bool = False


def _by_file(
    hits: Sequence[Hit], texts: Sequence[str], enclosing: Enclosing, show: Show
) -> dict[str, list[dict[str, Any]]]:
    """Hits grouped under their file, files in path order: a path is written once, not per hit."""
    return by_file(
        (
            show(hit.path),
            {"line": hit.line, "col": hit.col, "symbol": enclosing(hit.path, hit.line), "text": text},
        )
        for hit, text in zip(hits, texts, strict=True)
    )


def _blank(path: bytes, line: int) -> str:
    return ""


def _more_in(
    result: PatternResult, shown: int, unseen: _Unseen, rows: int, show: Show
) -> tuple[list[dict[str, Any]], int]:
    """Files with hits not shown, largest unseen count first, then path; and how many there are."""
    seen = Counter(hit.path for hit in result.hits[:shown])
    read = {hit.path for hit in result.hits}
    partly = [
        (-(result.counts[path] - seen[path]), path) for path in read if result.counts[path] > seen[path]
    ]
    top = heapq.nsmallest(rows, [*unseen.top, *partly])
    return [{"file": show(path), "hits": -negative} for negative, path in top], unseen.files + len(partly)
