"""How the server ends: on stdin EOF or SIGTERM (SIGINT takes the same path) it stops its workers
and their programs and exits 0; killed outright, its workers notice and leave no orphans."""

from __future__ import annotations

import json
import signal
import subprocess
from contextlib import suppress
from pathlib import Path

import anyio
import pytest
from anyio.abc import TaskGroup
from mcp.shared.exceptions import MCPError

from tests.server.harness import Spawned, command, server_env, spawn, wait_gone

pytestmark = pytest.mark.anyio

EXIT_BOUND = 10.0
"""Generous: the server exits within 2 s; this only keeps a broken one from hanging the suite."""


async def _busy(server: Spawned, group: TaskGroup, pidfile: Path) -> list[int]:
    """Warm the workers and leave one stuck in C with a child process: the pids that must all go."""
    assert not (
        await server.session.call_tool("test_echo", {"text": "warm"}, read_timeout_seconds=60)
    ).is_error
    started = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        started.set()

    async def stuck() -> None:
        with suppress(MCPError):  # the connection closes under it
            await server.session.call_tool(
                "test_spin",
                {"pidfile": str(pidfile)},
                read_timeout_seconds=120,
                progress_callback=on_progress,
            )

    group.start_soon(stuck)
    with anyio.fail_after(60):
        await started.wait()
    pids = [p.pid for p in server.descendants()] + [int(pidfile.read_text())]
    assert len(pids) >= 3  # two workers and the stuck call's child, at least
    return pids


@pytest.mark.parametrize("how", ["eof", "sigterm"])
async def test_clean_shutdown_exits_zero_and_leaves_nothing_behind(tmp_path: Path, how: str) -> None:
    async with spawn(tmp_path, "--workers", "2", "--tools", "test") as server:
        async with anyio.create_task_group() as group:
            pids = await _busy(server, group, tmp_path / f"{how}.pid")
            if how == "eof":
                assert server.process.stdin is not None
                await server.process.stdin.aclose()
            else:
                server.process.send_signal(signal.SIGTERM)
            status = await server.wait(EXIT_BOUND)
            group.cancel_scope.cancel()
        assert status == 0
        assert wait_gone(pids, EXIT_BOUND) == []
        assert server.bad_lines == []


async def test_a_killed_server_leaves_no_orphan_workers(tmp_path: Path) -> None:
    async with spawn(tmp_path, "--workers", "2", "--tools", "test") as server:
        async with anyio.create_task_group() as group:
            pids = await _busy(server, group, tmp_path / "sigkill.pid")
            server.process.kill()
            await server.wait(EXIT_BOUND)
            group.cancel_scope.cancel()
        assert wait_gone(pids, EXIT_BOUND) == []


def test_stdin_and_stdout_may_be_plain_files(tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_text(
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
        '"capabilities":{},"clientInfo":{"name":"file","version":"1"}}}\n'
    )
    answers = tmp_path / "answers.jsonl"
    with requests.open() as stdin, answers.open("w") as stdout:
        done = subprocess.run(
            command("--workers", "1"), cwd=tmp_path, env=server_env(), stdin=stdin, stdout=stdout, timeout=60
        )
    assert done.returncode == 0
    (line,) = answers.read_text().splitlines()
    assert json.loads(line)["result"]["serverInfo"]["name"] == "sofia"
    empty = subprocess.run(
        command("--workers", "1"),
        cwd=tmp_path,
        env=server_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    assert (empty.returncode, empty.stdout) == (0, b"")
