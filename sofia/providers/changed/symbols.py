"""Which symbols a file's hunks touch: tree-sitter symbols of the old and new contents intersected
with the hunk ranges, and git's funcname context for languages sofia cannot parse.

The funcname fallback is kept to source-like files: for docs, build and config files and files
without an extension (PKG-INFO, LICENSE) git's default heuristic picks arbitrary lines, which
would be noise, not symbols."""

from __future__ import annotations

from pathlib import Path

from sofia.output.tables import cut
from sofia.providers.contract import Context

from . import classify, gitdiff

MAX_SIDE_BYTES = 1 << 20
"""Sides larger than this are not parsed for symbols."""


def funcname_applies(path: str) -> bool:
    """Whether git's funcname context is worth reporting for `path` (see the module docstring)."""
    if classify.category(path) in ("docs", "build", "config"):
        return False
    return "." in path.rsplit("/", 1)[-1].lstrip(".")


class SymbolFinder:
    """Touched symbols for the entries of one diff; blob contents are fetched in one batch."""

    def __init__(
        self,
        top: Path,
        sides: gitdiff.Sides,
        entries: list[gitdiff.Entry],
        by_new: dict[str, gitdiff.Hunks],
        by_old: dict[str, gitdiff.Hunks],
        ctx: Context,
    ) -> None:
        from sofia.syntax import language_for

        self.top = top
        self.sides = sides
        self.by_new = by_new
        self.by_old = by_old
        self.ctx = ctx
        self.parsable = {e.path for e in entries if language_for(e.path) is not None}
        wanted = []
        for entry in entries:
            if entry.path not in self.parsable:
                continue
            if entry.old_sha:
                wanted.append(entry.old_sha)
            if entry.new_sha and (sides.new is not None or sides.index):
                wanted.append(entry.new_sha)
        self.blobs = gitdiff.blob_sizes_and_contents(top, wanted, MAX_SIDE_BYTES, ctx) if wanted else {}

    def _new_content(self, entry: gitdiff.Entry) -> bytes | None:
        if entry.status == "D":
            return None
        if self.sides.new is not None or self.sides.index:
            return self.blobs.get(entry.new_sha) if entry.new_sha else None
        path = self.top / entry.path
        try:
            if path.stat().st_size > MAX_SIDE_BYTES:
                return None
            return path.read_bytes()
        except OSError:
            return None

    def for_entry(self, entry: gitdiff.Entry) -> list[str]:
        """Touched symbol names for `entry`, syntax first, funcname as the fallback."""
        new_hunks = self.by_new.get(entry.path, gitdiff.Hunks())
        old_hunks = self.by_old.get(entry.old_path or entry.path, gitdiff.Hunks())
        if entry.path in self.parsable:
            from sofia.syntax import language_for, touched_symbols

            old = self.blobs.get(entry.old_sha) if entry.old_sha and entry.status != "A" else None
            new = self._new_content(entry)
            if (old is not None or entry.status == "A" or not entry.old_sha) and (
                new is not None or entry.status == "D"
            ):
                lang = language_for(entry.path)
                assert lang is not None
                names = touched_symbols(lang, old, new, old_hunks.old, new_hunks.new, entry.path)
                if names is not None:
                    return names
        if not funcname_applies(entry.path):
            return []
        return [cut(name, 60) for name in (new_hunks.funcnames or old_hunks.funcnames)]

    @staticmethod
    def new_file(name: str, data: bytes) -> list[str]:
        """Symbols of a file that did not exist before: its top-level symbols, each with `+`."""
        from sofia.syntax import language_for, touched_symbols

        lang = language_for(name)
        if lang is None:
            return []
        lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        return touched_symbols(lang, None, data, [], [(1, lines)], name) or []
