"""A grep call's validated, normalised parameters, built from plain values.

It holds no pydantic model, so the CLI can build the same request from its arguments before the
input model is even imported, and start ripgrep early (see `head_start`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sofia.errors import ArgumentError, param, quote
from sofia.providers.contract import ProviderError
from sofia.runtime import files, paths

MAX_PATTERNS = 32
MAX_PATTERN_CHARS = 4096
"""Longer patterns are refused: they cannot be a line of code and would strain the argument list."""
EXT_RE = re.compile(r"[A-Za-z0-9_+-]+")
MAX_IGNORE_DIRS = 256
"""More names than any tree needs; the bound keeps rg's command line far below the system limit."""
NAME_MAX = 255
NOT_A_NAME = re.compile(r"[/\\*?\[\]{}!]")
"""A separator or a glob character: what no directory name given to skip may hold."""


@dataclass(frozen=True)
class Request:
    """Validated, normalised parameters: what the engine needs and nothing else."""

    patterns: tuple[str, ...]
    duplicates: tuple[str, ...]
    root_display: str
    """The root as the caller gave it (echoed in the result)."""
    cwd: Path
    """Directory rg runs in; rg's paths are relative to it."""
    target: str
    """The one path rg searches: "." for a directory root, the file name for a file root."""
    base: str
    """The root as every tool prints paths (relative to the workspace, as the caller named it):
    the directory rg's paths are relative to, or for a file root the file itself."""
    fixed: bool
    word: bool
    case: bool
    exts: tuple[str, ...]
    ignore_dirs: tuple[str, ...]
    cap: int

    def shown(self, rel: str) -> str:
        """A path relative to `cwd` (as `ripgrep.display_path` gives it) relative to the workspace."""
        return self.base if self.target != "." else paths.under(self.base, rel)


def build(
    patterns: Sequence[str],
    *,
    workspace: Path,
    root: str = ".",
    regex: bool = False,
    word: bool = False,
    case: bool = True,
    exts: Sequence[str] = (),
    ignore_dirs: Sequence[str] = (),
    cap: int = 30,
) -> Request:
    """Check every input before anything runs; each problem is a ProviderError naming the value."""
    _check_patterns(patterns)
    unique = tuple(dict.fromkeys(patterns))
    duplicates = tuple(dict.fromkeys(p for i, p in enumerate(patterns) if p in patterns[:i]))
    exts = tuple(dict.fromkeys(_normalise_ext(ext) for ext in exts))
    if len(ignore_dirs) > MAX_IGNORE_DIRS:
        raise ArgumentError(
            f"too many {param('ignore_dirs')}: {len(ignore_dirs):,} (at most {MAX_IGNORE_DIRS})",
            f"skip a few directory names, or narrow the search with {param('root')} or {param('exts')}",
        )
    ignore_dirs = tuple(dict.fromkeys(_normalise_dir(name) for name in ignore_dirs if name.strip("/ ")))
    base, cwd, target = _resolve_root(root, workspace)
    return Request(
        patterns=unique,
        duplicates=duplicates,
        root_display=root or ".",
        cwd=cwd,
        target=target,
        base=base,
        fixed=not regex,
        word=word,
        case=case,
        exts=exts,
        ignore_dirs=ignore_dirs,
        cap=cap,
    )


def _check_patterns(patterns: Sequence[str]) -> None:
    """One to 32 patterns, each a non-empty single line of at most 4,096 characters without NUL:
    what ripgrep can take as an argument and a line of code can hold."""
    if not patterns:
        raise ArgumentError(
            "grep needs at least one pattern", f"pass a pattern: {param('patterns', ['deleteUser'])}"
        )
    if len(patterns) > MAX_PATTERNS:
        raise ArgumentError(
            f"too many patterns: {len(patterns)} (at most {MAX_PATTERNS})",
            "split the search into several calls of up to 32 patterns",
        )
    for pattern in patterns:
        if pattern == "":
            raise ArgumentError("empty pattern", "drop the empty pattern or give the text to search for")
        if "\n" in pattern or "\r" in pattern:
            raise ArgumentError(
                f"pattern spans lines: {quote(repr(pattern))}",
                "search one line at a time: split it into several patterns",
            )
        if "\0" in pattern:
            raise ArgumentError(
                f"pattern holds a NUL character: {quote(repr(pattern))}", "drop the NUL character"
            )
        if len(pattern) > MAX_PATTERN_CHARS:
            raise ArgumentError(
                f"pattern too long: {len(pattern)} characters (at most {MAX_PATTERN_CHARS})",
                "search for a distinctive part of the line instead",
            )


def _normalise_ext(ext: str) -> str:
    bare = ext.strip().removeprefix(".")
    if not EXT_RE.fullmatch(bare):
        raise ArgumentError(
            f"invalid extension: {ext!r}",
            "give bare extensions such as php or .ts (letters, digits, _ + -)",
        )
    return bare.lower()


def _normalise_dir(name: str) -> str:
    """A directory name to skip at any depth; paths, globs and `.`/`..` are refused, because rg
    would take them as globs that skip everything (`*`) or nothing (`../..`) without a word."""
    bare = name.strip().strip("/")
    if "\0" in bare or len(bare.encode("utf-8", "replace")) > NAME_MAX:
        raise ArgumentError(
            f"invalid directory name: {quote(repr(name))}", "give plain directory names such as generated"
        )
    if NOT_A_NAME.search(bare) or bare in (".", ".."):
        raise ArgumentError(
            f"{param('ignore_dirs')} takes directory names, not paths or globs: {quote(repr(name))}",
            "give names such as generated or legacy (each is skipped at any depth); "
            f"to search one part of the tree, pass it as {param('root')}",
        )
    return bare


def _resolve_root(root: str, workspace: Path) -> tuple[str, Path, str]:
    """The root relative to the workspace, the directory rg runs in, and the path it searches."""
    path = Path(workspace, root or ".")
    if "\0" in root or files.require(path, root, what="root") == files.MISSING:
        raise ProviderError(
            f"root not found: {root}", f"give a directory or file that exists under {workspace}"
        )
    display = paths.shown(path, workspace)
    # rg gets the resolved path: `/dev/stdout` or `/proc/self/...` would name rg's own streams.
    real = Path(os.path.realpath(path))
    if files.kind(real) != files.kind(path):
        raise ProviderError(
            f"root names a different thing in every process: {root}",
            "give the file or directory it points to instead",
        )
    if real.is_dir():
        return display, real, "."
    return display, real.parent, real.name
