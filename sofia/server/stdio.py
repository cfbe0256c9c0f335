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

from sofia.server import stderr

MAX_LINE = 1 << 28
"""Longest protocol line accepted (256 MiB)."""
READ_SIZE = 1 << 20
"""Bytes read from the wire at a time."""


@dataclass(frozen=True)
class Wire:
    """The private descriptors carrying the protocol."""

    input: int
    output: int


def claim() -> Wire:
    """Move the protocol to private descriptors; fd 0 becomes /dev/null and fd 1 stderr (which,
    when a reader could stall it, is itself relayed: `sofia.server.stderr`)."""
    wire = Wire(fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3), fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3))
    stderr.divert()
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


@dataclass(frozen=True)
class Overlong:
    """A line longer than MAX_LINE: its bytes were skipped, up to its newline."""

    size: int


class LineReader:
    """Protocol lines from the wire's input, as bytes without their line ending.

    A line longer than MAX_LINE is skipped to its end and reported as `Overlong`, so the next
    line is read from its start and the server keeps serving.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._reader: asyncio.StreamReader | None = None
        self._file = os.fdopen(fd, "rb", buffering=0, closefd=False)
        self._blocking = os.get_blocking(fd)

    async def open(self) -> None:
        if not _pollable(self._fd):
            return  # a regular file or /dev/null: read on a thread instead
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=READ_SIZE, loop=loop)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), self._file)
        self._reader = reader

    async def _read(self) -> bytes:
        if self._reader is not None:
            try:
                return await self._reader.read(READ_SIZE)
            except ConnectionError:
                return b""
        return await asyncio.to_thread(os.read, self._fd, READ_SIZE)

    async def lines(self) -> AsyncIterator[bytes | Overlong]:
        line = bytearray()
        skipped = 0
        while True:
            chunk = await self._read()
            if not chunk:
                break
            start = 0
            while (end := chunk.find(b"\n", start)) >= 0:
                piece = chunk[start:end]
                start = end + 1
                if skipped:
                    yield Overlong(skipped + len(piece))
                    skipped = 0
                elif len(line) + len(piece) > MAX_LINE:
                    yield Overlong(len(line) + len(piece))
                    line.clear()
                else:
                    line += piece
                    yield _strip_cr(bytes(line))
                    line.clear()
            rest = chunk[start:]
            if skipped:
                skipped += len(rest)
            elif len(line) + len(rest) > MAX_LINE:
                skipped = len(line) + len(rest)
                line.clear()
            else:
                line += rest
        if skipped:
            yield Overlong(skipped)
        elif line:
            yield _strip_cr(bytes(line))

    def restore(self) -> None:
        """Give the descriptor back its blocking mode: a terminal is shared with the shell."""
        with contextlib.suppress(OSError):
            os.set_blocking(self._fd, self._blocking)


def _strip_cr(line: bytes) -> bytes:
    return line[:-1] if line.endswith(b"\r") else line


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

    async def write(self, data: bytes) -> None:
        """Write `data` (whole lines); the bytes are queued, `flush` waits for the pipe."""
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
