"""`sf mcp` options: flags first, then their environment variables, then the defaults."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from sofia import settings
from sofia.errors import UsageError
from sofia.settings import DEFAULT_BUDGET
from sofia.workers.protocol import PayloadFormat


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
    payload: PayloadFormat = "json"
    """How results are encoded: compact JSON, or TOON where that is no larger."""
    roots_given: bool = False
    """`--root` was given: it wins over the roots the client names, which are then not asked for."""


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are UsageErrors, so `sf mcp` can tell its client as well as stderr."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        raise UsageError(message)


def parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="sf mcp",
        description=(
            "Serve sofia's tools over MCP on stdio (newline-delimited JSON-RPC). Every call runs in a "
            "pooled worker process; stdout carries the protocol only."
        ),
        epilog=(
            "environment: SOFIA_MAX_OUTPUT_TOKENS, SOFIA_PAYLOAD, SOFIA_LOG_LEVEL, SOFIA_TOOLS (defaults for the options "
            "above); SOFIA_WORKER_MAX_CALLS (500) and SOFIA_WORKER_MAX_RSS_MB (1024) recycle workers.\n"
            "example: claude mcp add sofia -- sf mcp"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_call_options(p)
    _add_scope_options(p)
    return p


def _add_call_options(p: argparse.ArgumentParser) -> None:
    """How calls run: the pool's size, the deadline, the budget, the payload's format."""
    cpus = os.cpu_count() or 1
    p.add_argument(
        "--workers",
        type=_whole_number,
        default=min(4, cpus),
        metavar="N",
        help=f"worker processes (default: {min(4, cpus)})",
    )
    p.add_argument(
        "--timeout",
        default=None,
        metavar="SECONDS",
        help="per-call deadline for every tool (default: each tool's own, 120 for most)",
    )
    p.add_argument(
        "--max-output-tokens",
        default=None,
        metavar="N",
        help=f"output budget handed to providers; 0 = unlimited (default: $SOFIA_MAX_OUTPUT_TOKENS or {DEFAULT_BUDGET})",
    )
    p.add_argument(
        "--payload",
        default=None,
        metavar="FORMAT",
        help=(
            "result format: json (compact JSON) or toon (TOON, fewer tokens for tables; a result that "
            "would be larger as TOON is sent as JSON) (default: $SOFIA_PAYLOAD or json)"
        ),
    )


def _add_scope_options(p: argparse.ArgumentParser) -> None:
    """What the server reaches and says: the allowed roots, the log level, the tools served."""
    p.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="DIR",
        help=(
            "allowed root for path parameters, repeatable; wins over the client's roots (default: the "
            "client's roots, else the current directory; / lifts confinement)"
        ),
    )
    p.add_argument(
        "--log-level",
        default=None,
        metavar="LEVEL",
        help="stderr log level: debug, info, warning, error (default: $SOFIA_LOG_LEVEL or warning; info logs one line per call)",
    )
    p.add_argument(
        "--tools",
        default=None,
        metavar="LIST",
        help=f"only these tools or groups, comma-separated, e.g. {_example_tools()} (default: $SOFIA_TOOLS or all)",
    )


def parse(argv: list[str]) -> Options:
    """Options from `argv` and the environment; argparse exits on bad flags, UsageError on bad values
    (of a flag or of any setting in the environment, see `sofia.settings`)."""
    args = parser().parse_args(argv)
    settings.check_all()
    if not 1 <= args.workers <= settings.MAX_WORKERS:
        raise UsageError(f"--workers must be from 1 to {settings.MAX_WORKERS}, not {args.workers}")
    timeout = None if args.timeout is None else settings.positive_number_flag("--timeout", args.timeout)
    given = None if args.max_output_tokens is None else str(args.max_output_tokens)
    budget: int = settings.get("SOFIA_MAX_OUTPUT_TOKENS", given)
    tools = settings.get("SOFIA_TOOLS", args.tools)
    return Options(
        workers=args.workers,
        timeout=timeout,
        budget=budget or None,
        roots=_roots(args.root),
        log_level=settings.get("SOFIA_LOG_LEVEL", args.log_level),
        tools=tools,
        max_calls=settings.get("SOFIA_WORKER_MAX_CALLS"),
        max_rss=settings.get("SOFIA_WORKER_MAX_RSS_MB") << 20,
        payload=settings.get("SOFIA_PAYLOAD", args.payload),
        roots_given=bool(args.root),
    )


def _example_tools() -> str:
    """Two tool names and a group, from the registry (what `--tools` accepts)."""
    from sofia.providers.registry import GROUPS, served

    names = [provider.name for provider in served()[:2]]
    return ",".join([*names, *(group.name for group in GROUPS[1:2])])


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


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
