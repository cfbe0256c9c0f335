"""The protocol's file descriptors, claimed so that only protocol messages ever reach stdout.

At start the real stdin and stdout are duplicated to private close-on-exec descriptors used by
the transport alone; descriptor 0 then points at /dev/null and descriptor 1 at stderr. A stray
`print`, an `os.write(1, ...)`, a C library or a child process writing to "stdout" lands on
stderr, and descriptor 1 is never pointed back, so even Python's buffered `sys.stdout`, flushed
at exit, cannot reach the client. Reading and writing go through the event loop (non-blocking
pipes), so a signal can stop the server while it waits for input.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import stat
from collections.abc import AsyncIterator
from dataclasses import dataclass

MAX_LINE = 1 << 28
"""Longest protocol line accepted (256 MiB)."""


@dataclass(frozen=True)
class Wire:
    """The private descriptors carrying the protocol."""

    input: int
    output: int


def claim() -> Wire:
    """Move the protocol to private descriptors; fd 0 becomes /dev/null and fd 1 stderr."""
    wire = Wire(fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3), fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3))
    null_in = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null_in, 0)
    os.close(null_in)
    try:
        os.dup2(2, 1)
    except OSError:
        null_out = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null_out, 1)
        os.close(null_out)
    return wire


class LineReader:
    """Protocol lines from the wire's input, as the SDK's stdio transport iterates them."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._reader: asyncio.StreamReader | None = None
        self._file = os.fdopen(fd, "rb", buffering=0, closefd=False)
        self._blocking = os.get_blocking(fd)

    async def open(self) -> None:
        if not _pollable(self._fd):
            return  # a regular file or /dev/null: read on a thread instead
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_LINE, loop=loop)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), self._file)
        self._reader = reader

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            if self._reader is not None:
                try:
                    raw = await self._reader.readline()
                except (ValueError, ConnectionError):
                    return
            else:
                raw = await asyncio.to_thread(self._file.readline)
            if not raw:
                return
            yield raw.decode("utf-8", "replace")

    def restore(self) -> None:
        """Give the descriptor back its blocking mode: a terminal is shared with the shell."""
        with contextlib.suppress(OSError):
            os.set_blocking(self._fd, self._blocking)


class LineWriter:
    """Protocol lines to the wire's output; a client that went away is not an error."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._writer: asyncio.StreamWriter | None = None
        self._file = os.fdopen(fd, "wb", buffering=0, closefd=False)
        self._blocking = os.get_blocking(fd)

    async def open(self) -> None:
        if not _pollable(self._fd):
            return  # a regular file or /dev/null: plain blocking writes
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.streams.FlowControlMixin(loop=loop), self._file
        )
        self._writer = asyncio.StreamWriter(transport, protocol, None, loop)

    async def write(self, text: str) -> None:
        data = text.encode("utf-8")
        with contextlib.suppress(OSError, RuntimeError):
            if self._writer is not None:
                self._writer.write(data)
            else:
                view = memoryview(data)
                while view:
                    view = view[os.write(self._fd, view) :]

    async def flush(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(OSError, RuntimeError):
                await self._writer.drain()

    def restore(self) -> None:
        with contextlib.suppress(OSError):
            os.set_blocking(self._fd, self._blocking)


def _pollable(fd: int) -> bool:
    """Pipes, sockets and terminals can wait in the event loop; files and /dev/null cannot."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or (stat.S_ISCHR(mode) and os.isatty(fd))
