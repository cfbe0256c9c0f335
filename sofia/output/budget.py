"""Fitting results into the output budget, deterministically, with exact counts of what was left out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sofia.output.jsonfmt import compact
from sofia.output.tokens import estimate

MARGIN = 300
"""Tokens kept free for notes and totals when units are added one by one."""


def cost(obj: Any) -> int:
    """Estimated tokens of the compact JSON encoding of `obj` (what an MCP client receives)."""
    return estimate(compact(obj))


def fits(obj: Any, budget: int | None) -> bool:
    return budget is None or cost(obj) <= budget


def largest_prefix(count: int, fits_with: Callable[[int], bool]) -> int:
    """The largest `k` in `0..count` for which `fits_with(k)` holds, assuming it holds for all smaller k.

    Binary search, so a list of 10,000 rows needs about 14 encodings.
    """
    if fits_with(count):
        return count
    low, high = 0, count  # fits_with(low) assumed, fits_with(high) false
    while high - low > 1:
        mid = (low + high) // 2
        if fits_with(mid):
            low = mid
        else:
            high = mid
    return low


def note(what: str, shown: int, total: int, unit: str, budget: int | None, hint: str) -> str:
    """The one-line truncation note: `<what>: showing X of Y <unit> (budget N tok); <hint>`."""
    return f"{what}: showing {shown} of {total} {unit} (budget {budget} tok); {hint}"


def cut_text_to_lines(text: str, max_tokens: int) -> tuple[str, int]:
    """The longest prefix of `text` ending at a line boundary that estimates within `max_tokens`.

    Returns the prefix and the number of whole lines it keeps.
    """
    if estimate(text) <= max_tokens:
        return text, text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    lines = text.splitlines(keepends=True)
    prefix_cost = [0]
    running_ascii = 0
    running_other = 0
    for line in lines:
        ascii_count = len(line.encode("ascii", "ignore")) if not line.isascii() else len(line)
        running_ascii += ascii_count
        running_other += len(line) - ascii_count
        prefix_cost.append((running_ascii + 2) // 4 + running_other)
    keep = largest_prefix(len(lines), lambda k: prefix_cost[k] <= max_tokens)
    return "".join(lines[:keep]), keep
