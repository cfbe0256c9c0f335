"""Parsing only the parts of a file that hold a name: refs classifies a name's occurrences, and in
a language whose file-level declarations can be told apart by their text the rest of a large file
need not be parsed (`Spec.regions`; docs/adding-a-language.md).

C is such a language: a function, struct or initialiser at file level ends with a `}` in column 0,
so the lines between two such braces are whole declarations. An occurrence is classified on a
tree of the declarations around it (with the file's own offsets), which tells a call, a type, a
local and a comment apart exactly as the whole file's tree does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

WORTH = 0.6
"""Regions are parsed instead of the file only when they hold less than this share of it."""


def column_zero_braces(source: bytes, positions: Sequence[int]) -> list[tuple[int, int]]:
    """For each position, the lines from just after the previous column-0 `}` line to the end of
    the next one (the file's start or end where there is none); overlapping regions merged. A
    position on a `}` line is in the declaration that line closes (`} name_t;` names a typedef)."""
    found: list[tuple[int, int]] = []
    for position in sorted(positions):
        if found and found[-1][0] <= position < found[-1][1]:
            continue
        start = _closing_before(source, source.rfind(b"\n", 0, position) + 1)
        end = _closing_after(source, position)
        if found and start <= found[-1][1]:
            found[-1] = (found[-1][0], max(end, found[-1][1]))
        else:
            found.append((start, end))
    return found


def _closing_before(source: bytes, limit: int) -> int:
    """The end of the last column-0 `}` line starting before `limit`, or 0: a line continued by
    a backslash is inside a macro's definition, not the end of a file-level one."""
    while True:
        before = source.rfind(b"\n}", 0, limit)
        if before < 0:
            return 0
        end = _line_end(source, before + 1)
        if not _continued(source, end):
            return end
        limit = before + 1


def _closing_after(source: bytes, position: int) -> int:
    """The end of the first column-0 `}` line after `position` not continued, or the file's end."""
    while True:
        after = source.find(b"\n}", position)
        if after < 0:
            return len(source)
        end = _line_end(source, after + 1)
        if not _continued(source, end):
            return end
        position = end


def _continued(source: bytes, line_end: int) -> bool:
    return source[max(0, line_end - 3) : line_end].rstrip(b"\r\n").endswith(b"\\")


def prepared(source: bytes, spans: Sequence[tuple[int, int]], prepare: Callable[[bytes], bytes]) -> bytes:
    """`source` with only the bytes of `spans` passed through the language's `prepare` (which
    keeps lengths): the rest is not parsed, and preparing a whole file costs a third of its parse."""
    out = bytearray(source)
    for start, end in spans:
        out[start:end] = prepare(source[start:end])
    return bytes(out)


def _line_end(source: bytes, index: int) -> int:
    newline = source.find(b"\n", index)
    return len(source) if newline < 0 else newline + 1


def ranges(source: bytes, spans: Sequence[tuple[int, int]]) -> list[Any] | None:
    """tree-sitter included ranges for `spans`, or None when they are not worth it (the whole
    file would be parsed about as fast)."""
    from tree_sitter import Range

    if not spans or sum(end - start for start, end in spans) > WORTH * len(source):
        return None
    found = []
    for start, end in spans:
        found.append(Range(_point(source, start), _point(source, end), start, end))
    return found


def _point(source: bytes, offset: int) -> Any:
    from tree_sitter import Point

    row = source.count(b"\n", 0, offset)
    column = offset - (source.rfind(b"\n", 0, offset) + 1)
    return Point(row, column)
