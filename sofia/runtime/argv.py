"""Splitting a long list of arguments over several runs of one command, so a caller's 10,000
paths never meet the kernel's `Argument list too long` (E2BIG).

The kernel bounds the whole of argv plus the environment (`ARG_MAX`, 2 MiB on Linux by default)
and every single string (128 KiB). A caller keeps each item short (path parameters are at most
4,095 bytes) and lets `chunks` decide how many items one run may carry.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

POINTER = 8
"""Bytes the kernel counts per argument besides its text (the argv pointer)."""
FALLBACK_ARG_MAX = 128 * 1024
"""What POSIX guarantees when the system does not say (`_POSIX_ARG_MAX` is 4 KiB; every
system sofia runs on allows far more, this is a safe middle)."""


def arg_max() -> int:
    """The system's limit on argv plus environment, in bytes."""
    try:
        value = os.sysconf("SC_ARG_MAX")
    except (AttributeError, ValueError, OSError):
        return FALLBACK_ARG_MAX
    return value if value > 0 else FALLBACK_ARG_MAX


def cost(item: str) -> int:
    """Bytes one argument takes in the kernel's count."""
    return len(os.fsencode(item)) + 1 + POINTER


def room(fixed: Sequence[str], env: Mapping[str, str] | None = None) -> int:
    """Bytes left for further arguments after `fixed` and the environment: half of what the
    system allows, so a larger environment in a child or a different limit elsewhere still fits."""
    environ = os.environ if env is None else env
    used = sum(cost(item) for item in fixed)
    used += sum(cost(f"{key}={value}") for key, value in environ.items())
    return max(0, arg_max() // 2 - used)


def chunks(items: Sequence[str], limit: int) -> list[list[str]]:
    """`items` in order, split into the fewest consecutive runs of at most `limit` bytes each
    (one item longer than `limit` still gets a run of its own). No items: one empty run."""
    runs: list[list[str]] = [[]]
    size = 0
    for item in items:
        item_cost = cost(item)
        if runs[-1] and size + item_cost > limit:
            runs.append([])
            size = 0
        runs[-1].append(item)
        size += item_cost
    return runs


__all__ = ["arg_max", "chunks", "cost", "room"]
