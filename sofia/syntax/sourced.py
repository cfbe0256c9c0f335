"""A time-boxed parse whose tree also holds its source bytes.

A tree parsed through a read callback (the only form whose parse can be aborted) answers
`node.text` by calling that callback again, one 64 KiB chunk per node: tens of microseconds per
name read. Re-parsing the same bytes with the first tree as the old tree costs next to nothing
(every node is reused) and yields a tree that slices `node.text` straight from the bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sofia.syntax.grammars import language, parse_bytes


def parse_sourced(source: bytes, grammar: str, ranges: Sequence[Any] | None = None) -> Any:
    """`grammars.parse_bytes` (same limits and errors), returning a tree backed by `source`."""
    from tree_sitter import Parser

    timed = parse_bytes(source, grammar, ranges=ranges)
    parser = Parser(language(grammar))
    parser.included_ranges = list(timed.included_ranges)
    return parser.parse(source, old_tree=timed)
