"""The worker pool under stress, end to end over real pipes: concurrency limits, cancellation,
deadlines in Python and in C, workers dying mid-call."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from anyio.abc import TaskStatus
from mcp import ClientSession

from tests.server.harness import Connection, Spawned, connect, spawn, text, wait_gone

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


async def worker_pid(session: ClientSession) -> int:
    pid: int = payload(await session.call_tool("test_pid", {}, read_timeout_seconds=60))["pid"]
    return pid


async def together(server: Connection, *calls: tuple[str, dict[str, Any]]) -> list[types.CallToolResult]:
    """Send `calls` at once; their results in the same order."""
    results: dict[int, types.CallToolResult] = {}

    async def call(index: int, tool: str, arguments: dict[str, Any]) -> None:
        results[index] = await server.call(tool, arguments)

    async with anyio.create_task_group() as group:
        for index, (tool, arguments) in enumerate(calls):
            group.start_soon(call, index, tool, arguments)
    return [results[i] for i in range(len(calls))]


# -- one worker: cancellation -----------------------------------------------------------------


@pytest.fixture(scope="module")
async def single(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Spawned]:
    async with spawn(
        tmp_path_factory.mktemp("single"), "--workers", "1", "--tools", "test", "--log-level", "info"
    ) as server:
        yield server


async def test_cancelling_a_running_call_interrupts_it_and_sends_no_response(single: Spawned) -> None:
    before = await worker_pid(single.session)
    call = Background(single.session, "test_sleep", {"seconds": 3})
    async with anyio.create_task_group() as group:
        await group.start(call.run)
        await call.until_started()
        call.scope.cancel()
    cancelled_id = single.request_id("tools/call", "test_sleep")
    # One worker: this runs only once the slot is free, and ends after the cancelled call would have.
    after = await single.session.call_tool("test_sleep", {"seconds": 3.5}, read_timeout_seconds=60)
    assert not after.is_error
    assert await worker_pid(single.session) == before  # interrupted in Python: the worker lives on
    assert call.result is None
    assert single.responses_to(cancelled_id) == []
    assert single.bad_lines == []


async def test_cancelling_a_call_stuck_in_c_kills_its_worker_and_frees_the_slot(single: Spawned) -> None:
    before = await worker_pid(single.session)
    call = Background(single.session, "test_spin", {})
    async with anyio.create_task_group() as group:
        await group.start(call.run)
        await call.until_started()
        # "started" is sent just before the C call begins: a cancellation arriving in between is
        # (rightly) handled in Python, and the worker lives on. Give the worker time to get into C.
        await anyio.sleep(1.0)
        call.scope.cancel()
    # The spin would take minutes; the slot must be free again long before.
    echoed = await single.session.call_tool("test_echo", {"text": "free"}, read_timeout_seconds=60)
    assert text(echoed) == '{"text":"free"}'
    assert await worker_pid(single.session) != before
    assert call.result is None
    assert single.responses_to(single.request_id("tools/call", "test_spin")) == []


async def test_cancelling_a_queued_call_drops_it(single: Spawned) -> None:
    first = Background(single.session, "test_sleep", {"seconds": 1.5, "label": "first"})
    queued = Background(single.session, "test_sleep", {"seconds": 60, "label": "queued"})
    async with anyio.create_task_group() as group:
        await group.start(first.run)
        await first.until_started()
        await group.start(queued.run)
        await anyio.sleep(0.2)
        queued.scope.cancel()
    assert payload(first.result)["label"] == "first"
    echoed = await single.session.call_tool("test_echo", {"text": "next"}, read_timeout_seconds=20)
    assert text(echoed) == '{"text":"next"}'
    assert queued.result is None and not queued.started.is_set()
    assert any(line.endswith(" cancelled") and " test_sleep " in line for line in single.log().splitlines())


# -- two workers: concurrency and deadlines ----------------------------------------------------


@pytest.fixture(scope="module")
async def pair(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Connection]:
    async with connect(
        tmp_path_factory.mktemp("pair"), "--workers", "2", "--timeout", "2", "--tools", "test"
    ) as server:
        yield server


async def test_eight_concurrent_calls_on_two_workers_run_two_at_a_time(pair: Connection) -> None:
    results = await together(pair, *(("test_sleep", {"seconds": 0.4, "label": str(i)}) for i in range(8)))
    runs = [payload(r) for r in results]
    assert [run["label"] for run in runs] == [str(i) for i in range(8)]
    assert len({run["pid"] for run in runs}) <= 2
    events = sorted([(run["start"], 1) for run in runs] + [(run["end"], -1) for run in runs])
    running, most = 0, 0
    for _, step in events:
        running += step
        most = max(most, running)
    assert most == 2


async def test_a_deadline_in_python_code_interrupts_the_call_not_the_worker(pair: Connection) -> None:
    restarts = pair.log().count("restarted")
    result = await pair.call("test_sleep", {"seconds": 30})
    assert result.is_error
    assert text(result).startswith("test_sleep timed out after 2 s; narrow the call")
    assert text(await pair.call("test_echo", {"text": "after"})) == '{"text":"after"}'
    assert pair.log().count("restarted") == restarts


async def test_a_call_stuck_in_c_is_killed_with_its_children_and_others_survive(
    pair: Connection, tmp_path: Path
) -> None:
    pidfile = tmp_path / "child.pid"
    spin, bystander = await together(
        pair, ("test_spin", {"pidfile": str(pidfile)}), ("test_sleep", {"seconds": 1.5, "label": "bystander"})
    )
    assert spin.is_error and text(spin).startswith("test_spin timed out after 2 s")
    assert payload(bystander)["label"] == "bystander"
    assert wait_gone([int(pidfile.read_text())], 5) == []
    assert text(await pair.call("test_echo", {"text": "after"})) == '{"text":"after"}'


async def test_a_started_non_idempotent_call_is_not_run_twice(pair: Connection) -> None:
    once, crash = await together(
        pair, ("test_once", {"seconds": 1.0}), ("test_crash", {"how": "exit", "delay": 0.4})
    )
    assert text(crash) == "worker running test_crash died (exit code 3); the server recovered"
    assert once.is_error and text(once).startswith("worker running test_once died (")


# -- three workers: crash isolation ------------------------------------------------------------


@pytest.fixture(scope="module")
async def three(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Connection]:
    async with connect(tmp_path_factory.mktemp("three"), "--workers", "3", "--tools", "test") as server:
        yield server


@pytest.mark.parametrize(
    ("how", "named"), [("segv", "SIGSEGV"), ("exit", "exit code 3"), ("kill", "SIGKILL")]
)
async def test_a_worker_dying_mid_call_fails_only_its_own_call(
    three: Connection, how: str, named: str
) -> None:
    a, b, crash = await together(
        three,
        ("test_sleep", {"seconds": 1.0, "label": "a"}),
        ("test_sleep", {"seconds": 1.0, "label": "b"}),
        ("test_crash", {"how": how, "delay": 0.3}),
    )
    assert crash.is_error
    assert text(crash) == f"worker running test_crash died ({named}); the server recovered"
    assert (payload(a)["label"], payload(b)["label"]) == ("a", "b")
    assert text(await three.call("test_echo", {"text": "alive"})) == '{"text":"alive"}'
    assert three.faults == []
