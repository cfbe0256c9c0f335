"""Killing a process together with everything it started.

Providers run programs in process groups of their own (`sofia.runtime.proc`), so killing a
worker alone would orphan a hung `git` or project script: the descendants and their groups go too.
"""

from __future__ import annotations

import contextlib
import os
import signal

import psutil


def kill_tree(pid: int, *, include_root: bool = True) -> None:
    """SIGKILL `pid` (unless `include_root` is False) and every descendant, with their process groups."""
    try:
        root = psutil.Process(pid)
        descendants = root.children(recursive=True)
    except psutil.Error:
        return
    if include_root:
        with contextlib.suppress(psutil.Error):
            root.kill()
    own_group = os.getpgrp()
    for process in descendants:
        with contextlib.suppress(OSError):
            group = os.getpgid(process.pid)
            # A group led by the descendant holds its own children even once it has died.
            if group == process.pid and group != own_group:
                os.killpg(group, signal.SIGKILL)
        with contextlib.suppress(psutil.Error):
            process.kill()


def is_child(pid: int) -> bool:
    """Whether `pid` is a live direct child of this process (never signal anything else)."""
    try:
        parent: int = psutil.Process(pid).ppid()
    except psutil.Error:
        return False
    return parent == os.getpid()
