"""Start a configured MCP server command exactly as a client would and shake hands with it.

Plain JSON-RPC over the child's pipes (no SDK import): `initialize`, `notifications/initialized`,
`tools/list`. What comes back says whether an agent will connect, or why not, in one line.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sofia import __version__
from sofia.errors import quote

PROTOCOL_VERSION = "2025-06-18"
TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True)
class Handshake:
    ok: bool
    detail: str
    """`17 tools from sofia 0.2.0 in 0.8 s`, or what went wrong."""
    tools: tuple[str, ...] = ()


def shake(
    command: str,
    args: Sequence[str],
    cwd: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = TIMEOUT_SECONDS,
) -> Handshake:
    environment = {**os.environ, **(env or {})}
    started = time.monotonic()
    with tempfile.TemporaryFile() as errors:
        try:
            child = subprocess.Popen(
                [command, *args],
                cwd=cwd,
                env=environment,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
            )
        except FileNotFoundError:
            return Handshake(False, f"command not found: {quote(command)}")
        except PermissionError:
            return Handshake(False, f"command is not executable: {quote(command)}")
        except OSError as error:
            return Handshake(False, f"cannot start {quote(command)}: {error.strerror or error}")
        try:
            return _converse(child, started + timeout, started, errors)
        finally:
            _stop(child)


def _converse(child: subprocess.Popen[bytes], deadline: float, started: float, errors: Any) -> Handshake:
    reader = _Lines(child)
    _send(child, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": _initialize_params()})
    reply = reader.reply(1, deadline)
    if reply is None:
        return Handshake(False, _no_answer(child, "initialize", errors))
    if "error" in reply:
        return Handshake(False, f"initialize refused: {quote(_error_text(reply), 300)}")
    info = reply.get("result", {}).get("serverInfo", {})
    _send(child, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    _send(child, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    listed = reader.reply(2, deadline)
    if listed is None:
        return Handshake(False, _no_answer(child, "tools/list", errors))
    if "error" in listed:
        return Handshake(False, f"tools/list refused: {quote(_error_text(listed), 300)}")
    names = tuple(str(tool.get("name", "")) for tool in listed.get("result", {}).get("tools", []))
    server = f"{info.get('name', '?')} {info.get('version', '')}".strip()
    return Handshake(True, f"{len(names)} tools from {server} in {time.monotonic() - started:.1f} s", names)


def _initialize_params() -> dict[str, Any]:
    return {
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "sofia-init-check", "version": __version__},
    }


def _send(child: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert child.stdin is not None
    try:
        child.stdin.write(json.dumps(message).encode() + b"\n")
        child.stdin.flush()
    except OSError:
        pass  # the child is gone: reading its answer says how


class _Lines:
    """JSON messages from the child's stdout, one per line, waiting at most until a deadline."""

    def __init__(self, child: subprocess.Popen[bytes]) -> None:
        assert child.stdout is not None
        self._fd = child.stdout.fileno()
        self._pending = b""

    def reply(self, request_id: int, deadline: float) -> dict[str, Any] | None:
        while True:
            while b"\n" in self._pending:
                line, self._pending = self._pending.split(b"\n", 1)
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict) and message.get("id") == request_id:
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(self._fd, 65536)
            if not chunk:
                return None
            self._pending += chunk


def _error_text(reply: dict[str, Any]) -> str:
    error = reply.get("error")
    return str(error.get("message", error)) if isinstance(error, dict) else str(error)


def _no_answer(child: subprocess.Popen[bytes], stage: str, errors: Any) -> str:
    code = child.poll()
    errors.seek(0)
    lines = [line.strip() for line in errors.read().decode("utf-8", "replace").splitlines() if line.strip()]
    said = f": {quote(lines[-1], 300)}" if lines else ""
    if code is None:
        return f"no answer to {stage} in time{said}"
    return f"exited with status {code} before answering {stage}{said}"


def _stop(child: subprocess.Popen[bytes]) -> None:
    try:
        if child.stdin is not None:
            child.stdin.close()
    except OSError:
        pass
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
