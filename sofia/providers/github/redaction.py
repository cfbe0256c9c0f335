"""Secret redaction of texts that come from GitHub (run titles, job and step names, log tails),
counted per call so results can report how many secrets they hid."""

from __future__ import annotations

import threading


class Redactor:
    """Calls the shared secret redactor and counts its replacements; safe across worker threads."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def __call__(self, text: str) -> str:
        if not text:
            return text
        from sofia.output import redact

        cleaned, found = redact.redact(text)
        if found:
            with self._lock:
                self.count += found
        return cleaned
