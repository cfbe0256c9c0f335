"""The side channel from workers to the server: "call started in pid P" and progress reports.

Each worker holds one Unix stream connection to the server and writes newline-framed JSON on
it. Nothing is shared between workers (no lock a killed worker could leave taken), a dead worker
costs at most its own unfinished line, and a busy server only fills a socket buffer instead of
stalling workers (datagram sockets queue as few as 10 messages). On Linux the socket lives in
the abstract namespace (nothing on disk to leak) and the kernel vouches for each peer's pid, so
no message can direct a kill at a stranger.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import socket
import struct
import tempfile
import threading
from collections.abc import Callable
from typing import Any

import orjson

_PEER_CREDENTIALS = hasattr(socket, "SO_PEERCRED")
_CREDENTIALS = struct.Struct("3i")
_READ_SIZE = 65536
MAX_MESSAGE_CHARS = 200
"""Progress messages are cut to this length."""

Deliver = Callable[[int, list[Any]], None]
"""`deliver(sender pid, fields)`."""


class Listener:
    """The server's end, read by the event loop whenever a worker has written something."""

    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._dir = ""
        self.address: str | bytes
        if _PEER_CREDENTIALS:
            self.address = f"\0sofia-mcp-{os.getpid()}-{secrets.token_hex(8)}".encode()
        else:
            self._dir = tempfile.mkdtemp(prefix="sofia-mcp-")
            self.address = os.path.join(self._dir, "channel")
        self._sock.bind(self.address)
        self._sock.listen(64)
        self._sock.setblocking(False)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._deliver: Deliver | None = None
        self._peers: dict[socket.socket, tuple[int | None, bytearray]] = {}

    def attach(self, loop: asyncio.AbstractEventLoop, deliver: Deliver) -> None:
        self._loop, self._deliver = loop, deliver
        loop.add_reader(self._sock.fileno(), self._accept)

    def drain(self, *, accept: bool = False) -> None:
        """Read everything already written, now (messages sent before a result must come first);
        with `accept`, also from workers whose connection is not taken yet."""
        if accept:
            self._accept()
        for peer in list(self._peers):
            self._read(peer)

    def _accept(self) -> None:
        while True:
            try:
                peer, _ = self._sock.accept()
            except (BlockingIOError, InterruptedError, OSError):
                return
            peer.setblocking(False)
            pid = None
            if _PEER_CREDENTIALS:
                raw = peer.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CREDENTIALS.size)
                pid, uid, _gid = _CREDENTIALS.unpack(raw)
                if uid != os.getuid():
                    peer.close()
                    continue
            self._peers[peer] = (pid, bytearray())
            if self._loop is not None:
                self._loop.add_reader(peer.fileno(), self._read, peer)

    def _read(self, peer: socket.socket) -> None:
        pid, buffer = self._peers.get(peer, (None, None))
        if buffer is None:
            return
        closed = False
        while True:
            try:
                chunk = peer.recv(_READ_SIZE)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                chunk = b""
            if not chunk:
                closed = True
                break
            buffer += chunk
        *lines, rest = bytes(buffer).split(b"\n")
        buffer[:] = rest
        for line in lines:
            self._dispatch(pid, line)
        if closed:
            self._forget(peer)

    def _dispatch(self, pid: int | None, line: bytes) -> None:
        if not line or self._deliver is None:
            return
        try:
            fields = orjson.loads(line)
        except orjson.JSONDecodeError:
            return
        if not isinstance(fields, list) or len(fields) < 3:
            return
        sender = pid if pid is not None else fields[-1]
        if isinstance(sender, int):
            self._deliver(sender, fields[:-1])

    def _forget(self, peer: socket.socket) -> None:
        self._peers.pop(peer, None)
        if self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(peer.fileno())
        peer.close()

    def close(self) -> None:
        for peer in list(self._peers):
            self._forget(peer)
        if self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(self._sock.fileno())
        self._sock.close()
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)


_QUIET = {signal.SIGALRM, signal.SIGUSR1}


class Sender:
    """A worker's end. Sending never raises: a lost progress report must not fail a call."""

    def __init__(self, address: str | bytes) -> None:
        self._address = address
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()  # providers may report progress from their own threads

    def send(self, *fields: Any) -> None:
        # A deadline or cancellation signal must not cut a line in half: it waits for the end.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _QUIET)
        try:
            with self._lock:
                self._send_line(fields)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def _send_line(self, fields: tuple[Any, ...]) -> None:
        try:
            line = orjson.dumps([*fields, os.getpid()]) + b"\n"
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self._sock.settimeout(1.0)
                self._sock.connect(self._address)
            self._sock.sendall(line)
        except (OSError, TypeError):
            # A new connection next time: whatever was half-sent stays on the old one.
            if self._sock is not None:
                self._sock.close()
            self._sock = None
