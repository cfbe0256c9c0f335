"""Shaping the grep result (spec tools-code §2.4, §2.6): hits tables with exact totals, `more_in`,
`empty`, `skipped` and notes; the cap applies first, then the largest uniform per-pattern count k
that fits the budget."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sofia.errors import param
from sofia.providers.grep.matches import Hit
from sofia.providers.grep.ripgrep import display_path

if TYPE_CHECKING:
    from sofia.providers.grep.request import Request

MORE_IN_ROWS = 10
SKIPPED_ROWS = 20
NARROW = f"narrow with {param('exts')}, {param('root')} or {param('word', True)}"

Enclosing = Callable[[bytes, int], str]
"""(raw path, line) -> qualified name of the enclosing symbol."""


@dataclass
class Outcome:
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
    """Builds the result for a shown count k and finds the k that fits the budget."""

    def __init__(
        self, request: Request, outcomes: Sequence[Outcome], skipped: dict[str, str], budget: int | None
    ) -> None:
        self.request = request
        self.outcomes = outcomes
        self.skipped = sorted(skipped.items(), key=lambda item: item[0].encode("utf-8", "replace"))
        self.budget = budget
        self.top = max((len(o.hits) for o in outcomes), default=0)
        self.unseen = [self._unseen(o) for o in outcomes]

    @staticmethod
    def _unseen(outcome: Outcome) -> _Unseen:
        read = {hit.path for hit in outcome.hits}
        rest = [(-n, path) for path, n in outcome.counts.items() if path not in read]
        return _Unseen(heapq.nsmallest(MORE_IN_ROWS, rest), len(rest))

    def fit(self, parse: Callable[[Sequence[bytes]], None], enclosing: Enclosing) -> dict[str, Any]:
        """The cap's result if it fits the budget, else the largest uniform k that does.

        Symbols are looked up only for files whose hits can be shown: k is first bounded with
        empty symbols (a lower bound of every row's cost), then found with the real ones.
        """
        if self.budget is None:
            parse(self._files_shown(self.top))
            return self.build(self.top, enclosing)
        from sofia.output.budget import fits, largest_prefix

        budget = self.budget
        bound = largest_prefix(self.top, lambda k: fits(self.build(k, _blank), budget))
        parse(self._files_shown(bound))
        k = largest_prefix(bound, lambda k: fits(self.build(k, enclosing), budget))
        result = self.build(k, enclosing)
        if fits(result, budget):
            return result
        rows = largest_prefix(MORE_IN_ROWS, lambda m: fits(self.build(k, enclosing, m), budget))
        return self.build(k, enclosing, rows)

    def _files_shown(self, k: int) -> list[bytes]:
        return list(dict.fromkeys(hit.path for o in self.outcomes for hit in o.hits[:k]))

    def build(self, k: int, enclosing: Enclosing, more_rows: int = MORE_IN_ROWS) -> dict[str, Any]:
        """The whole result showing at most k hits per pattern and `more_rows` more_in rows."""
        patterns: list[dict[str, Any]] = []
        empty: list[str] = []
        notes = [f"duplicate patterns dropped: {', '.join(self.request.duplicates)}"] * bool(
            self.request.duplicates
        )
        budget_cut = False
        for outcome, unseen in zip(self.outcomes, self.unseen, strict=True):
            total = outcome.total
            if total == 0:
                empty.append(outcome.pattern)
                continue
            shown = min(len(outcome.hits), k)
            hits = outcome.hits[:shown]
            entry: dict[str, Any] = {
                "pattern": outcome.pattern,
                "total": total,
                "files": len(outcome.counts),
                "shown": shown,
                "hits": _by_file(hits, outcome.texts[:shown], enclosing),
            }
            more, more_files = _more_in(outcome, shown, unseen, more_rows)
            if more:
                entry["more_in"] = more
            patterns.append(entry)
            if shown < total:
                wanted = min(total, self.request.cap) if self.request.cap else total
                cut_by_budget = shown < wanted and (shown < len(outcome.hits) or not self.request.cap)
                budget_cut = budget_cut or cut_by_budget
                listed = "" if len(more) == more_files else f" ({len(more)} of {more_files} files listed)"
                hint = NARROW if cut_by_budget else f"{NARROW}, or raise {param('max_per_pattern')}"
                notes.append(
                    f"{outcome.pattern}: showing {shown} of {total} hits; the rest are in more_in{listed}; {hint}"
                )
        if budget_cut:
            notes.append(
                f"grep: showing {k} per pattern (budget {self.budget} tok); "
                f"narrow with {param('exts')}, {param('root')}, {param('ignore_dirs')} or fewer patterns"
            )
        result: dict[str, Any] = {"root": self.request.root_display, "patterns": patterns, "empty": empty}
        if self.skipped:
            result["skipped"] = [
                {"path": path, "reason": reason} for path, reason in self.skipped[:SKIPPED_ROWS]
            ]
            count = len(self.skipped)
            if count > SKIPPED_ROWS:
                notes.append(
                    f"skipped: showing {SKIPPED_ROWS} of {count} files; their matches are not counted"
                )
            else:
                notes.append(f"{count} file{'s' * (count != 1)} skipped; their matches are not counted")
        result["notes"] = notes
        return result


def _by_file(
    hits: Sequence[Hit], texts: Sequence[str], enclosing: Enclosing
) -> dict[str, list[dict[str, Any]]]:
    """Hits grouped under their file, files in path order: a path is written once, not per hit."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for hit, text in zip(hits, texts, strict=True):
        row = {"line": hit.line, "col": hit.col, "symbol": enclosing(hit.path, hit.line), "text": text}
        grouped.setdefault(display_path(hit.path), []).append(row)
    return grouped


def _blank(path: bytes, line: int) -> str:
    return ""


def _more_in(outcome: Outcome, shown: int, unseen: _Unseen, rows: int) -> tuple[list[dict[str, Any]], int]:
    """Files with hits not shown, largest unseen count first, then path; and how many there are."""
    seen = Counter(hit.path for hit in outcome.hits[:shown])
    read = {hit.path for hit in outcome.hits}
    partly = [
        (-(outcome.counts[path] - seen[path]), path) for path in read if outcome.counts[path] > seen[path]
    ]
    top = heapq.nsmallest(rows, [*unseen.top, *partly])
    return [{"file": display_path(path), "hits": -negative} for negative, path in top], unseen.files + len(
        partly
    )
