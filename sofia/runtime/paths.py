"""One path space: every path a tool prints is relative to the workspace root, `/`-separated, with
`../` for what lies outside it, so a path printed by one tool is accepted by every other (each
reads its path parameters relative to the workspace too).

Paths are taken lexically, as the caller named them: a symlink on the way is kept, not resolved,
so the printed path names the place the caller asked about.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path


def shown(path: str | os.PathLike[str], workspace: Path) -> str:
    """`path` (absolute, or relative to `workspace`) as every tool prints it: relative to the
    workspace (`src/a.php`, `../other/b.php`), `.` for the workspace itself."""
    absolute = os.path.normpath(os.path.join(workspace, os.fspath(path)))
    return Path(os.path.relpath(absolute, workspace)).as_posix()


def under(base: str, rel: str) -> str:
    """`rel`, a path relative to the directory `base` (itself as `shown` prints it), relative to
    the workspace: `under("src", "a.php")` is `src/a.php`."""
    if base in ("", "."):
        return rel
    if rel in ("", "."):
        return base
    joined = f"{base}/{rel}"
    if rel.startswith("../") or rel == ".." or "/../" in rel:
        return posixpath.normpath(joined)
    return joined


__all__ = ["shown", "under"]
