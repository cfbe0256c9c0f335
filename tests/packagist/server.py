"""A real local HTTP server standing in for Packagist: p2 metadata and the update-package API.

Each p2 path answers from a script of replies (the last one repeats), so tests can ask for
"two 503s, then the document", a 429 with `Retry-After`, malformed JSON, or a reply that never
comes. Every request is recorded. Documents are shaped like real p2 files: the `minified`
`composer/2.0` form, where the first entry carries every field and later ones only what changed.
"""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

import orjson


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0
    """Seconds to wait before answering; `HANG` waits until the server stops."""


HANG = float("inf")


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    body: bytes
    at: float


class _QuietServer(ThreadingHTTPServer):
    """Clients that give up on purpose (the timeout tests) reset their connection: not an error."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@dataclass
class FakePackagist:
    routes: dict[str, list[Reply]] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    on_update: Callable[[Request], None] | None = None
    update_reply: Reply = field(default_factory=lambda: Reply(202, b'{"status":"success","jobs":["4b1c"]}'))
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None

    def start(self) -> FakePackagist:
        server = _QuietServer(("127.0.0.1", 0), _handler(self))
        server.daemon_threads = True
        self._server = server
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def serve(self, name: str, *replies: Reply) -> None:
        """Script the replies to `GET /p2/<name>.json`."""
        with self._lock:
            self.routes[f"/p2/{name}.json"] = list(replies)

    def publish(self, name: str, *package_versions: str) -> None:
        self.serve(name, Reply(200, p2_document(name, package_versions)))

    def p2_requests(self, name: str) -> list[Request]:
        return [r for r in self.requests if r.path == f"/p2/{name}.json"]

    def posts(self) -> list[Request]:
        return [r for r in self.requests if r.method == "POST"]

    def _next(self, path: str) -> Reply:
        with self._lock:
            script = self.routes.get(path)
            if not script:
                return Reply(404, b'{"status":"error","message":"Package not found"}')
            return script.pop(0) if len(script) > 1 else script[0]

    def _record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)


def _handler(fake: FakePackagist) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return None

        def do_GET(self) -> None:
            request = self._request(b"")
            self._answer(fake._next(request.path))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = self._request(self.rfile.read(length))
            if request.path == "/api/update-package":
                if fake.on_update is not None:
                    fake.on_update(request)
                self._answer(fake.update_reply)
            else:
                self._answer(Reply(404))

        def _request(self, body: bytes) -> Request:
            parts = urlsplit(self.path)
            request = Request(self.command, parts.path, parse_qs(parts.query), body, time.monotonic())
            fake._record(request)
            return request

        def _answer(self, reply: Reply) -> None:
            if reply.delay:
                fake._stop.wait(None if reply.delay == HANG else reply.delay)
                if fake._stop.is_set():
                    return
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply.body)))
                for key, value in reply.headers:
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(reply.body)
            except (BrokenPipeError, ConnectionResetError):
                return

    return Handler


def p2_document(name: str, package_versions: tuple[str, ...] | list[str]) -> bytes:
    """A p2 document listing `package_versions` newest first, in Packagist's minified form."""
    vendor, project = name.split("/")
    entries: list[dict[str, Any]] = []
    for index, version in enumerate(package_versions):
        normalized = version.lstrip("vV")
        reference = hashlib.sha1(f"{name}@{version}".encode()).hexdigest()
        full = {
            "name": name,
            "description": f"{project.replace('-', ' ').capitalize()} for Acme applications",
            "keywords": [project, "acme"],
            "homepage": f"https://github.com/{name}",
            "version": version,
            "version_normalized": normalized if normalized.count(".") >= 3 else normalized + ".0",
            "license": ["MIT"],
            "authors": [{"name": "Acme Maintainers", "email": "oss@acme.example"}],
            "source": {"url": f"https://github.com/{name}.git", "type": "git", "reference": reference},
            "dist": {
                "url": f"https://api.github.com/repos/{name}/zipball/{reference}",
                "type": "zip",
                "shasum": "",
                "reference": reference,
            },
            "type": "library",
            "time": f"2026-0{1 + index % 9}-1{index % 10}T09:1{index % 10}:00+00:00",
            "autoload": {"psr-4": {f"{vendor.capitalize()}\\{project.title().replace('-', '')}\\": "src/"}},
            "require": {"php": ">=8.1"},
            "require-dev": {"phpunit/phpunit": "^9.6", "phpstan/phpstan": "^1.10"},
            "support": {
                "issues": f"https://github.com/{name}/issues",
                "source": f"https://github.com/{name}/tree/{version}",
            },
        }
        if index == 0:
            entries.append(full)
        else:
            entries.append(
                {
                    "version": version,
                    "version_normalized": full["version_normalized"],
                    "source": full["source"],
                    "dist": full["dist"],
                    "time": full["time"],
                    "support": full["support"],
                }
            )
    return orjson.dumps({"minified": "composer/2.0", "packages": {name: entries}})


class _Env(Protocol):
    def setenv(self, name: str, value: str) -> None: ...


@contextmanager
def local_packagist(env: _Env) -> Iterator[FakePackagist]:
    """A running fake Packagist that both the p2 client and the update API point at (`env` sets
    the variables: pytest's monkeypatch)."""
    fake = FakePackagist().start()
    env.setenv("SOFIA_PACKAGIST_URL", fake.url)
    env.setenv("SOFIA_PACKAGIST_API_URL", fake.url)
    try:
        yield fake
    finally:
        fake.stop()
