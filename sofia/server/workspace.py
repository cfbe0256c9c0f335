"""The server's workspace over a session: `--root`, else the client's roots as they change, else the
working directory; and the scope each call gets (see `sofia.server.scope`, `sofia.server.roots`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

from anyio.abc import TaskGroup
from mcp.server.session import ServerSession

from sofia.server import roots
from sofia.server.options import Options
from sofia.server.roots import ClientRoots
from sofia.server.rooturi import Roots
from sofia.server.scope import Scope, home_directory

log = logging.getLogger("sofia.mcp")


class Workspace:
    def __init__(self, options: Options, cwd: Path, group: TaskGroup) -> None:
        self._given = options.roots_given
        self._initial = Scope.started(options.roots, options.roots_given, cwd)
        self.scope = self._initial
        """In force now; replaced, never changed, when the client's roots change."""
        self.home = home_directory()
        self._roots = ClientRoots(group, self._take, self._failed)

    def initialized(self, session: ServerSession) -> None:
        """The client is ready: ask for its roots, if it has any to give and --root did not win."""
        if self._roots.asked or not roots.wanted(session):
            return
        if self._given:
            log.info("--root given: the client's roots are not asked for")
            return
        self._roots.ask(session)

    def changed(self, session: ServerSession) -> None:
        """`notifications/roots/list_changed`: ask again."""
        if self._given:
            log.info("the client's roots changed; --root was given, so they are not used")
        elif roots.wanted(session):
            self._roots.ask(session)

    async def for_call(self, number: int, session: ServerSession) -> Scope:
        """The scope call `number` runs in: once the client's roots are in, or after waiting for them,
        bounded (a call may come before `notifications/initialized` is handled, so it asks too)."""
        self.initialized(session)
        if not await self._roots.settled():
            log.warning(
                "call #%d: no answer to roots/list within %g s; the call uses %s",
                number,
                roots.WAIT_SECONDS,
                self.scope.workspace,
            )
        return self.scope

    def _take(self, listed: Roots) -> None:
        for line in listed.unusable:
            log.warning("a root the client named is not used: %s", line)
        self.scope = self._initial.with_client(listed)
        if self.scope.origin == "client":
            allowed = self.scope.allowed() or (Path("/"),)
            log.info(
                "workspace %s, from the client's roots (allowed: %s)",
                self.scope.workspace,
                ", ".join(str(path) for path in allowed),
            )
        else:
            log.warning("the client named no usable root: the workspace stays %s", self.scope.workspace)

    def _failed(self, why: str) -> None:
        log.warning(
            "the client did not list its roots (%s): the workspace stays %s", why, self.scope.workspace
        )
        if self.scope.origin != "client":
            self.scope = replace(self.scope, unusable=(f"roots/list failed: {why}",))
