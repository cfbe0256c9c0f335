"""Re-parsing a region piece by piece gives each piece tree-sitter's (row, column) of its byte
offsets; those are counted on from the last one asked, and must equal a count from the start."""

from __future__ import annotations

import random

from sofia.syntax.resync import _Points


def test_points_counted_on_equal_points_counted_from_the_start() -> None:
    generator = random.Random(7)
    source = b"".join(b"x" * generator.randrange(0, 40) + b"\n" for _ in range(500)) + b"tail"
    offsets = sorted(generator.randrange(0, len(source) + 1) for _ in range(300))
    offsets += [0, len(source), 5, len(source) // 2]  # and back again: counting restarts
    point = _Points(source)
    for offset in offsets:
        row = source.count(b"\n", 0, offset)
        column = offset - (source.rfind(b"\n", 0, offset) + 1)
        assert tuple(point(offset)) == (row, column), offset
