"""`sf mcp` options: flags first, then their environment variables, then the defaults."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from sofia.errors import UsageError
from sofia.providers.contract import DEFAULT_BUDGET

LOG_LEVELS = ("debug", "info", "warning", "error")
DEFAULT_MAX_CALLS = 500
DEFAULT_MAX_RSS_MB = 1024


@dataclass(frozen=True)
class Options:
    workers: int
    timeout: float | None
    """Per-call deadline for every tool; None: each provider's own (registry `timeout`)."""
    budget: int | None
    """Output budget in estimated tokens; None: unlimited."""
    roots: tuple[Path, ...]
    """Allowed roots for path parameters, resolved; empty: no confinement (`--root /`)."""
    log_level: str
    tools: tuple[str, ...]
    """Tool names or groups to serve; empty: all."""
    max_calls: int
    """Calls after which a worker is replaced."""
    max_rss: int
    """Worker resident memory (bytes) after which it is replaced between calls."""


def parser() -> argparse.ArgumentParser:
    cpus = os.cpu_count() or 1
    p = argparse.ArgumentParser(
        prog="sf mcp",
        description=(
            "Serve sofia's tools over MCP on stdio (newline-delimited JSON-RPC). Every call runs in a "
            "pooled worker process; stdout carries the protocol only."
        ),
        epilog=(
            "environment: SOFIA_MAX_OUTPUT_TOKENS, SOFIA_LOG_LEVEL, SOFIA_TOOLS (defaults for the options "
            "above); SOFIA_WORKER_MAX_CALLS (500) and SOFIA_WORKER_MAX_RSS_MB (1024) recycle workers.\n"
            "example: claude mcp add sofia -- sf mcp"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--workers",
        type=int,
        default=min(4, cpus),
        metavar="N",
        help=f"worker processes (default: {min(4, cpus)})",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="per-call deadline for every tool (default: each tool's own, 120 for most)",
    )
    p.add_argument(
        "--max-output-tokens",
        type=int,
        default=None,
        metavar="N",
        help=f"output budget handed to providers; 0 = unlimited (default: $SOFIA_MAX_OUTPUT_TOKENS or {DEFAULT_BUDGET})",
    )
    p.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="DIR",
        help="allowed root for path parameters, repeatable (default: the current directory; / lifts confinement)",
    )
    p.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default=None,
        help="stderr log level (default: $SOFIA_LOG_LEVEL or warning; info logs one line per call)",
    )
    p.add_argument(
        "--tools",
        default=None,
        metavar="LIST",
        help="only these tools or groups, comma-separated, e.g. code,grep,cc (default: $SOFIA_TOOLS or all)",
    )
    return p


def parse(argv: list[str]) -> Options:
    """Options from `argv` and the environment; argparse exits on bad flags, UsageError on bad values."""
    args = parser().parse_args(argv)
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    if args.timeout is not None and not args.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds, not {args.timeout:g}")
    budget = args.max_output_tokens
    if budget is None:
        budget = _int_env("SOFIA_MAX_OUTPUT_TOKENS", DEFAULT_BUDGET)
    if budget < 0:
        raise UsageError(f"--max-output-tokens must be 0 (unlimited) or more, not {budget}")
    level = args.log_level or os.environ.get("SOFIA_LOG_LEVEL", "").lower() or "warning"
    if level not in LOG_LEVELS:
        raise UsageError(f"SOFIA_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    tools = args.tools if args.tools is not None else os.environ.get("SOFIA_TOOLS", "")
    return Options(
        workers=args.workers,
        timeout=args.timeout,
        budget=budget or None,
        roots=_roots(args.root),
        log_level=level,
        tools=tuple(t.strip() for t in tools.split(",") if t.strip()),
        max_calls=max(1, _int_env("SOFIA_WORKER_MAX_CALLS", DEFAULT_MAX_CALLS)),
        max_rss=max(1, _int_env("SOFIA_WORKER_MAX_RSS_MB", DEFAULT_MAX_RSS_MB)) << 20,
    )


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise UsageError(f"{name} must be an integer, not {raw!r}") from None


def _roots(given: list[str]) -> tuple[Path, ...]:
    """The allowed roots, resolved; `()` when one of them is `/` (no confinement)."""
    roots: list[Path] = []
    for raw in given or ["."]:
        path = Path(os.path.realpath(os.path.expanduser(raw)))
        if not path.is_dir():
            raise UsageError(f"--root {raw}: not a directory")
        if path == Path(path.anchor):
            return ()
        if path not in roots:
            roots.append(path)
    return tuple(roots)
