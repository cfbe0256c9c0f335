"""The budget step every GitHub result ends its ladder with: keep the largest prefix of a row list
that fits, count what was left out in `omitted` and say so in one note."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Rows = list[dict[str, Any]]


def keep_prefix(
    rows: Rows,
    name: str,
    unit: str,
    notes: list[str],
    omitted: dict[str, int],
    budget: int | None,
    hint: str,
    document: Callable[[Rows], dict[str, Any]],
) -> Rows:
    """The largest prefix of `rows` whose `document(prefix)` fits; `notes` and `omitted` updated.

    `document` must read `notes` and `omitted` when called, so the note's own size is counted.
    """
    from sofia.output import budget as fit

    if fit.fits(document(rows), budget):
        return rows
    total = len(rows)
    notes.append(fit.note(name, total, total, unit, budget, hint))
    omitted[name] = total
    keep = fit.largest_prefix(total, lambda k: fit.fits(document(rows[:k]), budget))
    notes[-1] = fit.note(name, keep, total, unit, budget, hint)
    omitted[name] = total - keep
    return rows[:keep]
