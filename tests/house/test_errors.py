"""`sofia/errors.py` opens with a drawing of every exception sofia defines: a class missing from it
(or drawn under the wrong base) fails here."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import sofia.errors

REPO = Path(__file__).resolve().parents[2]


def _exception_classes() -> dict[str, list[str]]:
    """Every class in sofia deriving from an exception: its name and its bases' names."""
    found: dict[str, list[str]] = {}
    for path in sorted((REPO / "sofia").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases]
                found[node.name] = bases
    exceptions: dict[str, list[str]] = {}
    builtin = set(dir(builtins))

    def is_exception(name: str) -> bool:
        if name in exceptions or name in ("Exception", "BaseException"):
            return True
        if name in builtin:
            return name.endswith(("Error", "Exception"))
        return name in found and any(is_exception(base) for base in found[name])

    for name, bases in found.items():
        if any(is_exception(base) for base in bases):
            exceptions[name] = bases
    return exceptions


NODE = re.compile(r"^ {4}(?P<prefix>(?:[│ ] {3})*[├└]── )(?P<names>[\w.]+(?:, [\w.]+)*)")


def drawn() -> dict[str, str]:
    """Each class the drawing shows, with the class it hangs under."""
    parents: dict[str, str] = {}
    stack: list[tuple[int, list[str]]] = [(0, ["Exception"])]
    for line in (sofia.errors.__doc__ or "").splitlines():
        found = NODE.match(line)
        if found is None:
            continue
        depth = len(found["prefix"])
        names = [name.rsplit(".", 1)[-1] for name in found["names"].split(", ")]
        while stack and stack[-1][0] >= depth:
            stack.pop()
        for name in names:
            parents[name] = stack[-1][1][0]
        stack.append((depth, names))
    return parents


def test_every_exception_is_drawn_under_its_base() -> None:
    parents = drawn()
    private = (sofia.errors.__doc__ or "").split("Private control flow", 1)[-1]
    wrong = []
    for name, bases in _exception_classes().items():
        if f"`{name}`" in private:
            continue
        if name.startswith("_"):
            wrong.append(f"{name}: not named among the private ones")
        elif parents.get(name) not in bases:
            wrong.append(f"{name}: drawn under {parents.get(name)}, derives from {bases}")
    assert wrong == []
