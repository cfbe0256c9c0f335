"""No function in `sofia/` is longer than 60 lines: past that a function does several things, and
each deserves a name and a docstring saying why it is there."""

from __future__ import annotations

import ast
from pathlib import Path

SOFIA = Path(__file__).resolve().parents[2] / "sofia"
MAX_LINES = 60


def _all_lengths() -> dict[str, int]:
    """`path:function` → its length in lines (decorators aside, its docstring and body included)."""
    found: dict[str, int] = {}
    for path in sorted(SOFIA.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found[f"{path.relative_to(SOFIA).as_posix()}:{node.name}"] = (
                    (node.end_lineno or node.lineno) - node.lineno + 1
                )
    return found


def long_functions() -> dict[str, int]:
    """The functions over MAX_LINES."""
    return {name: lines for name, lines in _all_lengths().items() if lines > MAX_LINES}


def test_no_function_is_longer_than_sixty_lines() -> None:
    assert long_functions() == {}


def test_the_rule_measures_from_the_def_line_to_the_last() -> None:
    """The count itself: a function of known size is measured as its lines, and every module is read."""
    lengths = _all_lengths()
    assert lengths["providers/cc/location.py:projects_root"] == 12
    assert len(lengths) > 1000
