"""The stdio transport between the wire and the SDK's server: every line read through `lines`,
every message written as one line that any client can parse.

It stands where the SDK's own `stdio_server` would, with the same two streams, and adds what that
one lacks: lines the SDK cannot take are answered here (`sofia.server.lines`); a batch is answered
with one array; an outgoing message holding a lone surrogate (an echo of what a client sent) is
written with U+FFFD in its place instead of ending the server; and the text of a JSON-RPC error is
bounded, so no echo of a huge input comes back whole.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import mcp_types as types
import orjson
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from sofia.errors import bounded
from sofia.server import lines
from sofia.server.stdio import MAX_LINE, LineReader, LineWriter, Overlong

log = logging.getLogger("sofia.mcp")

ERROR_TEXT_LIMIT = 2000
"""Characters of a JSON-RPC error's message, and of its data, that are sent."""

_SURROGATE = re.compile("[\ud800-\udfff]")

Streams = tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]


@asynccontextmanager
async def stdio_transport(reader: LineReader, writer: LineWriter) -> AsyncIterator[Streams]:
    """The (read, write) streams `Server.run` takes, served over `reader` and `writer`."""
    to_server, from_wire = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_wire, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    outbox = Outbox(writer)

    async def inbound() -> None:
        async with to_server:
            async for raw in reader.lines():
                if isinstance(raw, Overlong):
                    text = f"Parse error: a line of {raw.size:,} bytes, over the {MAX_LINE:,}-byte limit"
                    log.warning("answered a line it could not read: %s", text)
                    await outbox.write_answers([lines.error(None, lines.PARSE_ERROR, text)], batch=False)
                    continue
                got = lines.read(raw)
                if got is None:
                    continue
                if got.answers:
                    log.warning(
                        "answered %d malformed message(s): %s",
                        len(got.answers),
                        bounded(str(got.answers[0]["error"]["message"]), 300),
                    )
                if got.batch:
                    await outbox.open_batch(got.expected, got.answers)
                elif got.answers:
                    await outbox.write_answers(got.answers, batch=False)
                for message in got.messages:
                    if isinstance(message, types.JSONRPCNotification) and message.method == (
                        "notifications/cancelled"
                    ):
                        await outbox.forget((message.params or {}).get("requestId"))
                    try:
                        await to_server.send(SessionMessage(message))
                    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                        return

    async def outbound() -> None:
        async with from_server:
            async for item in from_server:
                await outbox.send(item.message)
        await outbox.close()

    async with anyio.create_task_group() as group:
        group.start_soon(inbound)
        group.start_soon(outbound)
        yield from_wire, to_wire


def _key(request_id: Any) -> tuple[bool, Any]:
    return isinstance(request_id, str), request_id


@dataclass(eq=False)
class _Batch:
    waiting: dict[tuple[bool, Any], int]
    """Answers still to come, per id (a batch may repeat an id)."""
    items: list[bytes] = field(default_factory=list)


class Outbox:
    """Everything written to the wire, one whole line at a time, in the order it is sent."""

    def __init__(self, writer: LineWriter) -> None:
        self._writer = writer
        self._lock = anyio.Lock()
        self._batches: list[_Batch] = []

    async def send(self, message: types.JSONRPCMessage) -> None:
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError) and message.id is not None:
            batch = self._batch_waiting_for(message.id)
            if batch is not None:
                batch.items.append(encode(message))
                self._settle(batch, message.id)
                await self._complete(batch)
                return
        await self._line(encode(message))

    async def write_answers(self, answers: list[dict[str, Any]], *, batch: bool) -> None:
        items = [_dump(answer) for answer in answers]
        if batch:
            await self._line(b"[" + b",".join(items) + b"]")
        else:
            for item in items:
                await self._line(item)

    async def open_batch(self, expected: list[lines.RequestId], answers: list[dict[str, Any]]) -> None:
        """A batch was read: its own `answers` now, and the SDK's answers to `expected` to come."""
        waiting: dict[tuple[bool, Any], int] = {}
        for request_id in expected:
            waiting[_key(request_id)] = waiting.get(_key(request_id), 0) + 1
        batch = _Batch(waiting, [_dump(answer) for answer in answers])
        if waiting:
            self._batches.append(batch)
        elif batch.items:
            await self._line(b"[" + b",".join(batch.items) + b"]")
        # A batch of notifications alone is answered with nothing at all (JSON-RPC 2.0).

    async def forget(self, request_id: Any) -> None:
        """A request was cancelled by the client: it gets no answer, its batch must not wait for one."""
        batch = self._batch_waiting_for(request_id)
        if batch is not None:
            self._settle(batch, request_id)
            await self._complete(batch)

    async def close(self) -> None:
        """Write what batches still waiting have collected: nothing answered is held back."""
        for batch in list(self._batches):
            batch.waiting.clear()
            await self._complete(batch)

    def _batch_waiting_for(self, request_id: Any) -> _Batch | None:
        key = _key(request_id)
        return next((batch for batch in self._batches if key in batch.waiting), None)

    @staticmethod
    def _settle(batch: _Batch, request_id: Any) -> None:
        key = _key(request_id)
        batch.waiting[key] -= 1
        if batch.waiting[key] <= 0:
            del batch.waiting[key]

    async def _complete(self, batch: _Batch) -> None:
        if batch.waiting:
            return
        self._batches.remove(batch)
        if batch.items:
            await self._line(b"[" + b",".join(batch.items) + b"]")

    async def _line(self, data: bytes) -> None:
        async with self._lock:
            await self._writer.write(data + b"\n")
            await self._writer.flush()


def encode(message: types.JSONRPCMessage) -> bytes:
    """`message` as one line of JSON: error text bounded, lone surrogates replaced (U+FFFD)."""
    if isinstance(message, types.JSONRPCError):
        message = _bounded_error(message)
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True).encode()
    except ValueError:  # pydantic's serialisation error: a lone surrogate somewhere
        return _dump(message.model_dump(mode="json", by_alias=True, exclude_unset=True))


def _dump(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:  # a lone surrogate, or an integer wider than 64 bits
        return json.dumps(_clean(value), ensure_ascii=False, separators=(",", ":"), default=str).encode()


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_clean(key): _clean(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(item) for item in value]
    return value


def _bounded_error(message: types.JSONRPCError) -> types.JSONRPCError:
    error = message.error
    text = bounded(error.message, ERROR_TEXT_LIMIT)
    data = error.data
    if isinstance(data, str):
        data = bounded(data, ERROR_TEXT_LIMIT)
    elif data is not None:
        try:
            size = len(orjson.dumps(data, default=str))
        except TypeError:
            size = ERROR_TEXT_LIMIT + 1
        if size > ERROR_TEXT_LIMIT:
            data = f"(error data of {size:,} bytes left out)"
    if text is error.message and data is error.data:
        return message
    fields = error.model_fields_set
    bounded_error = types.ErrorData(code=error.code, message=text, data=data)
    if "data" not in fields:
        bounded_error = types.ErrorData(code=error.code, message=text)
    return types.JSONRPCError(jsonrpc="2.0", id=message.id, error=bounded_error)
