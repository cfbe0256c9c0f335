"""Budget ladders for results whose big parts are row lists: drop trailing rows, count them, say so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sofia.output import budget as budgets


def drop_trailing(
    result: dict[str, Any], key: str, budget: int | None, unit: str, hint: str, keep_at_least: int = 0
) -> bool:
    """Keep the largest prefix of `result[key]` that lets `result` fit; True when it fits afterwards.

    Never drops the first `keep_at_least` rows. Counts the dropped rows in `omitted[key]` and adds
    one note saying how to narrow the call.
    """
    if budgets.fits(result, budget):
        return True
    rows: list[Any] = result[key]
    total = len(rows)
    if total <= keep_at_least:
        return False
    before = dict(result["omitted"])

    def shortened(keep: int) -> dict[str, Any]:
        trial = dict(result)
        trial[key] = rows[:keep]
        trial["omitted"] = {**before, key: before.get(key, 0) + total - keep}
        trial["notes"] = [*result["notes"], budgets.note(key, keep, total, unit, budget, hint)]
        return trial

    optional = total - keep_at_least
    extra = budgets.largest_prefix(optional, lambda k: budgets.fits(shortened(keep_at_least + k), budget))
    result.update(shortened(keep_at_least + extra))
    return budgets.fits(result, budget)


def shorten_cells(rows: list[dict[str, Any]], column: str, limit: int, cut: Callable[[str, int], str]) -> int:
    """Cut `column` of every row to `limit` characters in place; returns how many cells were cut."""
    changed = 0
    for row in rows:
        value = row.get(column)
        if isinstance(value, str) and len(value) > limit:
            row[column] = cut(value, limit)
            changed += 1
    return changed


def floor_note(result: dict[str, Any], budget: int | None) -> None:
    """The last resort: the result still does not fit after every step of the ladder."""
    if not budgets.fits(result, budget):
        result["notes"].append(f"output still exceeds the budget of {budget} tokens after every shortening")
