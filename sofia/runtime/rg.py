"""Locating ripgrep and walking trees with it, so every walk (code, grep, vue) follows one rule set:
.gitignore/.ignore/excludes honoured even outside git, hidden files included, symlinks not
followed, and the default ignore directories skipped below the starting point."""

from __future__ import annotations

import os
import re
import shutil
import sys
import sysconfig
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from sofia.errors import ProviderError
from sofia.runtime import proc

DEFAULT_IGNORE_DIRS = (
    ".git",
    ".hg",
    ".svn",
    ".idea",
    ".vscode",
    "node_modules",
    "vendor",
    "var",
    "dist",
    "build",
    "target",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".next",
    ".nuxt",
    "coverage",
)
"""Directory names skipped at any depth below the starting point; a root named explicitly is searched."""

MIN_VERSION = (14, 1)
NOT_FOUND = ProviderError(
    "ripgrep (rg) not found",
    "reinstall sofia (it depends on the ripgrep wheel) or put rg >= 14.1 on PATH",
)


def candidates() -> list[str]:
    """Where rg may live, in order: the interpreter's scripts dir, beside the interpreter, PATH."""
    found: list[str] = []
    scripts = sysconfig.get_path("scripts")
    if scripts:
        found.append(os.path.join(scripts, "rg"))
    found.append(os.path.join(os.path.dirname(sys.executable), "rg"))
    on_path = shutil.which("rg")
    if on_path:
        found.append(on_path)
    return found


@cache
def locate() -> tuple[str, str]:
    """The rg executable and its version string, checked once per process."""
    for path in candidates():
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            continue
        try:
            done = proc.run([path, "--version"], timeout=10)
        except (proc.ProgramNotFound, proc.ProgramTimeout):
            continue
        match = re.match(r"ripgrep (\d+)\.(\d+)\.(\d+)", done.out)
        if not match:
            continue
        version = tuple(int(g) for g in match.groups())
        if version[:2] < MIN_VERSION:
            raise ProviderError(
                f"ripgrep {'.'.join(map(str, version))} at {path} is too old",
                "reinstall sofia (it depends on the ripgrep wheel) or put rg >= 14.1 on PATH",
            )
        return path, ".".join(map(str, version))
    raise NOT_FOUND


def executable() -> str:
    return locate()[0]


def walk_args(ignore_dirs: Iterable[str] = ()) -> list[str]:
    """The rg options shared by every walk and search (after `rg --no-config`)."""
    args = ["--hidden", "--no-require-git"]
    for name in (*DEFAULT_IGNORE_DIRS, *ignore_dirs):
        args.append(f"--glob=!{name}/")
    return args


def list_files(
    paths: Sequence[str],
    *,
    cwd: Path,
    globs: Iterable[str] = (),
    ignore_dirs: Iterable[str] = (),
    timeout: float = 60.0,
) -> list[str]:
    """Files under `paths` (relative to `cwd`) that a walk keeps, sorted by path bytes, without `./`.

    `globs` are rg include globs (`*.php`). Unreadable entries are skipped silently.
    """
    args = [executable(), "--no-config", "--files", "--null", "--no-messages", *walk_args(ignore_dirs)]
    args.extend(f"--iglob={g}" for g in globs)
    args.append("--")
    args.extend(paths)
    done = proc.run(args, cwd=cwd, timeout=timeout)
    if done.returncode not in (0, 1):
        raise ProviderError(f"ripgrep failed: {done.last_error_line()}", "check the path and its permissions")
    names = [os.fsdecode(p) for p in done.stdout.split(b"\0") if p]
    cleaned = [n[2:] if n.startswith("./") else n for n in names]
    return sorted(set(cleaned), key=os.fsencode)


def files_with_words(
    words: Sequence[str],
    paths: Sequence[str],
    *,
    cwd: Path,
    globs: Iterable[str] = (),
    ignore_dirs: Iterable[str] = (),
    timeout: float = 60.0,
) -> list[str]:
    """Files under `paths` holding any of `words` as a whole word (literal, case-sensitive), walked
    as `list_files` walks, sorted by path bytes, without `./`."""
    if not words or not paths:
        return []
    args = [executable(), "--no-config", "--files-with-matches", "--null", "--no-messages"]
    args += ["--fixed-strings", "--word-regexp", "--case-sensitive", *walk_args(ignore_dirs)]
    args.extend(f"--iglob={g}" for g in globs)
    args.extend(f"--regexp={w}" for w in words)
    found: set[str] = set()
    for batch in _batches(paths):
        done = proc.run([*args, "--", *batch], cwd=cwd, timeout=timeout)
        if done.returncode not in (0, 1, 2):  # 2: some entries could not be read (--no-messages)
            raise ProviderError(
                f"ripgrep failed: {done.last_error_line()}", "check the path and its permissions"
            )
        found.update(os.fsdecode(p) for p in done.stdout.split(b"\0") if p)
    cleaned = {n[2:] if n.startswith("./") else n for n in found}
    return sorted(cleaned, key=os.fsencode)


def _batches(paths: Sequence[str], limit: int = 100_000) -> list[list[str]]:
    """Paths split so no command line carries more than `limit` bytes of them."""
    batches: list[list[str]] = [[]]
    size = 0
    for path in paths:
        if batches[-1] and size + len(path) + 1 > limit:
            batches.append([])
            size = 0
        batches[-1].append(path)
        size += len(path) + 1
    return batches
