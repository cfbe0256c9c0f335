"""The command an MCP client should run to start this installation's server, and whether this
installation will still be there tomorrow.

The entry names the running `sf` by its absolute path (or the absolute interpreter with
`-m sofia`), so it works whatever PATH the client has. An interpreter inside a cache a tool clears
on its own — uv's (`uvx`, `uv run --with`: `…/uv/archive-v0/…`, `…/environments-v2/…`) or pipx's
run cache (`pipx run`: `…/pipx/.cache/…`) — would leave a dead entry after `uv cache clean`, so
`sf init` refuses to write one and says how to install sofia for good. A virtual environment in a
temporary directory is not such a cache: it stays until someone removes it.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path, PurePath

from sofia import settings
from sofia.errors import UsageError

_UV_BUCKET = re.compile(r"(?:archive|environments|builds)-v\d+")
"""uv's cache buckets that hold whole environments."""
_CACHE_NAMES = (".cache", "cache", "caches")
"""What a user cache directory is called (`~/.cache`, `%LOCALAPPDATA%\\…\\cache`, `~/Library/Caches`)."""

INSTALL_HINT = (
    "install sofia for good, then run sf init from that installation: uv tool install sofia-ctx, "
    "or pipx install sofia-ctx (from a checkout: uv tool install . or pipx install .)"
)


@dataclass(frozen=True)
class Entry:
    """The server entry: the command and its arguments."""

    command: str
    args: tuple[str, ...]

    def spelled(self) -> str:
        return " ".join([self.command, *self.args])


UV_CACHE = "uv's cache, which uv cache clean empties"
PIPX_RUN_CACHE = "pipx's run cache, which pipx empties after a few days"


def ephemeral(path: PurePath) -> str:
    """Which cleared-on-its-own cache `path` lies in, and what clears it; "" for none."""
    parts = [part.lower() for part in path.parts]
    for index, part in enumerate(parts[1:], start=1):
        above = parts[:index]
        if _UV_BUCKET.fullmatch(part) and ("uv" in above[-2:] or _has_cache_tag(path, index)):
            return UV_CACHE
        if part == "pipx" and index + 1 < len(parts) and parts[index + 1] == ".cache":
            return PIPX_RUN_CACHE
        if part == "pipx" and above[-1] in _CACHE_NAMES and index + 1 < len(parts):
            return PIPX_RUN_CACHE
    return ""


def _has_cache_tag(path: PurePath, index: int) -> bool:
    """A uv cache moved elsewhere (`UV_CACHE_DIR`) still marks its top with `CACHEDIR.TAG`."""
    return (Path(*path.parts[:index]) / "CACHEDIR.TAG").is_file()


def own_entry(workers: str | None, tools: str | None) -> Entry:
    """How to start this installation's server, from any directory and any PATH; a UsageError
    when this installation lives in a cache that will be cleared."""
    args = ["mcp"]
    if workers is not None:
        try:
            count = int(workers)
        except ValueError:
            raise UsageError(f"--workers must be a whole number, e.g. 2, not {workers!r}") from None
        if not 1 <= count <= settings.MAX_WORKERS:
            raise UsageError(f"--workers must be from 1 to {settings.MAX_WORKERS}, not {count}")
        args += ["--workers", str(count)]
    if tools is not None:
        from sofia.providers.registry import served

        served(wanted=settings.names(tools))  # UsageError naming an unknown tool or group
        args += ["--tools", ",".join(settings.names(tools))]
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name in ("sf", "sofia") and script.is_file():
        entry = Entry(str(script.resolve()), tuple(args))
    else:
        entry = Entry(str(Path(sys.executable).absolute()), ("-m", "sofia", *args))
    cache = ephemeral(Path(entry.command))
    if cache:
        raise UsageError(
            f"this sf runs from {cache} ({entry.command}): an entry naming it would stop working "
            f"then; {INSTALL_HINT}"
        )
    return entry
