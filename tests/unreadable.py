"""A directory that the test process itself cannot read, for root and other users alike.

A non-root user gets a `chmod 000` directory. Root reads through any mode bits, so for root the
directory is a bind mount of a process's `/proc` entry taken after the process has died: every
read of it fails with `No such process`, whoever asks. Either way the walk under test runs in this
very process, with its real privileges.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def unreadable_directory(path: Path) -> Iterator[Path]:
    """`path` created as a directory that cannot be listed, restored (or unmounted) afterwards."""
    path.mkdir(parents=True)
    if os.geteuid() != 0:
        path.chmod(0)
        try:
            yield path
        finally:
            path.chmod(0o755)
        return
    child = subprocess.Popen(["sleep", "60"], stdin=subprocess.DEVNULL)
    try:
        subprocess.run(["mount", "--bind", f"/proc/{child.pid}", str(path)], check=True, capture_output=True)
    finally:
        child.kill()
        child.wait()
    try:
        with contextlib.suppress(OSError):
            os.listdir(path)
            raise AssertionError(f"{path} is still readable")
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True, capture_output=True)
