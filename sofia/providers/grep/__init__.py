"""`grep`: every hit of one or more patterns with its enclosing symbol, capped per pattern, with
exact totals (docs/grep.md).

ripgrep is the matching authority: a count phase gives exact per-file totals without streaming
every match, a detail phase reads only the files whose hits are shown. `provider` holds the input
model and `run`; the request, the rg plumbing, text windows, symbols and result shaping live in
the other modules.

This module is also the one public face of grep's engine for the other tools (`refs` counts with
it): they import the names in `__all__` from here, never from the modules below. The package
itself imports nothing — each name is imported on first use (`__getattr__`) — so `head_start` can
start ripgrep before pydantic is imported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sofia.providers.grep.head_start import discard as discard_head_start
    from sofia.providers.grep.head_start import start as start_head_start
    from sofia.providers.grep.params import Extensions, IgnoredDirs, SearchRoot
    from sofia.providers.grep.request import Request, build
    from sofia.providers.grep.ripgrep import MAX_PROCESSES, Counted, Ripgrep, display_path

_FACE: dict[str, tuple[str, str]] = {
    "Counted": ("ripgrep", "Counted"),
    "Extensions": ("params", "Extensions"),
    "IgnoredDirs": ("params", "IgnoredDirs"),
    "MAX_PROCESSES": ("ripgrep", "MAX_PROCESSES"),
    "Request": ("request", "Request"),
    "Ripgrep": ("ripgrep", "Ripgrep"),
    "SearchRoot": ("params", "SearchRoot"),
    "build": ("request", "build"),
    "discard_head_start": ("head_start", "discard"),
    "display_path": ("ripgrep", "display_path"),
    "start_head_start": ("head_start", "start"),
}
"""Public name -> (module below, its name there)."""

__all__ = [
    "MAX_PROCESSES",
    "Counted",
    "Extensions",
    "IgnoredDirs",
    "Request",
    "Ripgrep",
    "SearchRoot",
    "build",
    "discard_head_start",
    "display_path",
    "start_head_start",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    if name not in _FACE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _FACE[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
