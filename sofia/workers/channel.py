"""The side channel from workers to the server: "call started in pid P" and progress reports.

A Unix datagram socket rather than a multiprocessing queue: a datagram is sent whole or not at
all and no lock is shared, so a worker killed in the middle of a send cannot wedge the others.
On Linux the socket lives in the abstract namespace (nothing on disk to leak) and the kernel
vouches for the sender's pid, so a forged message can never direct a kill at a stranger.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import struct
import tempfile
from typing import Any

import orjson

_LINUX_CREDENTIALS = hasattr(socket, "SO_PASSCRED") and hasattr(socket, "SCM_CREDENTIALS")
_CREDENTIALS = struct.Struct("3i")
_MAX_DATAGRAM = 8192
MAX_MESSAGE_CHARS = 200
"""Progress messages are cut to this length."""


class Listener:
    """The server's end: a non-blocking socket the event loop reads whenever it is readable."""

    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._dir = ""
        self.address: str | bytes
        if _LINUX_CREDENTIALS:
            self.address = f"\0sofia-mcp-{os.getpid()}-{secrets.token_hex(8)}".encode()
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        else:
            self._dir = tempfile.mkdtemp(prefix="sofia-mcp-")
            self.address = os.path.join(self._dir, "channel")
        self._sock.bind(self.address)
        with contextlib.suppress(OSError):
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self._sock.setblocking(False)

    def fileno(self) -> int:
        return self._sock.fileno()

    def receive(self) -> list[tuple[int, list[Any]]]:
        """Every message waiting now, as `(sender pid, fields)`; never blocks."""
        messages: list[tuple[int, list[Any]]] = []
        while True:
            try:
                data, ancillary, _flags, _address = self._sock.recvmsg(
                    _MAX_DATAGRAM, socket.CMSG_SPACE(_CREDENTIALS.size) if _LINUX_CREDENTIALS else 0
                )
            except (BlockingIOError, InterruptedError):
                return messages
            except OSError:
                return messages
            try:
                fields = orjson.loads(data)
            except orjson.JSONDecodeError:
                continue
            if not isinstance(fields, list) or len(fields) < 2:
                continue
            sender = _sender_pid(ancillary, fields)
            if sender is not None:
                messages.append((sender, fields))

    def close(self) -> None:
        self._sock.close()
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)


def _sender_pid(ancillary: list[tuple[int, int, bytes]], fields: list[Any]) -> int | None:
    """The kernel-attested pid of the sender (Linux), else the pid the message names."""
    if not _LINUX_CREDENTIALS:
        claimed = fields[-1]
        return claimed if isinstance(claimed, int) else None
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS and len(data) >= _CREDENTIALS.size:
            pid, uid, _gid = _CREDENTIALS.unpack(data[: _CREDENTIALS.size])
            return pid if uid == os.getuid() else None
    return None


class Sender:
    """A worker's end. Sending never raises: a lost progress report must not fail a call."""

    def __init__(self, address: str | bytes) -> None:
        self._address = address
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sock.settimeout(1.0)

    def send(self, *fields: Any) -> None:
        with contextlib.suppress(OSError, TypeError):
            self._sock.sendto(orjson.dumps([*fields, os.getpid()]), self._address)
