"""The CLI's side of the provider context: progress on a terminal, and yes/no confirmations."""

from __future__ import annotations

import sys

from sofia.providers.contract import ProgressFn

_shown = False


def progress() -> ProgressFn:
    """A progress callback drawing one status line on stderr when it is a terminal, else a no-op."""
    if not sys.stderr.isatty():
        return _silent

    def draw(done: int, total: int | None, message: str) -> None:
        global _shown
        count = f"{done}/{total}" if total else str(done)
        sys.stderr.write(f"\r\033[K[{count}] {message[:100]}")
        sys.stderr.flush()
        _shown = True

    return draw


def _silent(done: int, total: int | None, message: str) -> None:
    return None


def clear_progress() -> None:
    global _shown
    if _shown:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
        _shown = False


def confirm(question: str) -> bool:
    """Ask on the terminal; without one (scripts, agents) the answer is always no."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    clear_progress()
    sys.stderr.write(f"{question} [y/N] ")
    sys.stderr.flush()
    try:
        answer = sys.stdin.readline()
    except (OSError, KeyboardInterrupt):
        return False
    return answer.strip().lower() in ("y", "yes")
