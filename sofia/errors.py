"""sofia's one exception hierarchy, and the one way an error message quotes what the caller sent.

Every layer imports from here (it imports nothing of sofia), so a lower layer (`runtime`) never
reaches up into `providers` for an exception type.
"""

from __future__ import annotations

QUOTE_LIMIT = 200
"""Characters of one input value an error message may quote."""
MESSAGE_LIMIT = 2000
"""Characters of a whole message or hint, whatever it quotes: the last line of defence."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` as an error message may show it: whole when short, else its head and its full length.

    `quote("x" * 50_000)` is `'xxx…' (50,000 characters)`: a 50 MB path never becomes a 50 MB error.
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def bounded(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` cut to `limit` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… (message cut: {len(text):,} characters)"


class SofiaError(Exception):
    """Base of every error sofia raises on purpose."""


class ProviderError(SofiaError):
    """A problem the user can fix: `message` names it and the offending value, `hint` says how."""

    def __init__(self, message: str, hint: str = "") -> None:
        message, hint = bounded(message), bounded(hint)
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class UsageError(SofiaError):
    """Bad command-line input or setting: the command exits with status 2."""

    def __init__(self, message: str) -> None:
        super().__init__(bounded(message))


class DeadlineExceeded(SofiaError):
    """Raised inside a provider when its call deadline has passed."""
