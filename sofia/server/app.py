"""The MCP stdio front-end: tool list, argument checks, dispatch to the worker pool, results.

Reads top to bottom: `run` claims stdout and starts the event loop, `serve` wires the SDK's
low-level server to a `Frontend`, whose `call_tool` validates, confines, dispatches and turns
every outcome into a result. A tool failure is always an `isError` result, never a JSON-RPC
error and never the end of the server; only an unknown tool name is a protocol error.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing.util
import os
import signal
import sys
import time
from contextlib import suppress
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, NoReturn

import anyio
import mcp_types as types
import orjson
from anyio.abc import TaskGroup
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from sofia import __version__
from sofia.errors import quote, render
from sofia.output.tokens import estimate
from sofia.providers.params import call_budget
from sofia.providers.registry import Provider
from sofia.server import stderr
from sofia.server.budget import fit_error
from sofia.server.dedup import Dedup
from sofia.server.options import Options
from sofia.server.stdio import LineReader, LineWriter, Wire, claim
from sofia.server.tools import TITLE, ToolSpec, build, instructions
from sofia.server.transport import stdio_transport
from sofia.server.validation import validate
from sofia.server.workspace import Workspace
from sofia.workers.pool import WorkerPool
from sofia.workers.protocol import CallReply, CallRequest
from sofia.workers.report import describe

log = logging.getLogger("sofia.mcp")


def run(options: Options, providers: list[Provider]) -> int:
    """`sf mcp`: claim the protocol descriptors, serve `providers` until EOF or a signal, exit 0."""
    try:
        wire = claim()
    except OSError as exc:
        print(
            f"sf mcp: error: stdin and stdout must be open (the client talks over them): {exc}",
            file=sys.stderr,
        )
        return 1
    stderr.install_logging(options.log_level)
    anyio.run(serve, options, wire, providers)
    return _exit()


async def serve(options: Options, wire: Wire, providers: list[Provider]) -> None:
    pool = WorkerPool(
        options.workers,
        preload=[*sorted({provider.module_path for provider in providers}), *_encoders(options)],
        max_calls=options.max_calls,
        max_rss=options.max_rss,
    )
    reader, writer = LineReader(wire.input), LineWriter(wire.output)
    await reader.open()
    await writer.open()
    try:
        async with anyio.create_task_group() as group:
            frontend = Frontend(options, providers, Path(os.path.realpath(os.getcwd())), pool, group)
            server = _server(frontend, options, providers)
            group.start_soon(_stop_on_signal, group.cancel_scope)
            async with stdio_transport(reader, writer) as (read, write):
                await server.run(read, write, server.create_initialization_options())
            log.info("stdin closed: stopping")
            group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await pool.close()
        reader.restore()
        writer.restore()


def _server(frontend: Frontend, options: Options, providers: list[Provider]) -> Server[Any]:
    """The SDK's low-level server, every handler the frontend's."""
    server: Server[Any] = Server(
        "sofia",
        version=__version__,
        title=TITLE,
        instructions=instructions(providers, options.payload),
        on_list_tools=frontend.list_tools,
        on_call_tool=frontend.call_tool,
    )
    server.add_notification_handler(
        "notifications/initialized", types.NotificationParams, frontend.initialized
    )
    # Registered by hand: the constructor's hook for it warns that roots are deprecated (2026-07-28),
    # and the clients that have them speak the versions before.
    server.add_notification_handler(
        "notifications/roots/list_changed", types.NotificationParams, frontend.roots_changed
    )
    server.middleware = []
    return server


def _encoders(options: Options) -> list[str]:
    """Modules the workers import at start for the payload format (the TOON encoder)."""
    return ["toon_format"] if options.payload == "toon" else []


async def _stop_on_signal(scope: anyio.CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async for signum in signals:
            log.info("%s: stopping", signal.Signals(signum).name)
            scope.cancel()
            return


def _exit() -> NoReturn:
    """Exit 0 now. Workers are stopped and the streams flushed; what remains is the interpreter's
    teardown of the SDK's large import graph, which alone takes about a second on a busy machine."""
    # The pool's semaphores unregister from loky's resource tracker (otherwise it warns of leaks).
    multiprocessing.util._run_finalizers(0)  # type: ignore[attr-defined]
    logging.shutdown()
    sys.stderr.flush()
    stderr.flush(1.0)
    os._exit(0)


@dataclass(frozen=True)
class Answer:
    result: types.CallToolResult
    status: str
    size: int = 0


class Frontend:
    """Everything between the protocol and the pool: one instance per server (one connection)."""

    def __init__(
        self,
        options: Options,
        providers: list[Provider],
        cwd: Path,
        pool: WorkerPool,
        group: TaskGroup,
    ) -> None:
        self.options = options
        self.providers = providers
        self.pool = pool
        self.workspace = Workspace(options, cwd, group)
        self.dedup = Dedup()
        self._numbers = itertools.count(1)

    @cached_property
    def specs(self) -> dict[str, ToolSpec]:
        """Built on first use, not before `initialize` is answered: it imports every provider module."""
        return build(self.providers)

    async def initialized(self, ctx: ServerRequestContext[Any], params: types.NotificationParams) -> None:
        """The client has its `initialize` answer: now warm the workers and ask for its roots."""
        self.pool.start()
        self.workspace.initialized(ctx.session)

    async def roots_changed(self, ctx: ServerRequestContext[Any], params: types.NotificationParams) -> None:
        self.workspace.changed(ctx.session)

    async def list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        self.pool.start()
        return types.ListToolsResult(tools=[spec.definition for spec in self.specs.values()])

    async def call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        spec = self.specs.get(params.name)
        if spec is None:
            raise MCPError(
                types.INVALID_PARAMS, f"unknown tool: {quote(params.name)}; tools/list names the tools"
            )
        number = next(self._numbers)
        started = time.monotonic()
        status, size = "cancelled", 0
        try:
            answer = await self._answer(number, spec, params.arguments or {}, ctx)
            status, size = answer.status, answer.size
            return fit_error(answer.result, self.options.budget)
        except Exception as exc:
            log.exception("call #%d %s failed in the server", number, spec.name)
            status = "internal"
            return _error(f"internal error in {spec.name}: {describe(exc)}")
        finally:
            elapsed = (time.monotonic() - started) * 1000
            log.info("call #%d %s %.0f ms %d B %s", number, spec.name, elapsed, size, status)

    async def _answer(
        self, number: int, spec: ToolSpec, arguments: dict[str, Any], ctx: ServerRequestContext[Any]
    ) -> Answer:
        params, problems = validate(spec.model, arguments)
        if params is None:
            return Answer(_error("\n".join(problems)), "invalid")
        scope = await self.workspace.for_call(number, ctx.session)
        extra = spec.provider.extra_roots()
        refusal = scope.confinement.refusal(params, extra) or scope.wide_refusal(params, self.workspace.home)
        if refusal is not None:
            return Answer(_error(refusal), "refused")
        timeout = self.options.timeout or call_timeout(spec.provider.timeout, params)
        request = CallRequest(
            tool=spec.name,
            arguments=params.model_dump(mode="json", exclude_unset=True),
            root=str(scope.workspace),
            budget=self.options.budget,
            timeout=timeout,
            progress=_wants_progress(ctx),
            allowed=tuple(str(root) for root in scope.allowed(extra)),
            payload=self.options.payload,
        )
        reply = await self._dispatch(request, spec, ctx)
        return self._outcome(number, spec, params, reply, timeout)

    async def _dispatch(
        self, request: CallRequest, spec: ToolSpec, ctx: ServerRequestContext[Any]
    ) -> CallReply:
        """Run the call in the pool, relaying its progress reports while it runs."""
        resubmittable = spec.provider.annotations.idempotent
        if not request.progress:
            return await self.pool.run(request, resubmittable=resubmittable)
        send, receive = anyio.create_memory_object_stream[tuple[float, float | None, str]](
            max_buffer_size=1000
        )

        def offer(done: float, total: float | None, message: str) -> None:
            with suppress(anyio.WouldBlock, anyio.ClosedResourceError, anyio.BrokenResourceError):
                send.send_nowait((done, total, message))

        async def relay() -> None:
            async with receive:
                async for done, total, message in receive:
                    await ctx.session.report_progress(done, total, message or None)

        async with anyio.create_task_group() as group:
            group.start_soon(relay)
            with send:
                reply = await self.pool.run(request, resubmittable=resubmittable, progress=offer)
        return reply

    def _outcome(
        self, number: int, spec: ToolSpec, params: BaseModel, reply: CallReply, timeout: float
    ) -> Answer:
        name = spec.name
        if reply.ok:
            return self._payload(number, spec, params, reply.payload)
        if reply.kind == "provider_error":
            return Answer(_error(render(reply.message)), "error")
        if reply.kind == "timeout":
            return Answer(
                _error(
                    f"{name} timed out after {timeout:g} s; narrow the call (fewer inputs, a narrower root "
                    "or path) or start the server with a longer --timeout"
                ),
                "timeout",
            )
        if reply.kind == "died":
            return Answer(
                _error(f"worker running {name} died ({reply.message}); the server recovered"), "died"
            )
        if reply.kind == "interrupted":
            return Answer(_error(f"{name} was interrupted: the server is stopping"), "interrupted")
        return Answer(_error(f"internal error in {name}: {reply.message}"), "internal")

    def _payload(self, number: int, spec: ToolSpec, params: BaseModel, payload: bytes) -> Answer:
        budget = self.options.budget
        tokens = estimate(payload)
        if budget is not None and tokens > budget:
            return Answer(
                _error(
                    f"{spec.name} returned about {tokens:,} estimated tokens ({len(payload):,} bytes), over "
                    f"the output budget of {budget:,}; narrow the call (fewer files or patterns, a narrower "
                    "root or path)"
                ),
                "oversize",
                len(payload),
            )
        bypass = spec.provider.dedup_bypass
        if bypass:
            key = (
                spec.name
                + orjson.dumps(
                    params.model_dump(mode="json", exclude={bypass}), option=orjson.OPT_SORT_KEYS
                ).decode()
            )
            forced = bool(getattr(params, bypass, False))
            stub = self.dedup.stub(key, payload, number, force=forced, bypass=bypass)
            if stub is not None:
                return Answer(_text(stub), "stub", len(payload))
        return Answer(_text(payload.decode("utf-8", "replace")), "ok", len(payload))


def _wants_progress(ctx: ServerRequestContext[Any]) -> bool:
    meta = ctx.meta or {}
    return meta.get("progress_token") is not None


def _text(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def call_timeout(default: float, params: BaseModel) -> float:
    """A tool's deadline for one call: its own, or longer when the call asks for a longer whole-call
    budget of its own (a field marked `CallBudget`), which must fit inside it."""
    longest = default
    for name, field in type(params).model_fields.items():
        marker = call_budget(field)
        budget = getattr(params, name, None)
        if marker is not None and isinstance(budget, int | float) and not isinstance(budget, bool):
            longest = max(longest, float(budget) + marker.margin)
    return longest
