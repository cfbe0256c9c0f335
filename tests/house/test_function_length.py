"""No function in `sofia/` is longer than 60 lines: past that a function does several things, and
each deserves a name and a docstring saying why it is there."""

from __future__ import annotations

import ast
from pathlib import Path

SOFIA = Path(__file__).resolve().parents[2] / "sofia"
MAX_LINES = 60
KNOWN = {
    # The query-driven summariser is being split with its rework under issue #22; drop the entry
    # when `add` comes under the limit.
    "providers/code/summary_queried.py:add",
}
"""Functions still over the limit, each named `path:function` (path below `sofia/`)."""


def long_functions() -> dict[str, int]:
    """`path:function` → its length in lines (decorators aside, its docstring and body included)."""
    found: dict[str, int] = {}
    for path in sorted(SOFIA.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    found[f"{path.relative_to(SOFIA).as_posix()}:{node.name}"] = lines
    return found


def test_no_function_is_longer_than_sixty_lines() -> None:
    assert {name: lines for name, lines in long_functions().items() if name not in KNOWN} == {}


def test_every_known_exception_is_still_over_the_limit() -> None:
    """An entry of KNOWN whose function was split (or renamed) goes, so the list only shrinks."""
    assert sorted(KNOWN - set(long_functions())) == []
