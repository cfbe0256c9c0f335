"""The ripgrep runs started before the provider ran, waiting to be claimed.

The CLI's head start (`head_start`) puts runs here; the engine (`ripgrep`) takes one only when it
would start exactly the same command in the same directory. Neither module imports the other:
this one imports nothing but the process handle, so the layers stay one-directional.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sofia.runtime import proc

_started: dict[tuple[tuple[str, ...], str], proc.Background] = {}


def offer(command: Sequence[str], cwd: Path, run: proc.Background) -> None:
    """Keep `run` (already started as `command` in `cwd`) for the provider to claim."""
    _started[(tuple(command), str(cwd))] = run


def claim(command: Sequence[str], cwd: Path) -> proc.Background | None:
    """The run started early for exactly `command` in `cwd`, handed over once; None otherwise."""
    return _started.pop((tuple(command), str(cwd)), None)


def discard() -> None:
    """Kill every run nobody claimed (the call failed validation or asked for something else)."""
    while _started:
        _, run = _started.popitem()
        run.kill()
