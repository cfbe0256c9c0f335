"""Timestamps and durations as the cc tools print them (UTC, `Z`)."""

from __future__ import annotations

from datetime import UTC, datetime

DAY = 86400


def parse(value: str) -> float | None:
    """Epoch seconds of an RFC 3339 timestamp with a zone; None for anything else."""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return moment.timestamp()


def seconds(epoch: float | None) -> str:
    """`2026-03-02T09:00:05Z`, or "" when unknown."""
    if epoch is None:
        return ""
    return datetime.fromtimestamp(int(epoch // 1), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def minutes(epoch: float | None) -> str:
    """`2026-03-02T09:12Z`, or "" when unknown."""
    if epoch is None:
        return ""
    return datetime.fromtimestamp(int(epoch // 1), UTC).strftime("%Y-%m-%dT%H:%MZ")


def duration(span: float) -> str:
    """A span or an age as a person says it, in whole units rounded down: `0s`, `42s`, `12m`,
    `3h12m`, `2d5h` (under a week), `292d` (a week or more)."""
    total = int(span // 1)
    if total <= 0:
        return "0s"
    if total < 60:
        return f"{total}s"
    if total < 3600:
        return f"{total // 60}m"
    if total < DAY:
        return f"{total // 3600}h{total % 3600 // 60}m"
    days, hours = total // DAY, total % DAY // 3600
    if days >= 7 or not hours:
        return f"{days}d"
    return f"{days}d{hours}h"
