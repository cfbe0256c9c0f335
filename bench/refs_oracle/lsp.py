"""A small Language Server Protocol client over stdio (JSON-RPC with Content-Length framing):
enough to start a server, answer what it asks, wait for its indexing and send requests."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from queue import Empty, Queue
from typing import Any


class LspError(RuntimeError):
    pass


class Client:
    def __init__(self, command: Sequence[str], cwd: Path, answer: Callable[[str, Any], Any]) -> None:
        self.process = subprocess.Popen(
            list(command), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.answer = answer
        self.next_id = 0
        self.pending: dict[int, Queue[dict[str, Any]]] = {}
        self.notifications: Queue[dict[str, Any]] = Queue()
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self.read_loop, daemon=True)
        self.reader.start()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        with self.lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def read_loop(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:
                self.send(
                    {"id": message["id"], "result": self.answer(message["method"], message.get("params"))}
                )
            elif "id" in message:
                queue = self.pending.pop(message["id"], None)
                if queue is not None:
                    queue.put(message)
            else:
                self.notifications.put(message)

    def request(self, method: str, params: Any, timeout: float = 300) -> Any:
        self.next_id += 1
        queue: Queue[dict[str, Any]] = Queue()
        self.pending[self.next_id] = queue
        self.send({"id": self.next_id, "method": method, "params": params})
        try:
            reply = queue.get(timeout=timeout)
        except Empty as exc:
            raise LspError(f"{method}: no answer in {timeout:.0f} s") from exc
        if "error" in reply:
            raise LspError(f"{method}: {reply['error']}")
        return reply.get("result")

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def wait_for(self, method: str, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LspError(f"no {method} notification in {timeout:.0f} s")
            try:
                message = self.notifications.get(timeout=left)
            except Empty:
                continue
            if message.get("method") == method:
                return message

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=30)
            self.notify("exit", None)
            self.process.wait(timeout=30)
        except (LspError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
