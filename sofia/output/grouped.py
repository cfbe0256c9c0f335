"""Rows grouped under their file, files in the order first met: the JSON form of a tool's rows
that belong to files (grep's hits, refs' uses), so a path is written once, not once per row."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

Item = TypeVar("Item")


def by_file(
    items: Iterable[Item], file_of: Callable[[Item], str], row_of: Callable[[Item], dict[str, Any]]
) -> dict[str, list[dict[str, Any]]]:
    """`{file: [row, ...]}`: each item's row under the file it is in, in the items' order."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        grouped.setdefault(file_of(item), []).append(row_of(item))
    return grouped
