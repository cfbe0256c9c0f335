"""The wire's parts in process: lines read from a real pipe (a line over the limit skipped to its
end, not the end of the server), and outgoing messages that always encode."""

from __future__ import annotations

import json
import os
import threading

import mcp_types as types
import pytest

from sofia.server import stdio
from sofia.server.stdio import LineReader, Overlong
from sofia.server.transport import encode

pytestmark = pytest.mark.anyio


async def _read_all(data: bytes) -> list[bytes | Overlong]:
    read_end, write_end = os.pipe()

    def feed() -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view[:5]) :]  # in small pieces: lines span reads
        os.close(write_end)

    threading.Thread(target=feed, daemon=True).start()
    reader = LineReader(read_end)
    await reader.open()
    try:
        return [line async for line in reader.lines()]
    finally:
        reader.restore()
        os.close(read_end)


async def test_a_line_over_the_limit_is_skipped_to_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stdio, "MAX_LINE", 20)
    monkeypatch.setattr(stdio, "READ_SIZE", 8)
    long = b"x" * 45
    lines = await _read_all(b"first\r\n" + long + b"\nsecond\n" + b"y" * 21 + b"\n" + b"z" * 30)
    assert lines == [b"first", Overlong(45), b"second", Overlong(21), Overlong(30)]


async def test_the_last_line_needs_no_newline() -> None:
    assert await _read_all(b'{"a":1}\n\n{"b":2}') == [b'{"a":1}', b"", b'{"b":2}']


def test_an_echoed_lone_surrogate_is_written_as_a_replacement_character() -> None:
    message = types.JSONRPCError(
        jsonrpc="2.0", id=3, error=types.ErrorData(code=-32602, message="unknown tool: \ud800", data="\udfff")
    )
    decoded = json.loads(encode(message))
    assert decoded["error"] == {"code": -32602, "message": "unknown tool: \ufffd", "data": "\ufffd"}


def test_error_text_and_data_are_bounded() -> None:
    message = types.JSONRPCError(
        jsonrpc="2.0",
        id="x",
        error=types.ErrorData(code=-32601, message="m" * 100_000, data=["d" * 10] * 10_000),
    )
    encoded = encode(message)
    assert len(encoded) < 3000
    decoded = json.loads(encoded)
    assert decoded["error"]["message"].endswith("… (message cut: 100,000 characters)")
    assert decoded["error"]["data"] == "(error data of 130,001 bytes left out)"


def test_a_result_with_a_lone_surrogate_still_encodes() -> None:
    message = types.JSONRPCResponse(
        jsonrpc="2.0", id=1, result={"content": [{"type": "text", "text": "a\ud800b"}]}
    )
    assert json.loads(encode(message))["result"]["content"][0]["text"] == "a\ufffdb"
