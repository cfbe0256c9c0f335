"""Path confinement: path parameters must resolve (symlinks included) inside the allowed roots.

An agent talking to the server is not the person who started it; the CLI has no confinement
because a person runs it. Paths are resolved the way providers resolve them: relative to the
workspace root (the server's cwd).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel

PATH_FIELDS = ("files", "root", "file", "projects_dir", "package", "session")
GLOB_CHARS = frozenset("*?[{")


class Confinement:
    def __init__(self, roots: Sequence[Path], workspace: Path, cc_projects: Path) -> None:
        """`roots` empty means unconfined; `cc_projects` is also allowed for the `cc` tools."""
        self.roots = tuple(roots)
        self.workspace = workspace
        self.cc_projects = Path(os.path.realpath(cc_projects))

    def refusal(self, group: str, params: BaseModel) -> str | None:
        """Why `params` may not be used (one line naming the parameter and the allowed roots), or None."""
        if not self.roots:
            return None
        allowed = self.roots + ((self.cc_projects,) if group == "cc" else ())
        values = params.model_dump()
        for name in PATH_FIELDS:
            for raw in _values(values.get(name)):
                if name == "package" and not self._looks_like_path(raw):
                    continue
                if name == "session" and not _is_session_path(raw):
                    continue
                for base in self._bases(name, values):
                    resolved = _resolve(base, _literal_prefix(raw) if name == "files" else raw)
                    if not any(_inside(resolved, root) for root in allowed):
                        return (
                            f"{name}={raw!r} resolves to {resolved}, outside the allowed roots "
                            f"({', '.join(str(r) for r in allowed)}); pass a path inside them, or start "
                            "the server with --root DIR to allow another directory (--root / lifts the limit)"
                        )
        return None

    def _bases(self, name: str, values: dict[str, object]) -> list[Path]:
        """Where a relative path is taken from: the workspace, and for a package also the `root` given."""
        bases = [self.workspace]
        root = values.get("root")
        if name == "package" and isinstance(root, str) and root:
            bases.append(_resolve(self.workspace, root))
        return bases

    def _looks_like_path(self, value: str) -> bool:
        """A package parameter is a path when it is spelt like one or names something on disk."""
        if value.startswith(("/", ".", "~")) or value.endswith(".json") or "\\" in value:
            return True
        return (self.workspace / value).exists()


def _is_session_path(value: str) -> bool:
    """A cc `session` selector names a transcript file when it ends in .jsonl or holds a separator."""
    return value.strip().endswith(".jsonl") or "/" in value or os.sep in value


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


def _inside(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)
