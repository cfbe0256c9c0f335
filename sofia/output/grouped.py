"""Rows grouped under their file, files in the order first met: the JSON form of a tool's rows
that belong to files (grep's hits, refs' uses), so a path is written once, not once per row."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def by_file(rows: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """`{file: [row, ...]}` from `(file, row)` pairs, each file's rows in the pairs' order."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for file, row in rows:
        grouped.setdefault(file, []).append(row)
    return grouped
