"""`sf doctor`'s MCP check: start the real server and talk to it the way a client does."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TextIO

import anyio
import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client

from sofia.providers.registry import PROVIDERS


def roundtrip(timeout: float = 20) -> tuple[bool, str]:
    """`_roundtrip` on a thread of its own: its event loop must not meet one the caller runs (a
    test's, an embedding program's), where `anyio.run` refuses to start."""
    answer: list[tuple[bool, str]] = []
    probe = threading.Thread(target=lambda: answer.append(_roundtrip(timeout)), name="selfcheck", daemon=True)
    probe.start()
    probe.join()
    return answer[0] if answer else (False, "the self-check ended without an answer (see stderr)")


def _roundtrip(timeout: float) -> tuple[bool, str]:
    """Spawn `python -m sofia mcp` in a temporary git repository (a plain temporary directory if git
    is missing: never the cwd, which may be a home directory the server refuses to walk), run
    initialize, tools/list and the self-check call of every tool that declares one (registry
    `self_check`) over real pipes; (ok, one line with timings)."""
    with tempfile.TemporaryDirectory(prefix="sofia-selfcheck-") as scratch:
        where = Path(scratch) / "repo"
        where.mkdir()
        _git_repo(where)
        log = Path(scratch) / "stderr.log"
        probe = _Probe(where, log)
        try:
            with log.open("w") as errlog:
                return anyio.run(probe.run, errlog, timeout)
        except TimeoutError:
            return False, f"no answer to {probe.stage} within {timeout:g} s{_last_line(log)}"
        except Exception as exc:
            return False, f"{probe.stage} failed: {type(exc).__name__}: {exc}{_last_line(log)}"


class _Probe:
    def __init__(self, cwd: Path, log: Path) -> None:
        self.cwd = cwd
        self.log = log
        self.stage = "start-up"

    async def run(self, errlog: TextIO, timeout: float) -> tuple[bool, str]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "sofia", "mcp", "--workers", "1"],
            cwd=self.cwd,
            env=dict(os.environ),
        )
        with anyio.fail_after(timeout):
            started = time.perf_counter()
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                self.stage = "initialize"
                await session.initialize()
                initialized = time.perf_counter()
                self.stage = "tools/list"
                tools = (await session.list_tools()).tools
                listed = time.perf_counter()
                served = {tool.name for tool in tools}
                calls: list[str] = []
                for provider in PROVIDERS:
                    if provider.self_check is None or provider.name not in served:
                        continue
                    self.stage = f"tools/call {provider.name}"
                    before = time.perf_counter()
                    result = await session.call_tool(provider.name, dict(provider.self_check))
                    if result.is_error:
                        reason = " ".join(
                            block.text for block in result.content if isinstance(block, types.TextContent)
                        )
                        return False, f"{provider.name} failed over MCP: {reason}"
                    calls.append(f"{provider.name} answered in {time.perf_counter() - before:.2f} s")
        return True, ", ".join(
            [
                f"initialize {initialized - started:.2f} s",
                f"{len(tools)} tools listed in {listed - initialized:.2f} s",
                *calls,
            ]
        )


def _git_repo(path: Path) -> bool:
    """An empty repository with one commit, so the self-check calls have a history to look at."""
    config = ["-c", "user.name=sofia", "-c", "user.email=sofia@localhost", "-c", "commit.gpgsign=false"]
    try:
        for args in (["init", "-q"], [*config, "commit", "-q", "--allow-empty", "-m", "selfcheck"]):
            done = subprocess.run(
                ["git", *args], cwd=path, stdin=subprocess.DEVNULL, capture_output=True, timeout=10
            )
            if done.returncode != 0:
                return False
    except (OSError, subprocess.TimeoutExpired):
        return False
    return True


def _last_line(log: Path) -> str:
    try:
        lines = [line.strip() for line in log.read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return ""
    return f" (server stderr: {lines[-1][:200]})" if lines else ""
