"""Exceptions as the server and its workers report them: bounded, whatever the exception holds.

An exception's message often quotes the input that caused it (`File name too long: '<50 MB>'`);
reported whole it would make a 50-million-character error and a traceback of the same size on
stderr. Here the message is cut like any quoted input (`sofia.errors.quote`), every traceback
line is cut to TRACEBACK_LINE characters, and a traceback keeps at most TRACEBACK_LINES lines.
"""

from __future__ import annotations

import sys
import traceback
from typing import TextIO

from sofia.errors import bounded, quote

MESSAGE_CHARS = 300
"""Characters of an exception's message kept in `internal error in X: Type: message`."""
TRACEBACK_LINE = 1000
"""Characters of one traceback line kept on stderr."""
TRACEBACK_LINES = 200
"""Lines of one traceback kept on stderr (the first half and the last half)."""


def describe(exc: BaseException) -> str:
    """`Type: message`, the message cut to MESSAGE_CHARS characters with its full length."""
    message = str(exc)
    name = type(exc).__name__
    return f"{name}: {quote(message, MESSAGE_CHARS)}" if message else name


def format_traceback(exc: BaseException) -> str:
    """`exc`'s traceback (with its causes) as `traceback` prints it, bounded; ends with a newline."""
    try:
        text = "".join(traceback.format_exception(exc))
    except Exception as failure:  # an exception whose __str__ raises, for one
        text = f"{type(exc).__name__} (its traceback could not be formatted: {type(failure).__name__})\n"
    return bound_lines(text)


def bound_lines(text: str) -> str:
    """`text` with each line cut to TRACEBACK_LINE characters and at most TRACEBACK_LINES lines."""
    lines = [bounded(line, TRACEBACK_LINE) for line in text.splitlines()]
    if len(lines) > TRACEBACK_LINES:
        half = TRACEBACK_LINES // 2
        lines = [*lines[:half], f"… ({len(lines) - 2 * half:,} lines left out)", *lines[-half:]]
    return "\n".join(lines) + "\n"


def print_traceback(exc: BaseException, file: TextIO | None = None) -> None:
    """Print `exc`'s bounded traceback to `file` (stderr); never raises."""
    try:
        (file or sys.stderr).write(format_traceback(exc))
        (file or sys.stderr).flush()
    except (OSError, ValueError):
        pass
