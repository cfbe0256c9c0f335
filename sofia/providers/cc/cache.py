"""The parse cache: one JSON entry per transcript, valid while the file and the code are unchanged.

An entry is keyed by the transcript's absolute path, size and mtime_ns plus the parser and redaction
versions; anything else (an unreadable, corrupt or stale entry) is a miss and gets overwritten.
Writes go to a temporary file in the same directory and are renamed into place, so concurrent
workers never see half an entry. Cache trouble never fails a call: it only costs a re-parse.
Only redacted digests are ever stored.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from sofia import settings
from sofia.output.redact import REDACTION_VERSION
from sofia.providers.cc.digest import Digest
from sofia.providers.cc.reader import PARSER_VERSION

log = logging.getLogger("sofia.cc.cache")

SWEEP_EVERY = 86400.0
"""Seconds between sweeps of the cache directory."""
UNUSED_FOR = 30 * 86400.0
"""Entries not used for this long are dropped by the sweep."""
_TOUCH_AFTER = 86400.0
"""A hit refreshes its entry's mtime (the "last used" mark) at most once a day."""
_SWEEP_MARK = ".swept"


def directory() -> Path | None:
    """Where entries live, or None when the cache is switched off (`SOFIA_CC_CACHE=off`)."""
    if not settings.get("SOFIA_CC_CACHE"):
        return None
    base: str = settings.get("SOFIA_CACHE_DIR")
    if base:
        return Path(base).expanduser() / "cc"
    import platformdirs

    return Path(platformdirs.user_cache_dir("sofia")) / "cc"


def _key(path: str, size: int, mtime_ns: int) -> dict[str, Any]:
    return {
        "path": path,
        "size": size,
        "mtime_ns": mtime_ns,
        "parser": PARSER_VERSION,
        "redaction": REDACTION_VERSION,
    }


def _entry_name(path: str) -> str:
    return hashlib.sha256(os.fsencode(path)).hexdigest()[:40] + ".json"


class Cache:
    """Digest entries under one directory; `hits` and `misses` feed the debug log."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.hits = 0
        self.misses = 0
        self.writes = 0
        self._ready = False

    def get(self, path: str, size: int, mtime_ns: int) -> Digest | None:
        if self.root is None:
            return None
        entry = self.root / _entry_name(path)
        try:
            raw = entry.read_bytes()
            data = orjson.loads(raw)
            if data.get("key") != _key(path, size, mtime_ns):
                self.misses += 1
                return None
            digest = Digest.from_json(data["digest"])
        except FileNotFoundError:
            self.misses += 1
            return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.debug("ignoring cache entry %s: %s", entry, exc)
            self.misses += 1
            return None
        self.hits += 1
        self._mark_used(entry)
        return digest

    def put(self, path: str, size: int, mtime_ns: int, digest: Digest) -> None:
        if self.root is None or not self._prepare():
            return
        payload = orjson.dumps({"key": _key(path, size, mtime_ns), "digest": digest.to_json()})
        try:
            handle, temporary = tempfile.mkstemp(dir=self.root, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(payload)
                os.replace(temporary, self.root / _entry_name(path))
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as exc:
            log.debug("cannot write cache entry for %s: %s", path, exc)
            return
        self.writes += 1

    def _prepare(self) -> bool:
        """Create the directory (0700) once, and sweep it when a day has passed."""
        if self._ready:
            return True
        assert self.root is not None
        try:
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(self.root, 0o700)
        except OSError as exc:
            log.debug("cache directory %s unusable: %s", self.root, exc)
            self.root = None
            return False
        self._ready = True
        self._sweep_if_due()
        return True

    def _mark_used(self, entry: Path) -> None:
        with contextlib.suppress(OSError):
            if time.time() - entry.stat().st_mtime > _TOUCH_AFTER:
                os.utime(entry)

    def _sweep_if_due(self) -> None:
        assert self.root is not None
        mark = self.root / _SWEEP_MARK
        now = time.time()
        try:
            if now - mark.stat().st_mtime < SWEEP_EVERY:
                return
        except FileNotFoundError:
            pass
        except OSError:
            return
        with contextlib.suppress(OSError):
            mark.touch(mode=0o600)
            os.utime(mark)
        sweep(self.root, now)


def sweep(root: Path, now: float) -> int:
    """Drop entries (and stray temporary files) unused for 30 days; returns how many went."""
    dropped = 0
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.endswith(".json"):
            continue
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime > UNUSED_FOR:
                os.unlink(entry.path)
                dropped += 1
        except OSError:
            continue
    return dropped
