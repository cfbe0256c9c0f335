"""What ripgrep reports, as the engine's modules share it: one match, and rg's JSON byte fields."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Hit:
    """One match as rg reports it: raw path bytes, 1-based line and byte column, the whole line."""

    path: bytes
    line: int
    col: int
    content: bytes
    """The matched line with its terminator; shared by every hit on that line."""


def data_bytes(field_value: dict[str, Any]) -> bytes:
    """A `{"text": ...}` or `{"bytes": <base64>}` field of rg's JSON as raw bytes."""
    text = field_value.get("text")
    if text is not None:
        return str(text).encode()
    return base64.b64decode(field_value.get("bytes", ""))
