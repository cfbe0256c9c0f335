"""Asking the client for its roots (`roots/list`), again when they change, and waiting for the answer.

The server asks when the client declares the `roots` capability and speaks a protocol version
that has it (roots are deprecated from 2026-07-28 on; a client speaking that version gets the
working directory, as one without roots does), and only without `--root`, which wins. It asks
once the client says it is initialized, or at its first tool call if that comes first, and again
on `notifications/roots/list_changed`; one question is in flight at a time, and a change
announced meanwhile is asked about as soon as the answer is in.

A tool call that arrives while a question is in flight waits for the answer, at most
`WAIT_SECONDS`, so it never walks the working directory the client's roots were about to replace;
once one call has waited that long in vain, the others of that question no longer wait. The
question itself gives up after `ASK_SECONDS`; an answer after a call stopped waiting still serves
the calls after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import mcp_types as types
from anyio.abc import TaskGroup
from mcp.server.session import ServerSession
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ConfigDict

from sofia.errors import bounded
from sofia.server import rooturi
from sofia.server.rooturi import Roots

WAIT_SECONDS = 5.0
"""How long a tool call waits for the client's answer to a question in flight."""
ASK_SECONDS = 30.0
"""How long a `roots/list` question waits for its answer."""


class _Root(BaseModel):
    """A root as the client sends it: any URI (the SDK's own model refuses all but `file:`, and one
    root the server cannot use must not cost the others)."""

    model_config = ConfigDict(extra="allow")
    uri: str


class _Listed(BaseModel):
    model_config = ConfigDict(extra="allow")
    roots: list[_Root]


def wanted(session: ServerSession) -> bool:
    """Whether this client has roots to give, in a protocol version that still asks for them."""
    capabilities = session.client_capabilities
    return (
        capabilities is not None
        and capabilities.roots is not None
        and session.protocol_version not in MODERN_PROTOCOL_VERSIONS
    )


class ClientRoots:
    """The questions to one client, run in the server's task group, their answers handed to `take`
    (the roots read) or `failed` (why there is no answer)."""

    def __init__(
        self,
        group: TaskGroup,
        take: Callable[[Roots], None],
        failed: Callable[[str], None],
    ) -> None:
        self._group = group
        self._take = take
        self._failed = failed
        self.asked = False
        """Whether a question was ever put (a tool call puts the first one if nothing did yet)."""
        self._running = False
        self._again: ServerSession | None = None
        self._done = anyio.Event()
        self._done.set()
        self._overdue = False

    def ask(self, session: ServerSession) -> None:
        """Put the question now, or right after the one in flight; the state changes before this
        returns, so a call that checks next already waits."""
        self.asked = True
        if self._running:
            self._again = session
            return
        self._running = True
        self._overdue = False
        self._done = anyio.Event()
        self._group.start_soon(self._run, session)

    async def settled(self) -> bool:
        """Wait for the answer in flight, if any, at most `WAIT_SECONDS`; False when it did not come."""
        if self._done.is_set():
            return True
        if self._overdue:
            return False
        with anyio.move_on_after(WAIT_SECONDS):
            await self._done.wait()
            return True
        self._overdue = True
        return False

    async def _run(self, session: ServerSession) -> None:
        try:
            while True:
                self._again = None
                try:
                    uris = await _ask(session)
                except Exception as exc:
                    self._failed(_why(exc))
                else:
                    self._take(rooturi.read(uris))
                if self._again is None:
                    return
                session = self._again
        finally:
            self._running = False
            self._done.set()


async def _ask(session: ServerSession) -> list[str]:
    """One `roots/list` round trip: the URIs the client names, in its order."""
    listed = await session.send_request(
        types.ListRootsRequest(), _Listed, request_read_timeout_seconds=ASK_SECONDS
    )
    return [root.uri for root in listed.roots]


def _why(exc: Exception) -> str:
    text: Any = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return bounded(f"{type(exc).__name__}: {text}", 300)
