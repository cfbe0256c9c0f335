"""Table helpers shared by providers: rows are flat dicts with the same keys in the same order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def elide(rows: Sequence[Mapping[str, Any]], defaults: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Drop each column of `defaults` from every row when every row holds that column's default.

    Elision is per table, never per row, so TOON can still render one header for all rows.
    """
    drop = {
        column
        for column, default in defaults.items()
        if all(row.get(column, default) == default for row in rows)
    }
    return [{k: v for k, v in row.items() if k not in drop} for row in rows]


def cut(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, the last one replaced by `…` when cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"
