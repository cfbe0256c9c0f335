"""`sf mcp` tells the user what is wrong where the user looks: a server that cannot start answers
its client's `initialize` with the reason (and says it on stderr); run by hand in a terminal it
says what it is and how to register it."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import time
from pathlib import Path

import pytest

from tests.server.harness import command, server_env

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


@pytest.mark.parametrize(
    ("args", "env", "reason"),
    [
        (["--bogus"], {}, "unrecognized arguments: --bogus"),
        (["--workers", "many"], {}, "argument --workers: not a whole number: 'many'"),
        (["--workers", "0"], {}, "--workers must be from 1 to 64, not 0"),
        ([], {"SOFIA_MAX_OUTPUT_TOKENS": "abc"}, "SOFIA_MAX_OUTPUT_TOKENS must be a whole number, not 'abc'"),
        (["--tools", "nope"], {}, "--tools: unknown nope"),
    ],
)
def test_a_server_that_cannot_start_answers_initialize_with_the_reason(
    tmp_path: Path, args: list[str], env: dict[str, str], reason: str
) -> None:
    done = subprocess.run(
        command(*args),
        cwd=tmp_path,
        env=server_env(**env),
        input=json.dumps(INITIALIZE) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    (line,) = done.stdout.splitlines()
    reply = json.loads(line)
    assert reply["id"] == 1 and "result" not in reply
    assert reason in reply["error"]["message"] and "sf init --check" in reply["error"]["message"]
    assert f"sf mcp: error: {reason}" in done.stderr


def test_a_server_that_cannot_start_does_not_wait_for_a_client_that_says_nothing(tmp_path: Path) -> None:
    started = time.monotonic()
    done = subprocess.run(
        command("--bogus"),
        cwd=tmp_path,
        env=server_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == b""
    assert time.monotonic() - started < 30


def test_run_by_hand_in_a_terminal_it_says_what_it_is_and_waits(tmp_path: Path) -> None:
    controller, terminal = pty.openpty()
    server = subprocess.Popen(
        command("--workers", "1"),
        cwd=tmp_path,
        env=server_env(),
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(terminal)
    try:
        assert server.stderr is not None
        ready, _, _ = select.select([server.stderr], [], [], 30)
        assert ready
        said = os.read(server.stderr.fileno(), 4096).decode()
        assert "speaks MCP on stdin/stdout" in said and "sf init" in said
        assert server.poll() is None  # still waiting for a client
    finally:
        os.close(controller)  # the terminal goes away: end of input
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert server.returncode == 0
