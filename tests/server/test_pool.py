"""The worker pool under stress, end to end: concurrency limits, cancellation, deadlines in
Python and in C, workers dying mid-call, recycling."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from anyio.abc import TaskStatus
from mcp import ClientSession

from tests.server.harness import Connection, connect, server_env, spawn, text, wait_gone

pytestmark = pytest.mark.anyio


class Background:
    """A tool call running in the background that knows when its provider has started."""

    def __init__(self, session: ClientSession, tool: str, arguments: dict[str, Any]) -> None:
        self.session, self.tool, self.arguments = session, tool, arguments
        self.started = anyio.Event()
        self.scope = anyio.CancelScope()
        self.result: types.CallToolResult | None = None

    async def _progress(self, progress: float, total: float | None, message: str | None) -> None:
        if message == "started":
            self.started.set()

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        with self.scope:
            task_status.started()
            self.result = await self.session.call_tool(
                self.tool, self.arguments, read_timeout_seconds=120, progress_callback=self._progress
            )

    async def until_started(self) -> None:
        with anyio.fail_after(60):
            await self.started.wait()


def payload(result: types.CallToolResult | None) -> dict[str, Any]:
    assert result is not None
    assert not result.is_error, text(result)
    decoded: dict[str, Any] = json.loads(text(result))
    return decoded


async def worker_pid(connection: Connection | Any) -> int:
    session = connection.session
    result = await session.call_tool("test_pid", {}, read_timeout_seconds=60)
    pid: int = payload(result)["pid"]
    return pid


async def test_eight_concurrent_calls_on_two_workers_run_two_at_a_time(tmp_path: Path) -> None:
    async with connect(tmp_path, "--workers", "2", "--tools", "test") as server:
        results: list[types.CallToolResult] = []

        async def call(label: str) -> None:
            results.append(await server.call("test_sleep", {"seconds": 0.4, "label": label}))

        async with anyio.create_task_group() as group:
            for i in range(8):
                group.start_soon(call, str(i))
    runs = [payload(r) for r in results]
    assert sorted(run["label"] for run in runs) == [str(i) for i in range(8)]
    assert len({run["pid"] for run in runs}) <= 2
    events = sorted([(run["start"], 1) for run in runs] + [(run["end"], -1) for run in runs])
    running, most = 0, 0
    for _, step in events:
        running += step
        most = max(most, running)
    assert most == 2


async def test_cancelling_a_running_call_interrupts_it_and_sends_no_response(tmp_path: Path) -> None:
    async with spawn(tmp_path, "--workers", "1", "--tools", "test") as server:
        before = await worker_pid(server)
        call = Background(server.session, "test_sleep", {"seconds": 3})
        async with anyio.create_task_group() as group:
            await group.start(call.run)
            await call.until_started()
            call.scope.cancel()
        cancelled_id = server.request_id("tools/call", "test_sleep")
        # One worker: this runs only once the slot is free, and ends after the cancelled call would have.
        after = await server.session.call_tool("test_sleep", {"seconds": 3.5}, read_timeout_seconds=60)
        assert not after.is_error
        assert await worker_pid(server) == before  # interrupted in Python: the worker lives on
        assert call.result is None
        assert server.responses_to(cancelled_id) == []
        assert server.bad_lines == []


async def test_cancelling_a_call_stuck_in_c_kills_its_worker_and_frees_the_slot(tmp_path: Path) -> None:
    async with connect(tmp_path, "--workers", "1", "--tools", "test") as server:
        before = await worker_pid(server)
        call = Background(server.session, "test_spin", {})
        async with anyio.create_task_group() as group:
            await group.start(call.run)
            await call.until_started()
            call.scope.cancel()
        # The spin would take minutes; the slot must be free again long before.
        echoed = await server.call("test_echo", {"text": "free"})
        assert text(echoed) == '{"text":"free"}'
        assert await worker_pid(server) != before
        assert call.result is None


async def test_cancelling_a_queued_call_drops_it(tmp_path: Path) -> None:
    async with connect(tmp_path, "--workers", "1", "--tools", "test", "--log-level", "info") as server:
        first = Background(server.session, "test_sleep", {"seconds": 1.5, "label": "first"})
        queued = Background(server.session, "test_sleep", {"seconds": 60, "label": "queued"})
        async with anyio.create_task_group() as group:
            await group.start(first.run)
            await first.until_started()
            await group.start(queued.run)
            await anyio.sleep(0.2)
            queued.scope.cancel()
        assert payload(first.result)["label"] == "first"
        assert text(await server.call("test_echo", {"text": "next"})) == '{"text":"next"}'
        assert queued.result is None and not queued.started.is_set()
        assert any(
            line.endswith(" cancelled") and " test_sleep " in line for line in server.log().splitlines()
        )


async def test_a_deadline_in_python_code_interrupts_the_call_not_the_worker(tmp_path: Path) -> None:
    async with connect(tmp_path, "--workers", "1", "--timeout", "1", "--tools", "test") as server:
        before = await worker_pid(server)
        result = await server.call("test_sleep", {"seconds": 30})
        assert result.is_error
        assert text(result).startswith("test_sleep timed out after 1 s; narrow the call")
        assert await worker_pid(server) == before


async def test_a_call_stuck_in_c_is_killed_with_its_children_and_others_survive(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    async with connect(tmp_path, "--workers", "2", "--timeout", "2", "--tools", "test") as server:
        results: dict[str, types.CallToolResult] = {}

        async def call(key: str, tool: str, arguments: dict[str, Any]) -> None:
            results[key] = await server.call(tool, arguments)

        async with anyio.create_task_group() as group:
            group.start_soon(call, "spin", "test_spin", {"pidfile": str(pidfile)})
            group.start_soon(call, "sleep", "test_sleep", {"seconds": 1.5, "label": "bystander"})
        assert results["spin"].is_error
        assert text(results["spin"]).startswith("test_spin timed out after 2 s")
        assert payload(results["sleep"])["label"] == "bystander"
        assert wait_gone([int(pidfile.read_text())], 5) == []
        assert text(await server.call("test_echo", {"text": "after"})) == '{"text":"after"}'


@pytest.fixture(scope="module")
async def three_workers(tmp_path_factory: pytest.TempPathFactory) -> Any:
    async with connect(tmp_path_factory.mktemp("crash"), "--workers", "3", "--tools", "test") as server:
        yield server


@pytest.mark.parametrize(
    ("how", "named"), [("segv", "SIGSEGV"), ("exit", "exit code 3"), ("kill", "SIGKILL")]
)
async def test_a_worker_dying_mid_call_fails_only_its_own_call(
    three_workers: Connection, how: str, named: str
) -> None:
    server = three_workers
    results: dict[str, types.CallToolResult] = {}

    async def call(key: str, tool: str, arguments: dict[str, Any]) -> None:
        results[key] = await server.call(tool, arguments)

    async with anyio.create_task_group() as group:
        group.start_soon(call, "a", "test_sleep", {"seconds": 1.0, "label": "a"})
        group.start_soon(call, "b", "test_sleep", {"seconds": 1.0, "label": "b"})
        group.start_soon(call, "crash", "test_crash", {"how": how, "delay": 0.3})
    assert results["crash"].is_error
    assert text(results["crash"]) == f"worker running test_crash died ({named}); the server recovered"
    assert payload(results["a"])["label"] == "a"
    assert payload(results["b"])["label"] == "b"
    assert text(await server.call("test_echo", {"text": "alive"})) == '{"text":"alive"}'
    assert server.faults == []


async def test_a_started_non_idempotent_call_is_not_run_twice(tmp_path: Path) -> None:
    async with connect(tmp_path, "--workers", "2", "--tools", "test") as server:
        results: dict[str, types.CallToolResult] = {}

        async def call(key: str, tool: str, arguments: dict[str, Any]) -> None:
            results[key] = await server.call(tool, arguments)

        async with anyio.create_task_group() as group:
            group.start_soon(call, "once", "test_once", {"seconds": 1.5})
            group.start_soon(call, "crash", "test_crash", {"how": "exit", "delay": 0.5})
        assert text(results["crash"]).endswith("died (exit code 3); the server recovered")
        assert results["once"].is_error
        assert text(results["once"]).startswith("worker running test_once died (")


async def test_workers_are_recycled_after_their_call_limit(tmp_path: Path) -> None:
    env = server_env(SOFIA_WORKER_MAX_CALLS="3")
    async with connect(tmp_path, "--workers", "1", "--tools", "test", env=env) as server:
        pids = [await worker_pid(server) for _ in range(7)]
    assert pids[0] == pids[1] == pids[2]
    assert pids[3] == pids[4] == pids[5] != pids[2]
    assert pids[6] != pids[5]


async def test_workers_are_recycled_past_their_memory_limit(tmp_path: Path) -> None:
    env = server_env(SOFIA_WORKER_MAX_RSS_MB="1")
    async with connect(tmp_path, "--workers", "1", "--tools", "test", env=env) as server:
        pids = [await worker_pid(server) for _ in range(4)]
    assert len(set(pids)) >= 2
