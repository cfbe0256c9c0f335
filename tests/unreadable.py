"""A directory or a file that the test process itself cannot read, for root and other users alike.

A non-root user gets mode 000. Root reads through any mode bits, so for root the path is covered by
a bind mount of a process's `/proc` entry taken after the process has died: every read of it fails
with `No such process`, whoever asks. Either way the code under test runs in this very process,
with its real privileges.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def unreadable_directory(path: Path) -> Iterator[Path]:
    """`path` created as a directory that cannot be listed, restored (or unmounted) afterwards."""
    path.mkdir(parents=True)
    with _unreadable(path, 0o755, "", os.listdir):
        yield path


@contextlib.contextmanager
def unreadable_file(path: Path) -> Iterator[Path]:
    """`path` (an existing file) made unreadable, restored (or unmounted) afterwards."""
    with _unreadable(path, 0o644, "/environ", Path.read_bytes):
        yield path


@contextlib.contextmanager
def _unreadable(path: Path, mode: int, entry: str, read: Callable[[Path], object]) -> Iterator[None]:
    """Mode 000 for a non-root user (`mode` restored after); for root, the dead process's
    `/proc/<pid><entry>` bind-mounted over `path`, checked with `read` to fail."""
    if os.geteuid() != 0:
        path.chmod(0)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    child = subprocess.Popen(["sleep", "60"], stdin=subprocess.DEVNULL)
    try:
        subprocess.run(
            ["mount", "--bind", f"/proc/{child.pid}{entry}", str(path)], check=True, capture_output=True
        )
    finally:
        child.kill()
        child.wait()
    try:
        with contextlib.suppress(OSError):
            read(path)
            raise AssertionError(f"{path} is still readable")
        yield
    finally:
        subprocess.run(["umount", str(path)], check=True, capture_output=True)
