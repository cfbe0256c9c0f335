"""Which symbols a file's hunks touch: tree-sitter symbols of the old and new contents intersected
with the hunk ranges, and git's funcname context for languages sofia cannot parse.

Every file in a language sofia names (the row's `lang`) whose touched symbols could not be
computed says why (`Found.problem`), so the result can tell "no symbol touched" from "could not
tell". The funcname fallback is kept to source-like files: for docs, build and config files and
files without an extension (PKG-INFO, LICENSE) git's default heuristic picks arbitrary lines,
which would be noise, not symbols."""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from sofia.output.tables import cut
from sofia.providers.changed import classify, gitdiff
from sofia.providers.contract import Context
from sofia.runtime.files import BINARY_PROBE, looks_binary

MAX_SIDE_BYTES = 1 << 20
"""Sides larger than this are not parsed for symbols."""
READ_BLOCK = 1 << 16

PROBLEMS = {
    "binary": "symbols not computed: binary content",
    "too_large": f"symbols not computed: a side over {MAX_SIDE_BYTES >> 20} MiB is not parsed",
    "parse_failed": "symbols not computed: the parser gave up; git's hunk context shown",
    "parse_errors": "symbols not computed: syntax errors and no symbol recovered",
    "no_grammar": "symbols not computed: no grammar for the language; git's hunk context shown",
    "unreadable": "symbols not computed: the file could not be read",
    "git": "symbols not computed: git could not read it",
    "unhashable": "git could not read it as a file, so its churn and symbols are unknown",
}
"""Why a file's symbols are missing, in the order notes name them."""


@dataclass(frozen=True)
class Found:
    """Touched names of one file; `problem` (a key of PROBLEMS) when they could not be computed,
    with `detail`, what the system or git said."""

    names: list[str]
    problem: str = ""
    detail: str = ""
    contexts: bool = False
    """The names are git's funcname contexts (free text), not qualified names."""


@dataclass(frozen=True)
class Read:
    """A working-tree file as far as it could be read: `data` when not over the limit."""

    data: bytes | None
    size: int
    lines: int
    binary: bool
    problem: str = ""
    detail: str = ""


def read_worktree(path: Path, limit: int = MAX_SIDE_BYTES) -> Read:
    """Size, line count and binary flag of a regular file, its bytes when at most `limit`.

    Anything but a regular file is refused before it is opened (a FIFO would block)."""
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode):
            return Read(None, 0, 0, False, "unreadable", "not a regular file")
        kept = bytearray()
        size = lines = 0
        head = b""
        last = b"\n"
        with path.open("rb") as handle:
            while block := handle.read(READ_BLOCK):
                if len(head) < BINARY_PROBE:
                    head += block[: BINARY_PROBE - len(head)]
                size += len(block)
                lines += block.count(b"\n")
                last = block[-1:]
                if size <= limit:
                    kept += block
    except OSError as error:
        return Read(None, 0, 0, False, "unreadable", error.strerror or type(error).__name__)
    if size and last != b"\n":
        lines += 1
    binary = looks_binary(head)
    return Read(bytes(kept) if size <= limit else None, size, 0 if binary else lines, binary)


def funcname_applies(path: str) -> bool:
    """Whether git's funcname context is worth reporting for `path` (see the module docstring)."""
    if classify.category(path) in ("docs", "build", "config"):
        return False
    return "." in path.rsplit("/", 1)[-1].lstrip(".")


def _fallback(path: str, hunks: gitdiff.Hunks, problem: str = "", detail: str = "") -> Found:
    """git's funcname contexts, and the problem only where a language promised symbols."""
    names = [cut(name, 60) for name in hunks.funcnames] if funcname_applies(path) else []
    return Found(names, problem if classify.language(path) else "", detail, contexts=True)


class SymbolFinder:
    """Touched symbols for the entries of one diff; blob contents are fetched in one batch."""

    def __init__(
        self,
        top: Path,
        sides: gitdiff.Sides,
        entries: list[gitdiff.Entry],
        patch: gitdiff.Patch,
        ctx: Context,
    ) -> None:
        from sofia.syntax import language_for

        self.top = top
        self.sides = sides
        self.patch = patch
        self.ctx = ctx
        self.parsable = {e.path for e in entries if language_for(e.path) is not None}
        wanted = []
        for entry in entries:
            if entry.path not in self.parsable:
                continue
            if entry.old_sha and entry.status != "A":
                wanted.append(entry.old_sha)
            if entry.new_sha and self._new_from_git:
                wanted.append(entry.new_sha)
        self.blobs = gitdiff.blobs(top, wanted, MAX_SIDE_BYTES, ctx) if wanted else gitdiff.Blobs()

    @property
    def _new_from_git(self) -> bool:
        return self.sides.new is not None or self.sides.index

    def _blob(self, sha: str) -> tuple[bytes | None, str, str]:
        if sha in self.blobs.contents:
            return self.blobs.contents[sha], "", ""
        why = self.blobs.unread.get(sha, "missing")
        if why == "too_large":
            return None, "too_large", ""
        return None, "git", f"blob {sha[:12]} missing"

    def _new_content(self, entry: gitdiff.Entry) -> tuple[bytes | None, str, str]:
        if self._new_from_git:
            if not entry.new_sha:
                return None, "git", "no blob id for the new side"
            return self._blob(entry.new_sha)
        read = read_worktree(self.top / entry.path)
        if read.problem:
            return None, read.problem, read.detail
        if read.data is None:
            return None, "too_large", ""
        return read.data, "", ""

    def for_entry(self, entry: gitdiff.Entry) -> Found:
        """Touched symbol names for `entry`, syntax first, funcname as the fallback."""
        new_hunks = self.patch.by_new.get(entry.path, gitdiff.Hunks())
        old_hunks = self.patch.by_old.get(entry.old_path or entry.path, gitdiff.Hunks())
        hunks = new_hunks if new_hunks.funcnames else old_hunks
        if entry.path not in self.parsable:
            changed = entry.adds + entry.dels > 0
            return _fallback(entry.path, hunks, "no_grammar" if changed else "")
        from sofia.syntax import language_for
        from sofia.syntax.touched import touch

        old: bytes | None = None
        if entry.status != "A" and entry.old_sha:
            old, problem, detail = self._blob(entry.old_sha)
            if problem:
                return _fallback(entry.path, hunks, problem, detail)
        new: bytes | None = None
        if entry.status != "D":
            new, problem, detail = self._new_content(entry)
            if problem:
                return _fallback(entry.path, hunks, problem, detail)
        for side in (old, new):
            if side is not None and looks_binary(side):
                return Found([], "binary")
        lang = language_for(entry.path)
        assert lang is not None
        found = touch(lang, old, new, old_hunks.old, new_hunks.new, entry.path)
        if found is None:
            return _fallback(entry.path, hunks, "parse_failed")
        if not found.names and found.parse_errors and (old_hunks.old or new_hunks.new):
            return Found([], "parse_errors")
        return Found(found.names)

    @staticmethod
    def new_file(name: str, read: Read) -> Found:
        """Symbols of a file that did not exist before: its top-level symbols, each with `+`."""
        from sofia.syntax import language_for
        from sofia.syntax.touched import touch

        lang = language_for(name)
        expected = bool(classify.language(name))
        if not read.lines and not read.binary:
            return Found([])
        if read.binary:
            return Found([], "binary" if expected else "")
        if lang is None:
            return Found([], "no_grammar" if expected else "")
        if read.data is None:
            return Found([], "too_large")
        lines = read.data.count(b"\n") + (0 if read.data.endswith(b"\n") else 1)
        found = touch(lang, None, read.data, [], [(1, lines)], name)
        if found is None:
            return Found([], "parse_failed")
        if not found.names and found.parse_errors:
            return Found([], "parse_errors")
        return Found(found.names)


__all__ = ["PROBLEMS", "Found", "Read", "SymbolFinder", "funcname_applies", "read_worktree"]
