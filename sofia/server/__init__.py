"""`sf mcp`: the MCP stdio server (see `sofia.server.app`).

Importing this package is cheap; `mcp` and `loky` are imported only once `main` runs.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main(argv: list[str]) -> int:
    """Run `sf mcp` with `argv` (the arguments after `mcp`); returns the exit status."""
    from sofia.errors import UsageError
    from sofia.providers.registry import PROVIDERS
    from sofia.server.options import parse
    from sofia.server.tools import served

    try:
        options = parse(argv)
        providers = served(PROVIDERS, options.tools)
    except UsageError as exc:
        print(f"sf mcp: error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # argparse: --help, or a malformed flag (already reported)
        return exc.code if isinstance(exc.code, int) else 2
    from sofia.server.app import run

    return run(options, providers)
