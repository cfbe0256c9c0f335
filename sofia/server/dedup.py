"""The repeat-call stub: an identical call whose payload is byte-identical to one
returned moments ago on this connection gets a one-line pointer instead of the same text again.

Comparing payloads (not just arguments) means a file that changed in between never gets a stub.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

WINDOW_SECONDS = 180.0


@dataclass(frozen=True)
class _Returned:
    call: int
    when: float
    digest: bytes


class Dedup:
    def __init__(self, window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self._clock = clock
        self._returned: dict[str, _Returned] = {}

    def stub(self, key: str, payload: bytes, call: int, *, force: bool, bypass: str) -> str | None:
        """The stub when `payload` was already returned for `key` within the window; else remembers it."""
        now = self._clock()
        self._returned = {k: r for k, r in self._returned.items() if now - r.when <= self.window}
        digest = hashlib.blake2b(payload, digest_size=16).digest()
        earlier = self._returned.get(key)
        if earlier is not None and earlier.digest == digest and not force:
            return (
                f"already returned in call #{earlier.call} ({now - earlier.when:.0f}s ago) — unchanged; "
                f"pass {bypass}=true to get it again"
            )
        self._returned[key] = _Returned(call, now, digest)
        return None
