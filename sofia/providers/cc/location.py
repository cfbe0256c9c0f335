"""Where Claude Code keeps its transcripts: the one definition of the projects root.

Light on purpose (standard library only): `sf doctor` imports it through the family's face
(`sofia.providers.cc`), and must not pay for the cc providers to learn one path.

The root is the first of: the `projects_dir` a caller passes, `$CC_PROJECTS_DIR`, and
`~/.claude/projects`. Whichever is chosen, a leading `~` or `~user` is expanded (values from an MCP
client's configuration never pass through a shell), and a relative path is taken from `base` — the
workspace root for a provider or the server, the current directory by default. Environment
variables inside the value (`$HOME/x`) are not expanded: `$` is a legal path character.
"""

from __future__ import annotations

import os
from pathlib import Path

from sofia import settings

ENV_VAR = "CC_PROJECTS_DIR"
DEFAULT = "~/.claude/projects"


def projects_root(projects_dir: str | None = None, base: Path | None = None) -> Path:
    """The absolute projects root (not checked for existence; callers decide what a missing one means).

    `projects_dir` wins when non-empty, then `$CC_PROJECTS_DIR`, then `~/.claude/projects`; a blank
    value counts as unset. `base` is where a relative value is taken from (default: the current
    directory). The result is lexically normalised, symlinks are not resolved.
    """
    chosen = _given(projects_dir) or _given(settings.get(ENV_VAR)) or DEFAULT
    path = Path(os.path.expanduser(chosen))
    if not path.is_absolute():
        path = (base if base is not None else Path.cwd()) / path
    return Path(os.path.normpath(path))


def _given(value: str | None) -> str:
    return value if value is not None and value.strip() else ""
