"""No answer and no log line carries a huge input whole, and stderr never stalls anything: a client
that does not read the server's stderr still gets every answer, and learns what was dropped."""

from __future__ import annotations

import os
import re
import select
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from sofia.output.tokens import estimate
from sofia.server.stderr import LINE_LIMIT
from sofia.workers.report import TRACEBACK_LINE
from tests.helpers import Repo
from tests.server.harness import Connection, RawClient, connect, text

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Connection]:
    repo = Repo(tmp_path_factory.mktemp("bounded") / "repo")
    repo.write("app.py", "def main():\n    return 1\n")
    repo.commit("init")
    async with connect(repo.path, "--workers", "1", "--tools", "test,code,grep") as connection:
        yield connection


def _longest_line(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


async def test_a_50_mb_path_gives_a_short_error(server: Connection) -> None:
    result = await server.call("code", {"files": ["a" * 50_000_000]})
    assert result.is_error
    assert len(text(result)) < 2500, len(text(result))
    assert _longest_line(server.log()) < 2 * TRACEBACK_LINE


async def test_a_1_mb_symbol_gives_a_short_error(server: Connection) -> None:
    result = await server.call("code", {"files": ["app.py"], "symbols": ["s" * 1_000_000]})
    assert result.is_error
    assert len(text(result)) < 2500, len(text(result))


async def test_an_exception_holding_megabytes_is_reported_bounded(server: Connection) -> None:
    before = len(server.log())
    result = await server.call("test_raise", {"size": 5_000_000})
    assert result.is_error
    message = text(result)
    assert message.startswith("internal error in test_raise: RuntimeError: mmm")
    assert message.endswith("… (5,000,000 characters)") and len(message) < 500
    traceback = server.log()[before:]
    assert "raise RuntimeError" in traceback
    assert _longest_line(traceback) <= TRACEBACK_LINE + 100
    assert len(traceback) < 20_000


async def test_an_error_over_the_output_budget_is_cut_to_fit(tmp_path: Path) -> None:
    async with connect(tmp_path, "--workers", "1", "--tools", "test", "--max-output-tokens", "40") as small:
        result = await small.call("test_raise", {"size": 1000})
    assert result.is_error
    message = text(result)
    assert estimate(message) <= 40
    assert message.startswith("internal error in test_raise: RuntimeError: mmm")
    assert re.search(r"\n… \(error cut to fit the output budget of 40 tokens; it was about \d\d\)$", message)


def _read_for(fd: int, seconds: float, until: bytes) -> bytes:
    """What the pipe `fd` holds, read until `until` appears or `seconds` pass."""
    data = bytearray()
    deadline = time.monotonic() + seconds
    while until not in data and (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            data += chunk
    return bytes(data)


def test_a_client_that_never_reads_stderr_still_gets_every_answer(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    client = RawClient(
        tmp_path,
        "--workers",
        "2",
        "--tools",
        "test",
        "--timeout",
        "20",
        "--log-level",
        "debug",
        stderr=write_end,
    )
    os.close(write_end)
    try:
        client.initialize()
        # 24 MB of stderr from providers (four ways, one of them a 1.5 MB line), then a log line
        # per call from the server itself: the stderr pipe, never read, filled long before.
        for number in range(4):
            answer = client.call(f"noise {number}", "test_stderr", {"megabytes": 6})
            assert answer["result"]["isError"] is False, answer
        for number in range(100):
            answer = client.call(f"echo {number}", "test_echo", {"text": str(number)})
            assert answer["result"]["content"][0]["text"] == f'{{"text":"{number}"}}', answer
        # Now read it: what was held comes out, with a note of what was dropped, every line bounded.
        relayed = _read_for(read_end, 30, b"of stderr output dropped here")
    finally:
        assert client.process.stdin is not None
        client.process.stdin.close()
        status = client.process.wait(timeout=30)
        os.close(read_end)
    assert status == 0
    assert (
        b"bytes (" in relayed
        and b"lines) of stderr output dropped here: stderr was not being read" in relayed
    )
    assert max(len(line) for line in relayed.split(b"\n")) <= LINE_LIMIT + 100


def test_stderr_read_as_it_comes_loses_nothing_and_cuts_long_lines(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    client = RawClient(tmp_path, "--workers", "1", "--tools", "test", "--log-level", "info", stderr=write_end)
    os.close(write_end)
    relayed = bytearray()

    def drain() -> None:
        while chunk := os.read(read_end, 1 << 20):
            relayed.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        client.initialize()
        answer = client.call("noise", "test_stderr", {"megabytes": 2})
        assert answer["result"]["isError"] is False, answer
    finally:
        assert client.process.stdin is not None
        client.process.stdin.close()
        status = client.process.wait(timeout=30)
    reader.join(30)
    os.close(read_end)
    assert status == 0
    lines = bytes(relayed).split(b"\n")
    assert b"dropped" not in relayed
    assert lines.count(b"noise " * 15) >= 2 * (1 << 20) // 4 // 91
    assert b"L" * LINE_LIMIT + "… (line cut: 524,288 bytes)".encode() in lines
    assert max(len(line) for line in lines) <= LINE_LIMIT + 100
    # The server's last words, logged as it exits, are relayed before it does.
    assert any(line.endswith(b"stdin closed: stopping") for line in lines)
