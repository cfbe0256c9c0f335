"""Running git so that the user's configuration cannot change what a provider sees: no pager, no
colour, no external diff or textconv, no prompts, no optional locks, C locale."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from sofia.errors import ProviderError
from sofia.runtime import proc

CONFIG = (
    "-c", "core.quotePath=false",
    "-c", "diff.noprefix=false",
    "-c", "diff.mnemonicPrefix=false",
    "-c", "diff.relative=false",
    "-c", "diff.external=",
    "-c", "color.ui=never",
    "-c", "core.pager=cat",
)  # fmt: skip
"""`-c` options that pin the settings known to change git's output."""

ENV_ADD = {
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_PAGER": "cat",
    "LC_ALL": "C",
}
ENV_REMOVE = ("GIT_EXTERNAL_DIFF", "GIT_DIFF_OPTS", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")


def not_found() -> ProviderError:
    """A fresh error each time: a shared instance would collect every raise's traceback."""
    return ProviderError(
        "git not found", "install git (e.g. apt-get install git) and make sure it is on PATH"
    )


def run(
    args: Sequence[str],
    *,
    cwd: Path,
    timeout: float = 60.0,
    input: bytes | None = None,
) -> proc.Completed:
    """`git --no-pager <pinned config> <args>` in `cwd`; a missing git becomes a ProviderError."""
    env = proc.environment(add=ENV_ADD, remove=ENV_REMOVE)
    try:
        return proc.run(["git", "--no-pager", *CONFIG, *args], cwd=cwd, env=env, timeout=timeout, input=input)
    except proc.ProgramNotFound:
        raise not_found() from None


def toplevel(path: Path, timeout: float = 10.0) -> Path | None:
    """The top level of the work tree containing `path`, or None outside one."""
    try:
        done = run(["rev-parse", "--show-toplevel"], cwd=path, timeout=timeout)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if done.returncode != 0:
        return None
    top = done.stdout.rstrip(b"\n")
    return Path(os.fsdecode(top)) if top else None
