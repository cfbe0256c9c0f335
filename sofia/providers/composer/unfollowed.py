"""Package files a tool could not use, and the notes that name them.

Every Composer, Packagist and GitHub tool that reads a `composer.json`, a `composer.lock` or a
PHPStan configuration names each one it could not read or interpret, with its path (relative to
the workspace) and line where known, so an agent can tell "no packages / no level" from "could
not tell". One note per kind of file, worded by `sofia.output.notes.not_followed`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sofia.output.notes import Place, not_followed
from sofia.runtime import paths

KINDS = {
    "composer.json": ("composer.json files", "unreadable or invalid"),
    "composer.lock": ("composer.lock files", "unreadable or invalid; composer update --lock rewrites one"),
    "phpstan": ("PHPStan configurations", "no level read from them"),
}
"""Kind → (what, why) of its note, in the order the notes come."""


@dataclass(frozen=True)
class Unfollowed:
    """One file (or a place in it) that was not used, and why."""

    kind: str
    """A key of KINDS."""
    file: Path
    """Absolute path of the file (or of the directory, when the directory could not be read)."""
    line: int
    """1-based line, 0 for the whole file."""
    reason: str


def notes(found: Iterable[Unfollowed], workspace: Path) -> list[str]:
    """One `not_followed` note per kind present, paths relative to `workspace`; [] for none."""
    by_kind: dict[str, list[Place]] = {}
    for item in found:
        by_kind.setdefault(item.kind, []).append(
            Place(paths.shown(item.file, workspace), item.line, item.reason)
        )
    return [not_followed(what, by_kind[kind], why) for kind, (what, why) in KINDS.items() if kind in by_kind]
