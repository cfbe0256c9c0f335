"""Enclosing symbols of hits: each file with shown hits is parsed once through `sofia.syntax`."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sofia.syntax import SymbolTree

TICK_EVERY = 16
"""Files parsed between two progress reports."""
NOT_PARSED = "?"
"""The symbol of a hit in a file without a tree (unsupported language, too large, timed out)."""


class Symbols:
    """Parsed trees of the files seen so far, keyed by raw path; a file is never parsed twice."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.trees: dict[bytes, SymbolTree | None] = {}

    def load(self, files: Iterable[bytes], tick: Callable[[int, int], None]) -> None:
        """Parse every file of `files` not parsed yet; `tick(done, total)` reports progress."""
        from sofia.syntax import MAX_PARSE_BYTES, language_for, parse_file

        todo = [f for f in dict.fromkeys(files) if f not in self.trees]
        for done, raw in enumerate(todo, 1):
            path = self.cwd / os.fsdecode(raw)
            tree = None
            if language_for(path) is not None:
                try:
                    small = path.stat().st_size <= MAX_PARSE_BYTES
                except OSError:
                    small = False
                tree = parse_file(path) if small else None
            self.trees[raw] = tree
            if done % TICK_EVERY == 0 or done == len(todo):
                tick(done, len(todo))

    def enclosing(self, raw: bytes, line: int) -> str:
        """The qualified name of the innermost symbol holding `line`; "" outside every symbol."""
        tree = self.trees.get(raw)
        if tree is None:
            return NOT_PARSED
        symbol = tree.enclosing(line)
        return symbol.qname if symbol is not None else ""
