"""The one token estimate used for budgets, compact-or-raw decisions and token-economy figures.

ASCII code points / 4 (rounded half up) plus 1 per non-ASCII code point; for bytes, every
undecodable byte counts as one non-ASCII unit. It is the estimate of sofia's Go original
(`pkg/tokens` of github.com/sofia-ctx/sofia, whose cc tools measured tool results with it), so
figures measured there and here compare.
"""

from __future__ import annotations


def estimate(text: str | bytes) -> int:
    """Estimated tokens of `text`: `estimate("1234567890") == 3`, `estimate("привет") == 6`."""
    if isinstance(text, bytes):
        if text.isascii():
            return (len(text) + 2) // 4
        text = text.decode("utf-8", "surrogateescape")
    if text.isascii():
        return (len(text) + 2) // 4
    ascii_count = len(text.encode("ascii", "ignore"))
    return (ascii_count + 2) // 4 + (len(text) - ascii_count)
