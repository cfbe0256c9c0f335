"""`grep`: every hit of one or more patterns with its enclosing symbol, capped per pattern, with
exact totals (spec tools-code §2).

ripgrep is the matching authority: a count phase gives exact per-file totals without streaming
every match, a detail phase reads only the files whose hits are shown. This module holds the input
model and the orchestration; the rg plumbing, text windows, symbols and result shaping live in
the submodules, imported when a search runs so `sf --help` stays light.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from sofia.providers.contract import Cli, Context, ProviderError

MAX_PATTERNS = 32
MAX_PATTERN_CHARS = 4096
"""Longer patterns are refused: they cannot be a line of code and would strain the argument list."""
EXT_RE = re.compile(r"[A-Za-z0-9_+-]+")


class Params(BaseModel):
    """Search the workspace for patterns; every hit comes with its enclosing symbol."""

    model_config = ConfigDict(extra="forbid")

    patterns: Annotated[
        list[str],
        Field(description="1-32 patterns, searched independently; literal unless regex=true."),
        Cli(positional=True, metavar="PATTERN"),
    ]
    root: Annotated[
        str,
        Field(description="Directory or file to search."),
        Cli(flag="--root", metavar="DIR"),
    ] = "."
    regex: Annotated[
        bool,
        Field(description="Patterns are ripgrep regexes (no look-around or backreferences)."),
    ] = False
    word: Annotated[
        bool,
        Field(description="Whole words only."),
    ] = False
    case: Annotated[
        bool,
        Field(description="Case-sensitive matching."),
    ] = True
    exts: Annotated[
        list[str],
        Field(
            default_factory=list,
            description="Extensions to search (php, ts); empty = all files.",
        ),
        Cli(flag="--ext", split=True, metavar="EXT"),
    ]
    ignore_dirs: Annotated[
        list[str],
        Field(
            default_factory=list,
            description="More directory names to skip (vendor, node_modules... and .gitignore apply anyway).",
        ),
        Cli(flag="--ignore-dir", split=True, metavar="NAME"),
    ]
    max_per_pattern: Annotated[
        int,
        Field(
            ge=0,
            description="Hits shown per pattern (totals stay exact; more_in lists the rest); 0 = budget allows.",
        ),
    ] = 30


@dataclass(frozen=True)
class Request:
    """Validated, normalised parameters: what the engine needs and nothing else."""

    patterns: tuple[str, ...]
    duplicates: tuple[str, ...]
    root_display: str
    cwd: Path
    """Directory rg runs in; result paths are relative to it."""
    target: str
    """The one path rg searches: "." for a directory root, the file name for a file root."""
    fixed: bool
    word: bool
    case: bool
    exts: tuple[str, ...]
    ignore_dirs: tuple[str, ...]
    cap: int


def run(params: Params, ctx: Context) -> dict[str, Any]:
    """Search, then shape the result (hits, exact totals, more_in, notes) to the cap and the budget."""
    request = validate(params, ctx)
    from sofia.providers.grep.engine import search

    return search(request, ctx)


def validate(params: Params, ctx: Context) -> Request:
    """Check every input before anything runs; each problem is a ProviderError naming the value."""
    if not params.patterns:
        raise ProviderError("grep needs at least one pattern", 'pass a pattern: sf grep "deleteUser"')
    if len(params.patterns) > MAX_PATTERNS:
        raise ProviderError(
            f"too many patterns: {len(params.patterns)} (at most {MAX_PATTERNS})",
            "split the search into several calls of up to 32 patterns",
        )
    for pattern in params.patterns:
        if pattern == "":
            raise ProviderError("empty pattern", "drop the empty pattern or give the text to search for")
        if "\n" in pattern or "\r" in pattern:
            raise ProviderError(
                f"pattern spans lines: {pattern!r}",
                "search one line at a time: split it into several patterns",
            )
        if "\0" in pattern:
            raise ProviderError(f"pattern holds a NUL character: {pattern!r}", "drop the NUL character")
        if len(pattern) > MAX_PATTERN_CHARS:
            raise ProviderError(
                f"pattern too long: {len(pattern)} characters (at most {MAX_PATTERN_CHARS})",
                "search for a distinctive part of the line instead",
            )
    unique = tuple(dict.fromkeys(params.patterns))
    duplicates = tuple(dict.fromkeys(p for i, p in enumerate(params.patterns) if p in params.patterns[:i]))
    exts = tuple(dict.fromkeys(_normalise_ext(ext) for ext in params.exts))
    ignore_dirs = tuple(
        dict.fromkeys(_normalise_dir(name) for name in params.ignore_dirs if name.strip("/ "))
    )
    root_display, cwd, target = _resolve_root(params.root, ctx.root)
    return Request(
        patterns=unique,
        duplicates=duplicates,
        root_display=root_display,
        cwd=cwd,
        target=target,
        fixed=not params.regex,
        word=params.word,
        case=params.case,
        exts=exts,
        ignore_dirs=ignore_dirs,
        cap=params.max_per_pattern,
    )


def _normalise_ext(ext: str) -> str:
    bare = ext.strip().removeprefix(".")
    if not EXT_RE.fullmatch(bare):
        raise ProviderError(
            f"invalid extension: {ext!r}",
            "give bare extensions such as php or .ts (letters, digits, _ + -)",
        )
    return bare.lower()


def _normalise_dir(name: str) -> str:
    bare = name.strip().strip("/")
    if "\0" in bare:
        raise ProviderError(
            f"invalid directory name: {name!r}", "give plain directory names such as generated"
        )
    return bare


def _resolve_root(root: str, workspace: Path) -> tuple[str, Path, str]:
    """The root as shown in the result, the directory rg runs in, and the path it searches."""
    path = Path(workspace, root or ".")
    if "\0" in root or not path.exists():
        raise ProviderError(
            f"root not found: {root}", f"give a directory or file that exists under {workspace}"
        )
    relative = os.path.relpath(path, workspace)
    display = Path(relative).as_posix() if not relative.startswith("..") else path.as_posix()
    if path.is_dir():
        return display, path, "."
    return display, path.parent, path.name
