"""Driving the real `sf mcp` over real pipes with the MCP SDK's own client.

`connect` uses the SDK's `stdio_client` as is. `spawn` runs the server under a plain process
handle (the same `ClientSession` over the pipes) for the tests that watch the process itself:
how it exits, and what it leaves behind.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import psutil
from anyio.abc import Process
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.session import IncomingMessage
from mcp.shared.message import SessionMessage

REPO = Path(__file__).resolve().parents[2]
TEST_PROVIDERS = "tests.server.faulty"
TABULAR = (
    "grep",
    "cc_ls",
    "cc_bash",
    "composer_ls",
    "changed",
    "vue_routes",
    "github_ci",
    "github_pr",
    "github_branches",
)
"""Tools whose results are mostly tables: TOON is always the smaller payload for them (the payload
test asserts it, the payload benchmark measures it)."""
RAW_WAIT = 60.0
"""Seconds a raw client waits for an answer: generous, it only keeps a broken server from hanging."""


def server_env(test_providers: bool = True, **extra: str) -> dict[str, str]:
    """The test environment for a server: this checkout importable, fault providers registered."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    env.pop("SOFIA_TEST_PROVIDERS", None)
    if test_providers:
        env["SOFIA_TEST_PROVIDERS"] = TEST_PROVIDERS
    env.update(extra)
    return env


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "sofia", "mcp", *args]


@dataclass
class Connection:
    session: ClientSession
    stderr: Path
    faults: list[Exception] = field(default_factory=list)
    """Transport faults the client saw: anything on stdout that is not a protocol message."""

    def log(self) -> str:
        return self.stderr.read_text(errors="replace")

    async def call(
        self, tool: str, arguments: dict[str, Any] | None = None, **kw: Any
    ) -> types.CallToolResult:
        return await self.session.call_tool(tool, arguments or {}, read_timeout_seconds=60, **kw)


def text(result: types.CallToolResult) -> str:
    assert len(result.content) == 1, result.content
    block = result.content[0]
    assert isinstance(block, types.TextContent), block
    return block.text


@asynccontextmanager
async def connect(
    cwd: Path, *args: str, env: dict[str, str] | None = None, stderr: Path | None = None
) -> AsyncIterator[Connection]:
    """An initialized session with `sf mcp ARGS` running in `cwd`, through the SDK's stdio client."""
    log_path = stderr or cwd.parent / f"mcp-stderr-{time.monotonic_ns()}.log"
    params = StdioServerParameters(
        command=sys.executable, args=command(*args)[1:], cwd=cwd, env=env or server_env()
    )
    with log_path.open("w") as errlog:
        connection: Connection | None = None

        async def on_message(message: IncomingMessage) -> None:
            if isinstance(message, Exception) and connection is not None:
                connection.faults.append(message)

        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, message_handler=on_message) as session,
        ):
            connection = Connection(session, log_path)
            await session.initialize()
            yield connection


@dataclass
class Spawned:
    session: ClientSession
    process: Process
    stderr: Path
    bad_lines: list[str] = field(default_factory=list)
    """Lines on the server's stdout that are not protocol messages."""
    sent: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)

    def log(self) -> str:
        return self.stderr.read_text(errors="replace")

    def request_id(self, method: str, name: str) -> Any:
        """The id of the last request sent for `method` (and tool `name`)."""
        for message in reversed(self.sent):
            if message.get("method") == method and message.get("params", {}).get("name") == name:
                return message["id"]
        raise LookupError(f"no {method} {name} sent")

    def responses_to(self, request_id: Any) -> list[dict[str, Any]]:
        return [m for m in self.received if "method" not in m and m.get("id") == request_id]

    def descendants(self) -> list[psutil.Process]:
        try:
            return psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    async def wait(self, seconds: float) -> int | None:
        """The exit status once the server has exited, or None if it is still running after `seconds`."""
        with anyio.move_on_after(seconds):
            return await self.process.wait()
        return None


@asynccontextmanager
async def spawn(
    cwd: Path, *args: str, env: dict[str, str] | None = None, log: Path | None = None
) -> AsyncIterator[Spawned]:
    """`sf mcp ARGS` as a plain child process with its own session, driven by the SDK's ClientSession;
    its stderr goes to `log` (default: a file beside `cwd`)."""
    log_path = log or cwd.parent / f"mcp-stderr-{time.monotonic_ns()}.log"
    with log_path.open("w") as errlog:
        process = await anyio.open_process(
            command(*args),
            cwd=cwd,
            env=env or server_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errlog,
            start_new_session=True,
        )
        to_client, from_server = anyio.create_memory_object_stream[SessionMessage | Exception](100)
        to_server, from_client = anyio.create_memory_object_stream[SessionMessage](100)
        spawned: Spawned | None = None
        bad_lines: list[str] = []
        sent: list[dict[str, Any]] = []
        received: list[dict[str, Any]] = []

        async def pump_out() -> None:
            assert process.stdout is not None
            buffer = b""
            async with to_client:
                async for chunk in process.stdout:
                    buffer += chunk
                    *lines, buffer = buffer.split(b"\n")
                    for line in lines:
                        try:
                            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                        except ValueError as exc:
                            bad_lines.append(line.decode(errors="replace"))
                            await to_client.send(exc)
                        else:
                            received.append(json.loads(line))
                            await to_client.send(SessionMessage(message))

        async def pump_in() -> None:
            assert process.stdin is not None
            async with from_client:
                async for item in from_client:
                    data = item.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    sent.append(json.loads(data))
                    try:
                        await process.stdin.send(data.encode())
                    except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                        return

        try:
            async with anyio.create_task_group() as group:
                group.start_soon(pump_out)
                group.start_soon(pump_in)
                async with ClientSession(from_server, to_server) as session:
                    spawned = Spawned(session, process, log_path, bad_lines, sent, received)
                    await session.initialize()
                    yield spawned
                group.cancel_scope.cancel()
        finally:
            if process.returncode is None:
                for child in spawned.descendants() if spawned else []:
                    child.kill()
                process.kill()
                with anyio.CancelScope(shield=True):
                    await process.wait()


class RawClient:
    """`sf mcp` on real pipes, written to byte for byte; every line it prints is kept."""

    def __init__(self, cwd: Path, *args: str, stderr: Any = None) -> None:
        """`sf mcp ARGS` in `cwd`; its stderr goes to `stderr` (a pipe, say), else to a log file."""
        self.process = subprocess.Popen(
            command(*args),
            cwd=cwd,
            env=server_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=(cwd / "stderr.log").open("wb") if stderr is None else stderr,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw)

    def initialize(self) -> None:
        self.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}).encode())  # fmt: skip
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        (answer,) = self.receive(lambda got: len(got) == 1)
        assert answer["result"]["serverInfo"]["name"] == "sofia", answer

    def call(self, request_id: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Send one tools/call and wait for its answer (other answers are not expected meanwhile)."""
        self.send(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                              "params": {"name": tool, "arguments": arguments}}).encode())  # fmt: skip
        (answer,) = self.receive(lambda got: any(m.get("id") == request_id for m in got))
        return answer

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def receive(self, until: Callable[[list[Any]], bool]) -> list[Any]:
        """Messages printed until `until(messages so far)` holds; each line must be JSON."""
        got: list[Any] = []
        deadline = time.monotonic() + RAW_WAIT
        while not until(got):
            left = deadline - time.monotonic()
            assert left > 0, f"no complete answer after {RAW_WAIT} s; got {got}"
            try:
                raw = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            assert len(raw) < 10_000, f"an answer of {len(raw):,} bytes: {raw[:300]!r}"
            got.append(json.loads(raw))
        return got


def wait_gone(pids: list[int], seconds: float) -> list[int]:
    """The pids among `pids` still alive (zombies count as gone) after waiting up to `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        alive = [pid for pid in pids if _alive(pid)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
