"""`sf mcp` against calling the providers in-process: per-call overhead, throughput with one and
two workers, start-up, and a 10,000-call soak (server memory, descriptors, processes).

Targets: overhead median ≤ 2 ms and p99 ≤ 10 ms; `--workers 2` ≥ 1.8× the
throughput of `--workers 1` on CPU-bound calls; spawn → initialize ≤ 1.5 s and the first tool
result ≤ 0.5 s after that; soak RSS growth < 20 MB with no leaked descriptors or processes.

The trivial and CPU-bound tools are the test suite's (`tests/server/faulty.py`), registered
through `SOFIA_TEST_PROVIDERS`, so the figures measure the server, not a provider.
"""

from __future__ import annotations

import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import anyio
import psutil
from harness import ROOT, mcp_session, ratio, section, sf_command, table
from mcp import ClientSession, StdioServerParameters, stdio_client

from sofia.output.jsonfmt import compact
from sofia.providers.contract import Context
from sofia.workers.pool import WorkerPool
from sofia.workers.protocol import CallRequest
from tests.server.faulty import EchoParams, echo

OVERHEAD_CALLS = 300
THROUGHPUT_CALLS = 8
THROUGHPUT_ROUNDS = 3
CPU_LOOPS = 4_000_000
STARTUPS = 5
RECOVERIES = 5
SOAK_CALLS = 10_000


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SOFIA_TEST_PROVIDERS": "tests.server.faulty"}


def server(cwd: Path, *args: str) -> AbstractAsyncContextManager[ClientSession]:
    """`sf mcp ARGS` with the test suite's providers registered."""
    return mcp_session(cwd, *args, env=env())


def server_process() -> psutil.Process:
    """The `sf mcp` child of this process (the client spawned it)."""
    for child in psutil.Process().children():
        if "mcp" in child.cmdline():
            return child
    raise LookupError("no sf mcp child")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def overhead(cwd: Path) -> dict[str, list[float]]:
    """Seconds per trivial call: in-process, through the pool alone, MCP ping, MCP tools/call."""
    params = EchoParams(text="x" * 200)
    ctx = Context(root=cwd)
    times: dict[str, list[float]] = {"local": [], "pool": [], "ping": [], "call": []}
    for _ in range(OVERHEAD_CALLS):
        start = time.perf_counter()
        compact(echo(params, ctx))
        times["local"].append(time.perf_counter() - start)
    os.environ.update({"PYTHONPATH": str(ROOT), "SOFIA_TEST_PROVIDERS": "tests.server.faulty"})
    pool = WorkerPool(1)
    request = CallRequest(
        tool="test_echo", arguments={"text": "x" * 200}, root=str(cwd), budget=None, timeout=60
    )
    try:
        for _ in range(20):
            await pool.run(request)
        for _ in range(OVERHEAD_CALLS):
            start = time.perf_counter()
            await pool.run(request)
            times["pool"].append(time.perf_counter() - start)
    finally:
        await pool.close()
    async with server(cwd, "--workers", "1", "--tools", "test") as session:
        for _ in range(20):
            await session.call_tool("test_echo", {"text": "warm"})
        for _ in range(OVERHEAD_CALLS):
            start = time.perf_counter()
            await session.send_ping()
            times["ping"].append(time.perf_counter() - start)
        for _ in range(OVERHEAD_CALLS):
            start = time.perf_counter()
            await session.call_tool("test_echo", {"text": "x" * 200})
            times["call"].append(time.perf_counter() - start)
    return times


async def throughput(cwd: Path) -> tuple[float, float]:
    """Median wall seconds for THROUGHPUT_CALLS CPU-bound calls sent at once, with one worker and
    with two; the two servers run side by side and take turns, so both see the same machine."""

    async def batch(session: ClientSession) -> float:
        start = time.perf_counter()
        async with anyio.create_task_group() as group:
            for _ in range(THROUGHPUT_CALLS):
                group.start_soon(session.call_tool, "test_cpu", {"n": CPU_LOOPS})
        return time.perf_counter() - start

    async with (
        server(cwd, "--workers", "1", "--tools", "test") as one,
        server(cwd, "--workers", "2", "--tools", "test") as two,
    ):
        for session in (one, two):
            for _ in range(4):
                await session.call_tool("test_cpu", {"n": 1000})
        walls: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(THROUGHPUT_ROUNDS):
            walls[1].append(await batch(one))
            walls[2].append(await batch(two))
    return statistics.median(walls[1]), statistics.median(walls[2])


async def startup(cwd: Path) -> tuple[float, float, float]:
    """Spawn → initialize result, then tools/list, then the first `changed` result (seconds)."""
    command = sf_command("mcp")
    params = StdioServerParameters(command=command[0], args=command[1:], cwd=cwd, env=dict(os.environ))
    with open(os.devnull, "w") as errlog:
        start = time.perf_counter()
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            initialized = time.perf_counter()
            await session.list_tools()
            listed = time.perf_counter()
            await session.call_tool("changed", {})
            called = time.perf_counter()
    return initialized - start, listed - initialized, called - listed


def bare_python_import_mcp() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import mcp.server"], check=True)
    return time.perf_counter() - start


async def soak(cwd: Path) -> dict[str, tuple[int, int]]:
    """Server RSS, open descriptors and descendant processes before and after SOAK_CALLS calls."""

    def sample(process: psutil.Process) -> tuple[int, int, int]:
        return process.memory_info().rss, process.num_fds(), len(process.children(recursive=True))

    async with server(cwd, "--workers", "2", "--tools", "test") as session:
        process = server_process()
        for _ in range(200):
            await session.call_tool("test_echo", {"text": "warm"})
        before = sample(process)
        sent = 0
        while sent < SOAK_CALLS:
            batch = min(50, SOAK_CALLS - sent)
            async with anyio.create_task_group() as group:
                for i in range(batch):
                    group.start_soon(session.call_tool, "test_echo", {"text": f"call {sent + i}"})
            sent += batch
        time.sleep(1.0)  # let the last recycled worker be replaced
        after = sample(process)
    return {"rss": (before[0], after[0]), "fds": (before[1], after[1]), "processes": (before[2], after[2])}


def workers_of(process: psutil.Process) -> list[psutil.Process]:
    return [c for c in process.children() if "popen_loky_posix" in " ".join(c.cmdline())]


async def recovery(cwd: Path) -> dict[str, float]:
    """Median seconds of a trivial call: on a warm pool; right after a worker crashed mid-call; and
    after every worker was SIGKILLed while idle, the call sent at once or a second later."""

    async def timed(session: ClientSession) -> float:
        start = time.perf_counter()
        result = await session.call_tool("test_echo", {"text": "x"})
        assert not result.is_error, result
        return time.perf_counter() - start

    async def warmed(session: ClientSession, process: psutil.Process) -> list[psutil.Process]:
        while len(workers_of(process)) < 2:
            await session.call_tool("test_sleep", {"seconds": 0.1})
        async with anyio.create_task_group() as group:
            for _ in range(4):
                group.start_soon(session.call_tool, "test_sleep", {"seconds": 0.2})
        return workers_of(process)

    times: dict[str, list[float]] = {"warm": [], "crash": [], "idle-now": [], "idle-later": []}
    async with server(cwd, "--workers", "2", "--tools", "test") as session:
        process = server_process()
        await warmed(session, process)
        for _ in range(20):
            times["warm"].append(await timed(session))
        for _ in range(RECOVERIES):
            await warmed(session, process)
            await session.call_tool("test_crash", {"how": "segv"})
            times["crash"].append(await timed(session))
        for wait, key in ((0.0, "idle-now"), (1.0, "idle-later")):
            for _ in range(RECOVERIES):
                workers = await warmed(session, process)
                await anyio.sleep(0.5)
                for worker in workers:
                    worker.kill()
                psutil.wait_procs(workers, timeout=5)
                await anyio.sleep(wait)
                times[key].append(await timed(session))
    return {key: statistics.median(values) for key, values in times.items()}


def shutdown_seconds(cwd: Path) -> float:
    """SIGTERM → exit of a server with two warm workers."""
    process = subprocess.Popen(
        sf_command("mcp", "--workers", "2"), cwd=cwd, env=dict(os.environ), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
        b'"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n'
        b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
        b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"changed","arguments":{}}}\n'
    )
    process.stdin.flush()
    process.stdout.readline()
    process.stdout.readline()
    start = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    return time.perf_counter() - start


def report(title: str, body: str, how: str) -> None:
    section(f"MCP server: {title}", f"{body}\n\n{how[:1].upper()}{how[1:]}.", "python bench/bench_server.py")


def ms(seconds: float) -> str:
    if abs(seconds) < 1e-4:
        return f"{seconds * 1e6:.0f} µs"
    return f"{seconds * 1000:.2f} ms"


def mb(size: int) -> str:
    return f"{size / 2**20:.1f} MB"


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="sofia-bench-server-"))
    try:
        repo = work / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        (repo / "app.py").write_text("def main():\n    return 1\n")
        results: dict[str, Any] = {}

        async def measure() -> None:
            results["overhead"] = await overhead(repo)
            results["one"], results["two"] = await throughput(repo)
            results["startup"] = [await startup(repo) for _ in range(STARTUPS)]
            results["recovery"] = await recovery(repo)
            results["soak"] = await soak(repo)

        anyio.run(measure)
        times = results["overhead"]
        local = statistics.median(times["local"])

        def row(label: str, key: str, target: str = "") -> list[str]:
            median, p99 = statistics.median(times[key]), percentile(times[key], 0.99)
            return [label, ms(median), ms(p99), f"{ms(median - local)} / {ms(p99 - local)}", target]

        report(
            "call overhead",
            table(
                ["path of a trivial call (test_echo)", "median", "p99", "overhead: median / p99", "target"],
                [
                    row("in-process: run + JSON encoding", "local"),
                    row("through the worker pool (`WorkerPool.run`)", "pool", "≤ 2 ms / ≤ 10 ms"),
                    row("MCP `ping` over stdio (the SDK's round trip, no tool)", "ping"),
                    row("MCP `tools/call` over stdio (SDK client → sf mcp → pool)", "call"),
                ],
            ),
            f"{OVERHEAD_CALLS} sequential calls each, --workers 1",
        )
        one, two = results["one"], results["two"]
        report(
            "throughput",
            table(
                ["workers", "wall", "calls/s", "vs --workers 1", "target"],
                [
                    ["1", f"{one:.2f} s", f"{THROUGHPUT_CALLS / one:.2f}", "1.00×", ""],
                    ["2", f"{two:.2f} s", f"{THROUGHPUT_CALLS / two:.2f}", ratio(one, two), "≥ 1.8×"],
                ],
            ),
            f"{THROUGHPUT_CALLS} CPU-bound test_cpu calls sent at once; median of {THROUGHPUT_ROUNDS} rounds, "
            "the two servers taking turns",
        )
        starts = results["startup"]
        bare = statistics.median(bare_python_import_mcp() for _ in range(STARTUPS))
        initialize = statistics.median(s[0] for s in starts)
        report(
            "start-up",
            table(
                ["step", "median", "target"],
                [
                    ["`python -c 'import mcp.server'` (the SDK's own import)", f"{bare:.2f} s", ""],
                    [
                        "spawn → initialize result",
                        f"{initialize:.2f} s ({ratio(initialize, bare)} the import)",
                        "≤ 1.5 s",
                    ],
                    [
                        "initialize → tools/list result",
                        f"{statistics.median(s[1] for s in starts):.2f} s",
                        "",
                    ],
                    [
                        "tools/list → first `changed` result",
                        f"{statistics.median(s[2] for s in starts):.2f} s",
                        "≤ 0.5 s",
                    ],
                    ["SIGTERM → exit (2 warm workers)", f"{shutdown_seconds(repo):.2f} s", "≤ 2 s"],
                ],
            ),
            f"median of {STARTUPS} spawns of `sf mcp` in a small git repository",
        )
        recovered = results["recovery"]
        warm = recovered["warm"]
        report(
            "crash recovery",
            table(
                ["call", "median", "vs a warm pool", "target"],
                [
                    ["test_echo on a warm pool", ms(warm), "1.00×", ""],
                    [
                        "test_echo right after a worker segfaulted mid-call",
                        ms(recovered["crash"]),
                        ratio(recovered["crash"], warm),
                        "< 1 s",
                    ],
                    [
                        "test_echo sent at once after SIGKILL of every idle worker",
                        ms(recovered["idle-now"]),
                        ratio(recovered["idle-now"], warm),
                        "succeeds; < 1 s",
                    ],
                    [
                        "test_echo sent 1 s after SIGKILL of every idle worker",
                        ms(recovered["idle-later"]),
                        ratio(recovered["idle-later"], warm),
                        "succeeds",
                    ],
                ],
            ),
            f"--workers 2, median of {RECOVERIES} each; a call meeting a broken pool waits for new workers, "
            "which an idle pool starts on its own within 0.5 s of the death",
        )
        soaked = results["soak"]
        rss, fds, procs = soaked["rss"], soaked["fds"], soaked["processes"]
        report(
            "soak",
            table(
                ["", "before", f"after {SOAK_CALLS:,} calls", "growth", "target"],
                [
                    ["server RSS", mb(rss[0]), mb(rss[1]), mb(rss[1] - rss[0]), "< 20 MB"],
                    ["server open descriptors", fds[0], fds[1], fds[1] - fds[0], "0"],
                    ["descendant processes", procs[0], procs[1], procs[1] - procs[0], "0"],
                ],
            ),
            f"{SOAK_CALLS:,} test_echo calls, 50 at a time, --workers 2, workers recycled every 500 calls",
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
