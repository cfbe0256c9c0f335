"""Classified files kept between calls in a long-lived process (the MCP server's worker): a file
whose size, times and inode are unchanged is not parsed again for the same names under the same
root. Asking a name again, qualified, with another `kinds` filter or beside other names then
costs ripgrep's count and the matching only. Bounded by the bytes of the sources it keeps; the
oldest entries go first."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from sofia.providers.refs.model import Parsed, Stamp

if TYPE_CHECKING:
    from pathlib import Path

MAX_BYTES = 64 * 2**20
"""Source bytes (plus an allowance per occurrence) kept at most."""
PER_OCCURRENCE = 256

Key = tuple[str, bytes, tuple[str, ...]]

_entries: OrderedDict[Key, tuple[Stamp, Parsed, int]] = OrderedDict()
_held = 0
_lock = threading.Lock()


def stamp_of(status: os.stat_result) -> Stamp:
    """What tells a file changed: device, inode, size, modification and change times (ns)."""
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def key_of(cwd: Path, raw: bytes, names: list[str]) -> Key:
    return (str(cwd), raw, tuple(names))


def recall(key: Key, stamp: Stamp) -> Parsed | None:
    """The file classified under `key` when it still has `stamp`, else None."""
    with _lock:
        entry = _entries.get(key)
        if entry is None:
            return None
        if entry[0] != stamp:
            _drop(key)
            return None
        _entries.move_to_end(key)
        return entry[1]


def keep(key: Key, stamp: Stamp, parsed: Parsed) -> None:
    """Remember a classified file; the oldest entries go when the bound is passed."""
    global _held
    size = len(parsed.source) + PER_OCCURRENCE * sum(len(o) for o in parsed.uses.occurrences.values())
    if size > MAX_BYTES:
        return
    with _lock:
        if key in _entries:
            _drop(key)
        _entries[key] = (stamp, parsed, size)
        _held += size
        while _held > MAX_BYTES and _entries:
            _drop(next(iter(_entries)))


def _drop(key: Key) -> None:
    global _held
    _, _, size = _entries.pop(key)
    _held -= size
