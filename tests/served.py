"""What the tests over every served tool need from each tool, kept beside the tool's own tests.

Each test folder's `served.py` holds, for the served tools it tests:

* `ROWS`: the call `tests/server/test_calls.py` makes over MCP (in both payload formats), in its
  world: `app/` (a git repository with a PHP class and a Vue router), `php/` (Composer packages,
  published on a fake Packagist), `api/` (a GitHub repository behind a fake `gh`) and Claude Code
  transcripts;
* `CASES`: a hint or note `tests/hints/test_families.py` checks is spelled for each caller (the
  flag on the CLI, the parameter over MCP), in its workspace: `repo/` (a git repository with
  `src/a.py`), `claude/` (transcripts), `lib/` (a Composer package) and `plain/` (an empty
  directory), with the same fake `gh`.

Both tests fail for a served tool without its entry; `scripts/new_tool.py` writes a new tool's.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent
SMALL = 200
"""The output budget of the cases that are about a list the budget shortened."""


@dataclass(frozen=True)
class Row:
    arguments: dict[str, Any]
    keys: tuple[str, ...]
    """Top-level keys the JSON payload must have (empty: the payload is source text)."""
    check: Callable[[str], bool] = lambda payload: True


@dataclass(frozen=True)
class Case:
    tool: str
    arguments: dict[str, Any]
    argv: list[str]
    mcp: str
    """What the MCP answer says (the parameter spelling)."""
    cli: str
    """What `sf` says instead (the flag spelling), on stdout or stderr."""
    budget: int | None = None
    error: bool = False
    extra: list[str] = field(default_factory=list)


def _modules() -> list[Any]:
    return [
        importlib.import_module(f"tests.{path.parent.name}.served")
        for path in sorted(TESTS.glob("*/served.py"))
    ]


def rows() -> dict[str, Row]:
    """Every folder's `ROWS`, one call per tool."""
    found: dict[str, Row] = {}
    for module in _modules():
        for tool, row in getattr(module, "ROWS", {}).items():
            assert tool not in found, f"{tool} has a row in two folders"
            found[tool] = row
    return found


def cases() -> list[Case]:
    """Every folder's `CASES`."""
    return [case for module in _modules() for case in getattr(module, "CASES", [])]
