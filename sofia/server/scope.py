"""Which workspace a call serves: where its relative paths start and which directories it may see.

Three sources, in order: `--root` on the command line (the working directory is the workspace
when it lies in one of them, else the first root),
the roots the client names (the first is the workspace, all of them are allowed), else the
working directory. A scope is a frozen snapshot: a call takes the one in force when it starts,
and a change of the client's roots replaces it for the calls after.

A working directory that is the file system root, the home directory or a directory above it is
rarely what anybody meant to serve (editors start servers in `/` or in the home directory), so
without `--root` or roots from the client a call that would walk the whole of it is refused with
the fix, instead of reading the disk.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from sofia.errors import quote
from sofia.server.confine import Confinement, inside
from sofia.server.rooturi import Roots

Origin = Literal["command line", "client", "working directory"]


@dataclass(frozen=True)
class Scope:
    workspace: Path
    """Absolute and resolved: relative path parameters start here, printed paths are relative to it."""
    confinement: Confinement
    origin: Origin
    unusable: tuple[str, ...] = ()
    """Why roots the client named were set aside (for the refusal of a whole-disk walk)."""

    @classmethod
    def started(cls, roots: tuple[Path, ...], given: bool, cwd: Path) -> Scope:
        """The scope before any client roots: `--root` (`given`) or the working directory. A
        working directory outside every `--root` (a client that starts servers in `/` or the home
        directory, with the project named by `sf init`) makes the first root the workspace."""
        workspace = cwd
        if given and roots and not any(inside(cwd, root) for root in roots):
            workspace = roots[0]
        return cls(workspace, Confinement(roots, workspace), "command line" if given else "working directory")

    def with_client(self, roots: Roots) -> Scope:
        """The client's roots in place of this scope: the first is the workspace (a file's directory,
        for a file), all are allowed, `/` among them lifts confinement; with none usable, this scope
        stays, knowing why."""
        if not roots.paths:
            return replace(self, unusable=roots.unusable)
        first = roots.paths[0]
        workspace = first if first.is_dir() else first.parent
        allowed = () if any(path == Path(path.anchor) for path in roots.paths) else roots.paths
        return Scope(workspace, Confinement(allowed, workspace), "client", roots.unusable)

    def allowed(self, extra_roots: Sequence[Path] = ()) -> tuple[Path, ...]:
        """Every directory a call's paths may lie in (the tool's own `extra_roots` too); empty: no limit."""
        return self.confinement.allowed(extra_roots)

    def whole_disk(self, home: Path) -> str | None:
        """What the workspace is when nobody chose it and it is too wide to walk, else None."""
        if self.origin != "working directory":
            return None
        if self.workspace == Path(self.workspace.anchor):
            return "the file system root"
        if self.workspace == home:
            return "the home directory"
        if inside(home, self.workspace):
            return "a directory above the home directory"
        return None

    def wide_refusal(self, params: BaseModel, home: Path) -> str | None:
        """Why a call may not run: one of its paths (defaults included) is the whole of a workspace
        nobody chose, or above it. A path below it is a choice the agent made, and runs."""
        what = self.whole_disk(home)
        if what is None:
            return None
        for name, raw, resolved in self.confinement.targets(params):
            if inside(self.workspace, resolved):
                why = (
                    "the client named no roots"
                    if not self.unusable
                    else "none of the client's roots can be used (" + "; ".join(self.unusable[:3]) + ")"
                )
                return (
                    f"{name}={quote(raw)!r} would walk all of {self.workspace} ({what}): the server was "
                    f"started there with no --root and {why}. Give it the project: add --root "
                    "/path/to/project to sofia's args in the client's MCP entry, or run sf init in the "
                    "project; or pass a path inside one"
                )
        return None


def home_directory() -> Path:
    """The user's home, resolved (`$HOME` first, as everywhere else)."""
    return Path(os.path.realpath(os.path.expanduser("~")))
