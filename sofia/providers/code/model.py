"""The types shared by the `code` pipeline and its per-language summarisers."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SLICE_MODE = "slice"
"""The top-level `mode` of a result holding slices; summary results have no `mode` key."""


@dataclass(frozen=True)
class SummaryOptions:
    """What the caller asked for: exported members only, names and signatures only, PHP api surface."""

    exported: bool = False
    brief: bool = False
    api: bool = False


@dataclass(frozen=True)
class SourceFile:
    """One input file as read once by the pipeline."""

    path: Path
    """Absolute."""
    rel: str
    """Relative to root, "/" separators, no "./"."""
    root: Path
    """ctx.root; providers never follow references out of it."""
    source: bytes
    text: str
    """Decoded UTF-8 with U+FFFD, BOM stripped."""
    lang: str


@dataclass
class Summary:
    """A summariser's answer: the summary keys after `lines`, in the documented order (docs/code.md,
    "What a summary holds")."""

    fields: dict[str, Any]
    """namespace, imports, types, functions, then when non-empty properties, ctor, constants, cases,
    vue, unresolved; rows are full (no elision yet), exported filtering already applied."""
    notes: list[str] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    """Declarations the summariser has no row kind for, as (line, source text): named in notes."""
    extra_raw_tok: int = 0
    """api: estimated tokens of the other files read (traits, parents), for the summary-not-smaller
    rule and stats."""
