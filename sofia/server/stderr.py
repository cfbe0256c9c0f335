"""The server's stderr: nothing the server or its workers write there can block them.

A client often hands the server a pipe for stderr and never reads it. Once that pipe's buffer
(64 KiB) is full, every write blocks: a worker printing a traceback stalls until its deadline,
and the server's own log line stalls its event loop, so no request is answered any more.

So when stderr is a pipe, a socket or a terminal (something a reader can stall), descriptors 1
and 2 of the server become a private pipe, inherited by every worker and every program they
run. Two threads relay it: one drains the pipe at once into a bounded buffer, cutting any line
longer than LINE_LIMIT; the other writes the buffer to the real stderr, and is the only one ever
blocked by a client that does not read. What does not fit the buffer is dropped and counted,
and a note in the stream says how much was dropped and where. A regular file (or /dev/null)
cannot stall a writer and is left as it is.

The server's log goes through a formatter that bounds every record the same way.
"""

from __future__ import annotations

import atexit
import faulthandler
import logging
import os
import stat
import threading
import time
from collections import deque

from sofia.workers.report import bound_lines, format_traceback

LINE_LIMIT = 4000
"""Bytes of one stderr line relayed; the rest of the line is replaced by a note of its length."""
BUFFER_LIMIT = 4 << 20
"""Bytes held for a client that reads stderr slowly; past this, output is dropped (and counted)."""
READ_SIZE = 1 << 16


class Relay:
    """Descriptors 1 and 2 of this process on a pipe, relayed to `target` (the real stderr)."""

    def __init__(self, target: int) -> None:
        self._target = target
        read_end, write_end = os.pipe2(os.O_CLOEXEC)
        self._read_end = read_end
        os.dup2(write_end, 2)
        os.dup2(write_end, 1)
        os.close(write_end)
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self._column = 0
        """Bytes of the current line already relayed."""
        self._cut = 0
        """Bytes of the current line left out so far."""
        self._dropped_bytes = 0
        self._dropped_lines = 0
        self._writing = False
        self._dead = False
        """The real stderr is gone (the client closed it): nothing more can reach it."""
        self._condition = threading.Condition()
        # A crash of the server itself must still be reported, straight to the real stderr.
        self._crash_file = os.fdopen(os.dup(target), "w", closefd=True)
        faulthandler.enable(file=self._crash_file)
        threading.Thread(target=self._drain, name="stderr-drain", daemon=True).start()
        threading.Thread(target=self._write, name="stderr-write", daemon=True).start()

    # -- draining the pipe (never blocks on anything but the pipe) ------------------------------

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self._read_end, READ_SIZE)
            except InterruptedError:
                continue
            except OSError:
                return
            if not data:
                return
            self._accept(self._bound(data))

    def _bound(self, data: bytes) -> bytes:
        """`data` with every line cut to LINE_LIMIT bytes (lines may span reads)."""
        out = bytearray()
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            room = LINE_LIMIT - self._column
            if len(piece) <= room and not self._cut:
                out += piece
                self._column += len(piece)
            else:
                keep = _utf8_prefix(piece, max(room, 0)) if not self._cut else b""
                out += keep
                self._column += len(keep)
                self._cut += len(piece) - len(keep)
            if end < 0:
                break
            if self._cut:
                out += f"… (line cut: {self._column + self._cut:,} bytes)".encode()
            out += b"\n"
            self._column = self._cut = 0
            start = end + 1
        return bytes(out)

    def _accept(self, data: bytes) -> None:
        if not data:
            return
        with self._condition:
            if self._dead:
                return
            if self._size + len(data) > BUFFER_LIMIT:
                self._dropped_bytes += len(data)
                self._dropped_lines += data.count(b"\n")
                return
            self._note_drops()
            self._chunks.append(data)
            self._size += len(data)
            self._condition.notify()

    def _note_drops(self) -> None:
        """Mark, where the output resumes, what was dropped before it (lock held)."""
        if self._dropped_bytes:
            note = (
                f"\nsofia mcp: {self._dropped_bytes:,} bytes ({self._dropped_lines:,} lines) of stderr "
                "output dropped here: stderr was not being read\n"
            ).encode()
            self._chunks.append(note)
            self._size += len(note)
            self._dropped_bytes = self._dropped_lines = 0

    # -- writing to the real stderr (may block for as long as the client pleases) ---------------

    def _write(self) -> None:
        while True:
            with self._condition:
                while not self._chunks:
                    self._writing = False
                    self._condition.notify_all()
                    self._condition.wait()
                data = self._chunks.popleft()
                self._size -= len(data)
                self._writing = True
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(self._target, view) :]
            except OSError:
                with self._condition:
                    self._dead = True
                    self._chunks.clear()
                    self._size = 0
                    self._writing = False
                    self._condition.notify_all()
                return

    def flush(self, seconds: float) -> bool:
        """Wait up to `seconds` for everything written so far to reach the real stderr."""
        deadline = time.monotonic() + seconds
        while _pending(self._read_end) and time.monotonic() < deadline:
            time.sleep(0.01)
        with self._condition:
            self._note_drops()
            self._condition.notify()
            while (self._chunks or self._writing) and not self._dead:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._condition.wait(left)
        return True


def _utf8_prefix(data: bytes, size: int) -> bytes:
    """At most `size` bytes of `data`, not ending inside a UTF-8 sequence."""
    cut = data[:size]
    for back in range(1, min(4, len(cut)) + 1):
        byte = cut[-back]
        if byte < 0x80:
            break
        if byte >= 0xC0:  # a lead byte: is its sequence complete?
            length = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            if back < length:
                cut = cut[:-back]
            break
    return cut


def _pending(fd: int) -> int:
    import fcntl
    import struct
    import termios

    try:
        raw = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    except OSError:
        return 0
    count: int = struct.unpack("i", raw)[0]
    return count


def _can_stall(fd: int) -> bool:
    """Whether writes to `fd` wait for a reader: a pipe, a socket or a terminal."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or (stat.S_ISCHR(mode) and os.isatty(fd))


_relay: Relay | None = None


def divert() -> None:
    """Put descriptors 1 and 2 on a relay when stderr can stall a writer (once per process)."""
    global _relay
    if _relay is not None or not _can_stall(2):
        return
    target = os.dup(2)
    os.set_inheritable(target, False)
    _relay = Relay(target)
    # An exit other than the server's own (an uncaught exception) still lets its traceback out.
    atexit.register(flush)


def flush(seconds: float = 1.0) -> None:
    """Before exit: let what was written reach the real stderr, waiting at most `seconds`."""
    if _relay is not None:
        _relay.flush(seconds)


class BoundedFormatter(logging.Formatter):
    """Log records with each line, and each traceback, bounded (`sofia.workers.report`)."""

    def formatException(self, ei: object) -> str:
        exc = ei[1] if isinstance(ei, tuple) and len(ei) == 3 else None
        if isinstance(exc, BaseException):
            return format_traceback(exc).rstrip("\n")
        return bound_lines(super().formatException(ei)).rstrip("\n")  # type: ignore[arg-type]

    def format(self, record: logging.LogRecord) -> str:
        return bound_lines(super().format(record)).rstrip("\n")


def install_logging(level: str) -> None:
    """The server's log: one bounded line per record on stderr."""
    handler = logging.StreamHandler()
    handler.setFormatter(BoundedFormatter("%(asctime)s sofia mcp %(levelname)s %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level.upper())
