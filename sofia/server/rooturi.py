"""Reading the roots a client names (`file://` URIs) as local directories.

A client's root is a URI; only a `file:` URI on this machine names something the server can read.
Each one is decoded the way RFC 8089 writes it (percent-escapes are bytes of the file name, which
need not be UTF-8), resolved (symlinks included, as confinement resolves paths) and checked to
exist; one that cannot be used is set aside with the reason, never guessed at.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote_to_bytes, urlsplit

from sofia.errors import quote

LOCAL_HOSTS = frozenset({"", "localhost"})


@dataclass(frozen=True)
class Roots:
    """What a `roots/list` answer holds, read."""

    paths: tuple[Path, ...]
    """The usable roots, resolved, in the client's order, each once."""
    unusable: tuple[str, ...] = ()
    """One line per root set aside: the URI (quoted) and why."""


def read(uris: Iterable[str]) -> Roots:
    """The usable local roots among `uris`, and why each other one is not."""
    paths: list[Path] = []
    unusable: list[str] = []
    for uri in uris:
        got = local_path(uri)
        if isinstance(got, str):
            unusable.append(f"{quote(uri)!r}: {got}")
        elif got not in paths:
            paths.append(got)
    return Roots(tuple(paths), tuple(unusable))


def local_path(uri: str) -> Path | str:
    """The existing local file or directory `uri` names, resolved; else why it names none."""
    try:
        parts = urlsplit(uri)
    except ValueError as exc:
        return f"not a URI ({exc})"
    if parts.scheme.lower() != "file":
        scheme = f"a {parts.scheme}: URI" if parts.scheme else "not a URI"
        return f"{scheme}, not file://; only local directories can be served"
    if parts.netloc.lower() not in LOCAL_HOSTS:
        return f"on host {quote(parts.netloc)!r}, not this machine"
    raw = os.fsdecode(unquote_to_bytes(parts.path))
    if not raw.startswith("/"):
        return "not an absolute path"
    if "\0" in raw:
        return "holds a NUL byte"
    path = Path(os.path.realpath(raw))
    try:
        path.stat()
    except OSError as exc:
        reason = (
            "does not exist" if isinstance(exc, FileNotFoundError) else f"cannot be read ({exc.strerror})"
        )
        return f"{quote(raw)} {reason}"
    return path
