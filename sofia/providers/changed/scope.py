"""One path space: git speaks in paths relative to the repository's top level, every sofia tool
in paths relative to the workspace root. `PathSpace` translates both ways, decides which
changes lie in the workspace, and turns the caller's pathspecs (relative to the workspace, like
every path parameter) into pathspecs for a git run at the top level.

The workspace and the repository can stand three ways to each other: the workspace inside the
repository (a package of a monorepo: `src/Core/src/Container.php` in git is
`src/Container.php` here), the repository inside the workspace (`root=app`: `src/x.php` is
`app/src/x.php`), or apart (only the CLI can get there: every path then starts with `../`).
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from pathlib import Path

from sofia.errors import quote
from sofia.providers.contract import ProviderError

SHORT_MAGIC = "/!^"
"""git's short pathspec magic signatures: `:/` top, `:!` and `:^` exclude."""


def _parts(path: str) -> list[str]:
    return [part for part in path.split("/") if part and part != "."]


def _relative(path: str, start: str) -> str:
    """`path` relative to `start`, both `/`-separated and relative to one base, without `..`
    of their own (git's paths never hold any), by their components only."""
    target, base = _parts(path), _parts(start)
    common = 0
    while common < len(target) and common < len(base) and target[common] == base[common]:
        common += 1
    parts = [".."] * (len(base) - common) + target[common:]
    return "/".join(parts) or "."


@dataclass(frozen=True)
class PathSpace:
    """Where the workspace stands relative to the repository's top level."""

    workspace: Path
    top: Path
    prefix: str | None
    """The workspace relative to the top level (`""` when they are one directory); None when the
    workspace is not inside the repository."""
    lead: str
    """The top level relative to the workspace when the workspace is not inside the repository
    (`app`, `../other`); `""` otherwise."""

    @classmethod
    def of(cls, workspace: Path, top: Path) -> PathSpace:
        space = Path(os.path.realpath(workspace))
        real_top = Path(os.path.realpath(top))
        if space == real_top or space.is_relative_to(real_top):
            offset = space.relative_to(real_top).as_posix()
            return cls(space, real_top, "" if offset == "." else offset, "")
        return cls(space, real_top, None, Path(os.path.relpath(real_top, space)).as_posix())

    @property
    def whole(self) -> bool:
        """Whether every path of the repository lies in the workspace."""
        return self.prefix == "" or (self.prefix is None and not self.lead.startswith(".."))

    @property
    def apart(self) -> bool:
        """Whether the repository and the workspace share no directory (a `root` elsewhere)."""
        return self.prefix is None and self.lead.startswith("..")

    def inside(self, path: str) -> bool:
        """Whether the top-level-relative `path` lies in the workspace."""
        if self.prefix is None:
            return not self.lead.startswith("..")
        return self.prefix == "" or path.startswith(self.prefix + "/")

    def show(self, path: str) -> str:
        """The top-level-relative `path` as sofia prints it: relative to the workspace."""
        if self.prefix is None:
            return posixpath.join(self.lead, path) if self.lead != "." else path
        if self.prefix == "":
            return path
        if path.startswith(self.prefix + "/"):
            return path[len(self.prefix) + 1 :]
        return _relative(path, self.prefix)

    def pathspec(self, given: str) -> str:
        """The caller's pathspec (relative to the workspace; git magic kept) for a git run at the
        top level. A pathspec outside the repository is refused by name."""
        magic, rest, top = _split_magic(given)
        if top:
            return given
        resolved = os.path.normpath(os.path.join(self.workspace, rest))
        relative = os.path.relpath(resolved, self.top)
        if relative == ".." or relative.startswith("../"):
            raise ProviderError(
                f"paths: {quote(given)} lies outside the repository {self.top}",
                f"pathspecs are relative to the workspace {self.workspace} and must name something "
                "inside the repository",
            )
        relative = "" if relative == "." else Path(relative).as_posix()
        if rest.endswith("/") and relative:
            relative += "/"
        if not magic:
            return relative or "."
        return magic + relative


def _split_magic(spec: str) -> tuple[str, str, bool]:
    """`(magic, path, is_top)`: git's pathspec magic prefix (long `:(top,glob)` or short `:/!`)
    kept as written, the path it applies to, and whether the path is already top-level-relative."""
    if not spec.startswith(":"):
        return "", spec, False
    if spec.startswith(":("):
        end = spec.find(")")
        if end < 0:
            raise ProviderError(
                f"paths: unterminated pathspec magic in {quote(spec)}",
                "write long magic as :(name,...)path, e.g. :(glob)src/**/*.py",
            )
        words = {word.strip().split(":", 1)[0] for word in spec[2:end].split(",")}
        return spec[: end + 1], spec[end + 1 :], "top" in words
    index = 1
    while index < len(spec) and spec[index] in SHORT_MAGIC:
        index += 1
    signatures = spec[1:index]
    if index < len(spec) and spec[index] == ":":
        index += 1
    return spec[:index], spec[index:], "/" in signatures


def plain_pathspec(value: str, workspace: Path) -> bool:
    """Whether a `paths` value names a place relative to the workspace (what the server
    confines); a pathspec with git magic is git's to interpret inside the repository."""
    return not value.startswith(":")


__all__ = ["PathSpace", "plain_pathspec"]
