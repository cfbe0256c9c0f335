"""Reading Packagist's p2 metadata (`<base>/p2/<name>.json`) with bounded retries inside a deadline.

Every request gets at most 5 s (less when the deadline is nearer); transport errors, 429 and 5xx
are retried up to three attempts in all, after a jittered 0.2 s then 0.6 s pause or the server's
`Retry-After` when it asks for at most 5 s. 404 means "not published"; other statuses and bodies
that are not a p2 document are errors. httpx is imported on first use: the CLI imports this module
to build `--help`.
"""

from __future__ import annotations

import email.utils
import random
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import orjson

from sofia import settings
from sofia.errors import quote

if TYPE_CHECKING:
    import httpx

DEFAULT_P2_URL = "https://repo.packagist.org"
REQUEST_TIMEOUT = 5.0
ATTEMPTS = 3
BACKOFF = (0.2, 0.6)
MAX_RETRY_AFTER = 5.0
MAX_BODY = 32 * 1024 * 1024
USER_AGENT = "sofia (packagist status; +https://github.com/sofia-ctx/sofia)"


def p2_base() -> str:
    """`$SOFIA_PACKAGIST_URL` (a local mirror or test server) or Packagist's metadata host."""
    base: str = settings.get("SOFIA_PACKAGIST_URL") or DEFAULT_P2_URL
    return base


def p2_url(name: str, base: str | None = None) -> str:
    return f"{base or p2_base()}/p2/{name}.json"


@dataclass
class Fetched:
    """What one package's p2 document said."""

    versions: list[str] | None = None
    """Every `version` listed, in document order; None when Packagist does not know the package."""
    error: str = ""
    """What went wrong, in a few words (`connection refused by 127.0.0.1:8080`); "" when nothing did."""
    requests: int = 0
    cause: str = ""
    """Why the fetch failed, "" on success: `packagist-dns` (the host does not resolve),
    `packagist-refused` (nothing listens), `packagist-timeout` (no answer in time), `packagist-tls`
    (the handshake failed), `packagist-http-NNN` (an HTTP status), `packagist-invalid` (a body that
    is not a p2 document), `packagist-network` (another transport error) or `budget` (the call's
    budget ran out first)."""

    @property
    def published(self) -> bool:
        return self.versions is not None


@dataclass
class _Attempt:
    fetched: Fetched | None = None
    problem: str = ""
    cause: str = ""
    retry_after: float | None = None
    retryable: bool = False


@dataclass
class P2Client:
    """A shared connection pool for one call; thread-safe, close it when done."""

    deadline: float
    """`time.monotonic()` instant after which no request starts or continues."""
    base: str = field(default_factory=p2_base)
    _client: httpx.Client | None = None
    _creating: threading.Lock = field(default_factory=threading.Lock)

    def __enter__(self) -> P2Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def _http(self) -> httpx.Client:
        """One client per call, created by the first thread that needs it (its TLS setup is costly)."""
        with self._creating:
            if self._client is None:
                self._client = self._new_client()
        return self._client

    @staticmethod
    def _new_client() -> httpx.Client:
        import httpx

        return httpx.Client(
            headers={"User-Agent": USER_AGENT},
            follow_redirects=True,
            limits=httpx.Limits(max_connections=8, max_keepalive_connections=8),
        )

    def fetch(self, name: str) -> Fetched:
        """The versions Packagist lists for `name` (already validated against Composer's name pattern)."""
        url = p2_url(name, self.base)
        requests = 0
        problem, cause = "the budget ran out before the request", "budget"
        for attempt in range(ATTEMPTS):
            left = self.deadline - time.monotonic()
            if left <= 0:
                break
            requests += 1
            outcome = self._attempt(url, name, min(REQUEST_TIMEOUT, left))
            if outcome.fetched is not None:
                outcome.fetched.requests = requests
                return outcome.fetched
            problem, cause = outcome.problem, outcome.cause
            if cause == "packagist-timeout" and left < REQUEST_TIMEOUT:
                problem, cause = f"no answer within the {left:.1f} s the budget left", "budget"
            if not outcome.retryable or attempt == ATTEMPTS - 1:
                break
            if outcome.retry_after is not None and outcome.retry_after > MAX_RETRY_AFTER:
                problem += f" (server asks to retry after {outcome.retry_after:g} s)"
                break
            pause = outcome.retry_after
            if pause is None:
                pause = BACKOFF[attempt] * random.uniform(0.5, 1.0)
            if time.monotonic() + pause >= self.deadline:
                break
            time.sleep(pause)
        return Fetched(None, problem, requests, cause)

    def _attempt(self, url: str, name: str, timeout: float) -> _Attempt:
        import httpx

        try:
            with self._http().stream("GET", url, timeout=timeout) as response:
                status = response.status_code
                if status == 200:
                    body = _read_capped(response)
                    return _parse(body, name)
                retry_after = _retry_after(response.headers.get("Retry-After"))
        except httpx.TimeoutException:
            return _Attempt(
                problem=f"no answer within {timeout:.1f} s", cause="packagist-timeout", retryable=True
            )
        except httpx.TransportError as exc:
            cause, problem = transport_cause(exc, url)
            return _Attempt(problem=problem, cause=cause, retryable=True)
        except _TooLarge:
            return _Attempt(
                problem=f"p2 document larger than {MAX_BODY // (1024 * 1024)} MiB", cause="packagist-invalid"
            )
        if status == 404:
            return _Attempt(fetched=Fetched(None))
        retryable = status == 429 or status >= 500
        return _Attempt(
            problem=f"HTTP {status}",
            cause=f"packagist-http-{status}",
            retry_after=retry_after,
            retryable=retryable,
        )


def transport_cause(exc: BaseException, url: str) -> tuple[str, str]:
    """(cause, what happened) for a transport error: the exception chain names the failing layer
    (name resolution, the TCP connection, the TLS handshake); its text is only the fallback."""
    import socket
    import ssl

    parts = urlsplit(url)
    host = parts.hostname or parts.netloc
    where = f"{host}:{parts.port}" if parts.port else host
    link: BaseException | None = exc
    while link is not None:
        if isinstance(link, socket.gaierror):
            return "packagist-dns", f"cannot resolve {host}"
        if isinstance(link, ConnectionRefusedError):
            return "packagist-refused", f"connection refused by {where}"
        if isinstance(link, ssl.SSLError | ssl.CertificateError):
            reason = getattr(link, "reason", None) or str(link)
            return "packagist-tls", f"TLS handshake with {where} failed: {quote(str(reason), 80)}"
        link = link.__cause__ or link.__context__
    text = str(exc)
    lowered = text.lower()
    if any(m in lowered for m in ("name or service not known", "name resolution", "nodename nor servname")):
        return "packagist-dns", f"cannot resolve {host}"
    if "connection refused" in lowered:
        return "packagist-refused", f"connection refused by {where}"
    if "ssl" in lowered or "certificate" in lowered:
        return "packagist-tls", f"TLS handshake with {where} failed: {quote(text, 80)}"
    return "packagist-network", quote(f"{type(exc).__name__}: {text}".rstrip(": "), 120)


class _TooLarge(Exception):
    pass


def _read_capped(response: httpx.Response) -> bytes:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > MAX_BODY:
            raise _TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(body: bytes, name: str) -> _Attempt:
    """The `version` of every entry of `packages[<name>]` (minified or not: each entry has one)."""
    try:
        document: Any = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        return _Attempt(
            problem=f"p2 document is not valid JSON (line {exc.lineno}, column {exc.colno})",
            cause="packagist-invalid",
        )
    if not isinstance(document, dict) or not isinstance(document.get("packages"), dict):
        return _Attempt(problem='p2 document has no "packages" object', cause="packagist-invalid")
    entries = document["packages"].get(name)
    if not isinstance(entries, list):
        return _Attempt(problem=f"p2 document does not list {name}", cause="packagist-invalid")
    found = [
        entry["version"]
        for entry in entries
        if isinstance(entry, dict) and isinstance(entry.get("version"), str)
    ]
    return _Attempt(fetched=Fetched(found))


def _retry_after(value: str | None) -> float | None:
    """`Retry-After` in seconds (delta-seconds or an HTTP date), None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())
