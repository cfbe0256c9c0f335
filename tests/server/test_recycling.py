"""Worker recycling, on the pool itself (no protocol involved): a worker is replaced after its call
limit or once its memory passes the limit, between calls and without failing any."""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import pytest

from sofia.workers.pool import WorkerPool
from sofia.workers.protocol import CallReply, CallRequest
from tests.server.harness import REPO, TEST_PROVIDERS, wait_gone

# The server silences loky's warning about replaced workers; pytest's own warning capture does not know that.
pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore:A worker was restarted:UserWarning")]


@pytest.fixture(autouse=True)
def test_providers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOFIA_TEST_PROVIDERS", TEST_PROVIDERS)
    monkeypatch.setenv("PYTHONPATH", str(REPO))


async def pids(pool: WorkerPool, calls: int) -> list[int]:
    request = CallRequest(tool="test_pid", arguments={}, root=os.getcwd(), budget=None, timeout=30)
    seen = []
    for _ in range(calls):
        reply = await pool.run(request)
        assert reply.kind == "json", reply
        seen.append(json.loads(reply.payload)["pid"])
    return seen


async def test_workers_are_replaced_after_their_call_limit() -> None:
    pool = WorkerPool(1, max_calls=3)
    try:
        seen = await pids(pool, 7)
    finally:
        await pool.close()
    assert seen[0] == seen[1] == seen[2]
    assert seen[3] == seen[4] == seen[5] != seen[2]
    assert seen[6] != seen[5]


async def test_workers_are_replaced_past_their_memory_limit() -> None:
    pool = WorkerPool(1, max_rss=1 << 20)
    try:
        seen = await pids(pool, 4)
    finally:
        await pool.close()
    assert len(set(seen)) >= 2


async def test_close_stops_every_worker(tmp_path: Path) -> None:
    pool = WorkerPool(2)
    arguments = {"place": str(tmp_path), "count": 2}
    request = CallRequest(tool="test_meet", arguments=arguments, root=os.getcwd(), budget=None, timeout=60)
    replies: list[CallReply] = []

    async def meet() -> None:
        replies.append(await pool.run(request))

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(meet)
            group.start_soon(meet)
    finally:
        await pool.close()
    met = [json.loads(reply.payload) for reply in replies]
    assert [m["met"] for m in met] == [2, 2], "both workers run a call at once"
    workers = [m["pid"] for m in met]
    assert len(set(workers)) == 2
    assert wait_gone(workers, 5) == []
