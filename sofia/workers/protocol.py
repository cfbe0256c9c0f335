"""The records that cross the process boundary between the server and its workers.

They are pickled by loky, so they stay small, plain and importable without anything heavy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

ReplyKind = Literal["json", "toon", "text", "provider_error", "internal", "timeout", "interrupted", "died"]
"""`json`/`toon`/`text`: a payload; the rest are failures (`died` is only ever made by the server)."""
PayloadFormat = Literal["json", "toon"]
"""How a worker encodes a provider's result (a result the provider sends as text stays text)."""


@dataclass(frozen=True)
class WorkerConfig:
    """What every worker needs at start-up."""

    channel: str | bytes
    """Address of the server's datagram socket (call starts and progress go there)."""
    parent: int
    """The server's pid: a worker whose parent changes exits (no orphans after a SIGKILL)."""
    preload: tuple[str, ...] = ()
    """Provider modules imported before the first call."""
    max_calls: int = 500
    """Calls after which a worker is replaced."""
    max_rss: int = 1 << 30
    """Resident memory in bytes after which a worker is replaced between calls."""


@dataclass(frozen=True)
class CallRequest:
    """One provider call, as a worker runs it."""

    tool: str
    arguments: dict[str, Any]
    root: str
    budget: int | None
    timeout: float
    progress: bool = False
    """Whether the caller listens for progress (otherwise the worker sends none)."""
    allowed: tuple[str, ...] = ()
    """The directories the caller may see (`Context.allowed`); empty: no limit."""
    task: int = 0
    """Unique per submission, so messages about an abandoned attempt are never taken for a new one."""
    payload: PayloadFormat = "json"
    """`toon`: the result as TOON, unless that would cost more tokens than its JSON."""


@dataclass(frozen=True)
class CallReply:
    """What a call produced: a payload (`json`, `toon`, `text`) or a failure with its message."""

    kind: ReplyKind
    payload: bytes = b""
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.kind in ("json", "toon", "text")
