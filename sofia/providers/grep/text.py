"""The `text` of a hit: its line without terminator or surrounding whitespace, windowed to 200
characters around the match start when longer, so a minified 5 MB line costs one short row."""

from __future__ import annotations

WIDTH = 200
"""Characters of line text shown at most (plus one `…` on each cut side)."""
LEAD = 60
"""Characters kept before the match start when a long line is windowed."""
_CHUNK = 4 * WIDTH
"""Bytes decoded on each side of the match in a long line: at least WIDTH characters of UTF-8."""
_SHORT = 2 * _CHUNK


def hit_text(content: bytes, start: int) -> str:
    """The shown text of a hit whose match starts at byte `start` of the line `content`."""
    end = len(content)
    if content.endswith(b"\n"):
        end -= 1
    if end <= _SHORT:
        text = content[:end].decode("utf-8", "replace")
        at = len(content[: min(start, end)].decode("utf-8", "replace"))
        return _window(text, at, cut_left=False, cut_right=False)
    low = _char_start(content, max(0, start - _CHUNK), end)
    high = _char_start(content, min(end, max(start, low) + _CHUNK), end)
    text = content[low:high].decode("utf-8", "replace")
    at = len(content[low : max(low, start)].decode("utf-8", "replace"))
    window = _window(text, at, cut_left=low > 0, cut_right=high < end)
    return window


def _char_start(content: bytes, index: int, end: int) -> int:
    """`index` moved forward to the first byte that is not a UTF-8 continuation byte."""
    while index < end and content[index] & 0xC0 == 0x80:
        index += 1
    return index


def _window(text: str, at: int, *, cut_left: bool, cut_right: bool) -> str:
    """At most WIDTH characters of `text` holding position `at`; `…` marks text left out."""
    if not cut_left:
        stripped = text.lstrip()
        at -= len(text) - len(stripped)
        text = stripped
    if not cut_right:
        text = text.rstrip()
    at = min(max(at, 0), len(text))
    if not cut_left and not cut_right and len(text) <= WIDTH:
        return text
    begin = max(0, at - LEAD)
    finish = min(len(text), begin + WIDTH)
    begin = max(0, finish - WIDTH)
    left = "…" if cut_left or text[:begin].strip() else ""
    right = "…" if cut_right or text[finish:].strip() else ""
    return left + text[begin:finish] + right
