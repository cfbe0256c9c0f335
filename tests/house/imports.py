"""sofia's import graph, read from the source with `ast`: every import, at module level, inside a
function or under `if TYPE_CHECKING:`. A type-only import never runs, but it is a dependency all
the same: two modules that name each other's types are one module split in two, and a cycle
hidden behind `TYPE_CHECKING` is a cycle."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "sofia"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("sofia", "sofia.errors", "sofia.settings"),
    ("sofia.runtime", "sofia.output"),
    ("sofia.syntax",),
    ("sofia.providers",),
    ("sofia.workers",),
    ("sofia.server",),
    ("sofia.cli", "sofia.__main__"),
)
"""Bottom first: a module may import its own layer and the layers below it, never one above."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    """The index in LAYERS of the longest prefix naming `module`'s layer."""
    best, rank = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), index
    return rank


def imports(module: str, path: Path, known: set[str]) -> Iterator[tuple[str, int]]:
    """(imported sofia module, line) for every import `module` runs."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _resolve(alias.name, known, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                if candidate in known:
                    yield candidate, node.lineno
                else:
                    yield from _resolve(base, known, node.lineno)


def _resolve(name: str, known: set[str], line: int) -> Iterator[tuple[str, int]]:
    while name and name not in known:
        name = name.rpartition(".")[0]
    if name.startswith("sofia"):
        yield name, line


def graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: first line}."""
    found = modules()
    known = set(found)
    edges: dict[str, dict[str, int]] = {}
    for module, path in found.items():
        targets: dict[str, int] = {}
        for target, line in imports(module, path, known):
            if target != module and not module.startswith(target + "."):
                targets.setdefault(target, line)
        edges[module] = targets
    return edges


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found
