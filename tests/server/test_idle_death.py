"""A pool process dying while nothing runs (the OOM killer picks idle processes too) costs no call:
whichever process goes, a worker or one of loky's helpers, the next calls all succeed."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Callable

import anyio
import psutil
import pytest

from tests.server.harness import Spawned, spawn, text, wait_gone

pytestmark = pytest.mark.anyio

WORKERS = 2


def _worker(process: psutil.Process) -> bool:
    return "loky.backend.popen_loky_posix" in " ".join(process.cmdline())


def _loky_tracker(process: psutil.Process) -> bool:
    return "loky.backend.resource_tracker" in " ".join(process.cmdline())


def _multiprocessing_tracker(process: psutil.Process) -> bool:
    return "multiprocessing.resource_tracker" in " ".join(process.cmdline())


def _pool_processes(server: Spawned) -> dict[str, list[psutil.Process]]:
    """The server's direct children by kind (a provider's programs are not pool processes)."""
    kinds: dict[str, list[psutil.Process]] = {"worker": [], "loky tracker": [], "mp tracker": []}
    for child in psutil.Process(server.process.pid).children():
        try:
            for kind, test in (
                ("worker", _worker),
                ("loky tracker", _loky_tracker),
                ("mp tracker", _multiprocessing_tracker),
            ):
                if test(child):
                    kinds[kind].append(child)
        except psutil.Error:
            continue
    return kinds


Pick = Callable[[dict[str, list[psutil.Process]]], list[psutil.Process]]
VICTIMS: dict[str, Pick] = {
    "one-worker": lambda kinds: kinds["worker"][:1],
    "every-worker": lambda kinds: kinds["worker"],
    "loky-resource-tracker": lambda kinds: kinds["loky tracker"],
    "multiprocessing-resource-tracker": lambda kinds: kinds["mp tracker"],
    "every-pool-process": lambda kinds: [p for group in kinds.values() for p in group],
}


@pytest.fixture(scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Spawned]:
    async with spawn(
        tmp_path_factory.mktemp("idle"), "--workers", str(WORKERS), "--tools", "test", "--log-level", "info"
    ) as spawned:
        yield spawned


async def _calls_succeed(server: Spawned, count: int) -> list[int]:
    """Send `count` calls at once (more than there are workers); each must succeed. Their pids."""
    results: dict[int, str] = {}

    async def call(index: int) -> None:
        result = await server.session.call_tool("test_pid", {}, read_timeout_seconds=60)
        assert not result.is_error, text(result)
        results[index] = text(result)

    async with anyio.create_task_group() as group:
        for index in range(count):
            group.start_soon(call, index)
    return [json.loads(results[i])["pid"] for i in range(count)]


@pytest.mark.parametrize("victim", list(VICTIMS))
async def test_a_pool_process_killed_while_idle_fails_no_call(server: Spawned, victim: str) -> None:
    await _calls_succeed(server, WORKERS)  # warm: every worker up
    kinds = _pool_processes(server)
    assert len(kinds["worker"]) == WORKERS, kinds
    targets = VICTIMS[victim](kinds)
    assert targets, f"no {victim} process to kill: {kinds}"
    workers = [p.pid for p in kinds["worker"]]
    killed_a_worker = any(p.pid in workers for p in targets)
    for process in targets:
        with contextlib.suppress(psutil.NoSuchProcess):  # loky may reap a survivor first
            process.kill()
    assert wait_gone([p.pid for p in targets], 10) == []
    if killed_a_worker:
        # loky kills the survivors once it sees one worker dead: wait for that, so the call below
        # meets an executor already marked broken, the case that used to fail.
        assert wait_gone(workers, 10) == []
    await anyio.sleep(0.5)
    pids = await _calls_succeed(server, 2 * WORKERS)
    assert server.bad_lines == []
    if killed_a_worker:
        assert not set(pids) & set(workers)  # served by new workers
