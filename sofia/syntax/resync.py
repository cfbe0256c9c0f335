"""Reading on past a region the grammar could not parse.

tree-sitter's recovery sometimes gives up for the rest of a file: C's preprocessor puts `#ifdef`
inside an expression or a loop macro before a block (`} while_each_thread(g, t);`), and one ERROR
node then swallows every function after it. Where a language names the places a file-level
declaration starts again (`Spec.resync`: in C, the line after a `}` in column 0), such a region is
parsed again piece by piece, each piece on its own, with the file's own offsets — so what the
pieces declare is read as if the region had parsed.
"""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

from sofia.syntax.grammars import PARSE_TIMEOUT, parser_for
from sofia.syntax.tree import Node

MAX_PIECES = 2000
"""Pieces parsed per file at most (each is a parse of its own)."""


def regions(root: Node, suspects: frozenset[str] = frozenset()) -> list[Node]:
    """The file-level ERROR nodes (the root itself when the whole file is one), and the
    file-level nodes of the `suspects` types (checked for a boundary inside by the caller)."""
    if root.type == "ERROR":
        return [root]
    return [child for child in root.children if child.type == "ERROR" or child.type in suspects]


def pieces(
    source: bytes,
    grammar: str,
    root: Node,
    boundary: re.Pattern[bytes],
    suspects: frozenset[str] = frozenset(),
) -> tuple[list[tuple[int, int]], list[Any]]:
    """(the byte ranges parsed again, their trees): every file-level ERROR region (or node of a
    `suspects` type) holding a `boundary` before its end is cut there and each piece parsed
    alone. The pieces hold no more bytes than the file, whose parse ended in time; past
    PARSE_TIMEOUT no further piece is parsed."""
    from tree_sitter import Range

    spans: list[tuple[int, int]] = []
    trees: list[Any] = []
    deadline = time.monotonic() + PARSE_TIMEOUT
    parser = parser_for(grammar)
    point = _Points(source)
    try:
        for region in regions(root, suspects):
            start, end = region.start_byte, region.end_byte
            cuts = [m.end() for m in boundary.finditer(source, start, end) if start < m.end() < end]
            if not cuts:
                continue
            spans.append((start, end))
            for low, high in itertools.pairwise([start, *cuts, end]):
                if len(trees) >= MAX_PIECES or time.monotonic() > deadline:
                    return spans, trees
                if source[low:high].strip():
                    parser.included_ranges = [Range(point(low), point(high), low, high)]
                    trees.append(parser.parse(source))
    finally:
        parser.included_ranges = []
    return spans, trees


def within(node: Node, spans: list[tuple[int, int]]) -> bool:
    """Whether `node` lies inside one of the ranges parsed again."""
    return any(low <= node.start_byte and node.end_byte <= high for low, high in spans)


class _Points:
    """tree-sitter's (row, column) of byte offsets asked for mostly in ascending order: the
    newlines are counted on from the offset asked last, not from the file's start (counting
    from the start made the 870 points of the kernel's sched/core.c cost 180 ms)."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.offset = 0
        self.row = 0

    def __call__(self, offset: int) -> Any:
        from tree_sitter import Point

        if offset < self.offset:
            self.offset = self.row = 0
        self.row += self.source.count(b"\n", self.offset, offset)
        self.offset = offset
        column = offset - (self.source.rfind(b"\n", 0, offset) + 1)
        return Point(self.row, column)
