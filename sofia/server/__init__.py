"""`sf mcp`: the MCP stdio server (see `sofia.server.app`).

Importing this package is cheap; `mcp` and `loky` are imported only once `main` runs.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main(argv: list[str]) -> int:
    """Run `sf mcp` with `argv` (the arguments after `mcp`); returns the exit status."""
    from sofia.errors import UsageError
    from sofia.providers.registry import PROVIDERS, served
    from sofia.server.options import parse

    try:
        options = parse(argv)
        providers = served(PROVIDERS, options.tools)
    except UsageError as exc:
        return _refuse(str(exc))
    except SystemExit as exc:  # argparse: --help
        return exc.code if isinstance(exc.code, int) else 0
    if sys.stdin.isatty():
        print(
            "sf mcp speaks MCP on stdin/stdout: an MCP client starts it. To register it with your "
            "agents, run sf init (sf init --help). Waiting for a client here; Ctrl-C stops.",
            file=sys.stderr,
        )
    from sofia.server.app import run

    return run(options, providers)


def _refuse(message: str) -> int:
    """Say why the server cannot start, on stderr and to the client; exit status 2."""
    print(f"sf mcp: error: {message}", file=sys.stderr)
    if not sys.stdin.isatty():
        from sofia.server.startfail import explain

        explain(message)
    return 2
