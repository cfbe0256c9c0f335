"""TOON rendering through the official `toon-format` package (imported only when used)."""

from __future__ import annotations

from typing import Any

from sofia.output.tokens import estimate


def render(obj: Any) -> str:
    """TOON text of `obj` with the package's default options, ending in a newline."""
    import toon_format

    text: str = toon_format.dumps(obj)
    return text if text.endswith("\n") else text + "\n"


def payload(document: bytes) -> str | None:
    """The TOON form of a compact JSON payload, or None when JSON is the better payload.

    It is the package's generic encoding of the very document a client parses from `document`
    (not of the Python object it came from), so decoding it gives back exactly that document.
    None when it would cost more estimated tokens than `document` itself, when the document has
    no TOON form, or when its TOON form is empty (`{}`: an empty text would read as no answer).
    """
    import toon_format

    from sofia.output.jsonfmt import loads

    try:
        text: str = toon_format.dumps(loads(document))
    except (TypeError, ValueError):
        return None
    return text if text and estimate(text) <= estimate(document) else None
