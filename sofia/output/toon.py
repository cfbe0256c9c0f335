"""TOON rendering through the official `toon-format` package (imported only when used)."""

from __future__ import annotations

from typing import Any


def render(obj: Any) -> str:
    """TOON text of `obj` with the package's default options, ending in a newline."""
    import toon_format

    text: str = toon_format.dumps(obj)
    return text if text.endswith("\n") else text + "\n"
