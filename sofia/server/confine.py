"""Path confinement: path parameters must resolve (symlinks included) inside the allowed roots.

An agent talking to the server is not the person who started it; the CLI has no confinement
because a person runs it. Which parameters are paths is a fact of the input model: every field
carrying `sofia.providers.params.PathParam` is confined, whatever it is called. Paths are resolved
the way providers resolve them: relative to the workspace root (the server's cwd).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from pydantic import BaseModel

from sofia.errors import quote
from sofia.providers.params import PathParam, path_param

GLOB_CHARS = frozenset("*?[{")


class Confinement:
    def __init__(self, roots: Sequence[Path], workspace: Path) -> None:
        """`roots` empty means unconfined."""
        self.roots = tuple(roots)
        self.workspace = workspace

    def refusal(self, params: BaseModel, extra_roots: Sequence[Path] = ()) -> str | None:
        """Why `params` may not be used (one line naming the parameter and the allowed roots), or None.

        `extra_roots` are the directories the tool itself needs besides the workspace (Claude Code's data).
        """
        if not self.roots:
            return None
        allowed = self.allowed(extra_roots)
        for name, raw, resolved in self.targets(params):
            if not any(inside(resolved, root) for root in allowed):
                return (
                    f"{name}={quote(raw)!r} resolves to {quote(str(resolved))}, outside the allowed "
                    f"roots ({', '.join(str(r) for r in allowed)}); pass a path inside them, or start "
                    "the server with --root DIR to allow another directory (--root / lifts the limit)"
                )
        return None

    def targets(self, params: BaseModel) -> Iterator[tuple[str, str, Path]]:
        """Every path value of `params`, defaults included, as (parameter, value, resolved place); a
        glob is its literal leading directories, and a value that may lie under another path field
        is taken from each base."""
        values = params.model_dump()
        for name, field in type(params).model_fields.items():
            marker = path_param(field)
            if marker is None:
                continue
            for raw in _values(values.get(name)):
                if not marker.applies(raw, self.workspace):
                    continue
                for base in self._bases(marker, values):
                    yield name, raw, _resolve(base, _literal_prefix(raw) if marker.glob else raw)

    def allowed(self, extra_roots: Sequence[Path] = ()) -> tuple[Path, ...]:
        """Every directory a tool's paths may lie in; empty when unconfined."""
        if not self.roots:
            return ()
        return self.roots + tuple(Path(os.path.realpath(root)) for root in extra_roots)

    def _bases(self, marker: PathParam, values: dict[str, object]) -> list[Path]:
        """Where a relative path is taken from: the workspace, and the other path field it may be under."""
        bases = [self.workspace]
        other = values.get(marker.also_under) if marker.also_under else None
        if isinstance(other, str) and other:
            bases.append(_resolve(self.workspace, other))
        return bases


def _values(value: object) -> Iterable[str]:
    if isinstance(value, str) and value:
        yield value
    elif isinstance(value, list):
        yield from (v for v in value if isinstance(v, str) and v)


def _literal_prefix(pattern: str) -> str:
    """The directory part of a glob before its first wildcard segment (`src/**/*.php` → `src`)."""
    kept: list[str] = []
    for segment in pattern.split("/"):
        if GLOB_CHARS.intersection(segment):
            break
        kept.append(segment)
    prefix = "/".join(kept)
    if not prefix:
        return "/" if pattern.startswith("/") else "."
    return prefix


def _resolve(base: Path, raw: str) -> Path:
    path = Path(os.path.expanduser(raw))
    return Path(os.path.realpath(path if path.is_absolute() else base / path))


def inside(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)
