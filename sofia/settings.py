"""Every environment setting sofia reads, in one list, parsed one way for the CLI and the server.

A bad value is a `UsageError` naming the variable, what it accepts and what it got, wherever it
is read: the CLI exits 2, `sf mcp` refuses to start (and says so to its client). Nothing is ever
silently ignored. `sf mcp` checks every setting once at start, so a worker never meets a bad one.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sofia.errors import UsageError, quote

DEFAULT_BUDGET = 20_000
"""Default output budget in estimated tokens (below Claude Code's 25,000 tool-result limit)."""
MAX_WORKERS = 64
"""More workers than this only multiplies memory: calls are bounded by the machine's cores."""

_TRUE = ("1", "on", "true", "yes")
_FALSE = ("0", "off", "false", "no")


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """A parser of whole numbers in `low..high`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError("a whole number") from None
        if value < low or (high is not None and value > high):
            raise ValueError(f"a whole number from {low} to {high}" if high is not None else f"{low} or more")
        return value

    parse.__doc__ = (
        f"a whole number, {low} or more" if high is None else f"a whole number from {low} to {high}"
    )
    return parse


def positive_number(text: str) -> float:
    """a positive number of seconds"""
    try:
        value = float(text)
    except ValueError:
        raise ValueError("a positive number") from None
    if not value > 0 or value == float("inf"):
        raise ValueError("a positive number")
    return value


def switch(text: str) -> bool:
    """on or off"""
    lowered = text.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError("on or off (also 1/0, true/false, yes/no)")


def one_of(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        lowered = text.strip().lower()
        if lowered not in choices:
            raise ValueError("one of " + ", ".join(choices))
        return lowered

    parse.__doc__ = "one of " + ", ".join(choices)
    return parse


def names(text: str) -> tuple[str, ...]:
    """comma-separated names"""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def text(value: str) -> str:
    """any text"""
    return value


def url(value: str) -> str:
    """an http(s) URL"""
    if not value.startswith(("http://", "https://")) or len(value) <= len("https://"):
        raise ValueError("an http(s) URL")
    return value.rstrip("/")


def epoch(value: str) -> float:
    """epoch seconds"""
    try:
        seconds = float(value)
    except ValueError:
        raise ValueError("a number of epoch seconds") from None
    if seconds != seconds or seconds in (float("inf"), float("-inf")):
        raise ValueError("a number of epoch seconds")
    return seconds


@dataclass(frozen=True)
class Setting:
    """One environment variable: what it means, how it is parsed, its default."""

    env: str
    help: str
    parse: Callable[[str], Any]
    default: Any
    flag: str = ""
    """The command-line option that overrides it, if any."""

    def accepts(self) -> str:
        return (self.parse.__doc__ or "").strip()


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "SOFIA_MAX_OUTPUT_TOKENS",
        "output budget per result in estimated tokens; 0 = unlimited",
        whole(0, 10_000_000),
        DEFAULT_BUDGET,
        flag="--max-output-tokens",
    ),
    Setting(
        "SOFIA_PAYLOAD", "MCP payload format of results", one_of("json", "toon"), "json", flag="--payload"
    ),
    Setting(
        "SOFIA_LOG_LEVEL",
        "sf mcp log level on stderr",
        one_of("debug", "info", "warning", "error"),
        "warning",
        flag="--log-level",
    ),
    Setting("SOFIA_TOOLS", "sf mcp: only these tools or groups", names, (), flag="--tools"),
    Setting("SOFIA_WORKER_MAX_CALLS", "calls after which an MCP worker is replaced", whole(1), 500),
    Setting("SOFIA_WORKER_MAX_RSS_MB", "MCP worker memory (MiB) after which it is replaced", whole(64), 1024),
    Setting("SOFIA_FOOTER", "the CLI's `# sf ≈N tok` line on stderr", switch, True),
    Setting("SOFIA_HEAD_START", "sf grep starts ripgrep before its model is loaded", switch, True),
    Setting("SOFIA_DEBUG", "the CLI prints tracebacks of internal errors", switch, False),
    Setting("SOFIA_CC_CACHE", "the Claude Code transcript parse cache", switch, True),
    Setting("SOFIA_CACHE_DIR", "where caches live (default: the user cache directory)", text, ""),
    Setting("CC_PROJECTS_DIR", "Claude Code's projects folder (default ~/.claude/projects)", text, ""),
    Setting(
        "SOFIA_CODE_RAW_BELOW",
        "code: files smaller than this many bytes come back raw; 0 = always summarise",
        whole(0),
        8192,
    ),
    Setting(
        "SOFIA_REFS_JOBS",
        "refs: processes classifying uses at once; 0 = the cores, up to 4, once there are enough files",
        whole(0, MAX_WORKERS),
        0,
    ),
    Setting("SOFIA_PACKAGIST_URL", "Packagist's metadata host (default https://repo.packagist.org)", url, ""),
    Setting(
        "SOFIA_PACKAGIST_API_URL",
        "Packagist's API host for sf packagist release (default https://packagist.org)",
        url,
        "",
    ),
    Setting(
        "SOFIA_GH_POLL_SECONDS", "seconds between two polls of sf github ci --watch", positive_number, 8.0
    ),
    Setting("SOFIA_NOW", "pins the clock to these epoch seconds (reproducible tests)", epoch, None),
    Setting(
        "SOFIA_TEST_PROVIDERS",
        "the test suite's module whose PROVIDERS are added to the registry (fault paths)",
        text,
        "",
    ),
)

_BY_NAME = {setting.env: setting for setting in SETTINGS}


def get(env: str, given: str | None = None) -> Any:
    """The value of setting `env`: `given` (a flag's text) first, then the environment, then the default.

    An empty variable counts as unset. A bad value raises UsageError naming its source.
    """
    setting = _BY_NAME[env]
    source, raw = (setting.flag, given) if given is not None else (env, os.environ.get(env, ""))
    if given is None and not raw.strip():
        return setting.default
    try:
        return setting.parse(raw.strip())
    except ValueError as error:
        raise UsageError(f"{source} must be {error}, not {quote(raw, 40)!r}") from None


def positive_number_flag(flag: str, raw: str) -> float:
    """A flag that takes a positive number of seconds (`--timeout 30`)."""
    try:
        return positive_number(raw)
    except ValueError as error:
        raise UsageError(f"{flag} must be {error}, not {quote(raw, 40)!r}") from None


def check_all() -> None:
    """Parse every setting present in the environment now (UsageError on the first bad one)."""
    for setting in SETTINGS:
        get(setting.env)
