"""Python symbols against the interpreter's own `ast`, on real standard-library files."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import pytest

from sofia.syntax import parse, slice_text


def stdlib_files(count: int) -> list[Path]:
    """`count` stdlib modules spread over the alphabet, of every size."""
    files = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))
    step = max(1, len(files) // count)
    return files[::step][:count]


def ast_symbols(source: bytes) -> list[tuple[str, int, int]]:
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, chain: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((".".join([*chain, child.name]), child.lineno, child.end_lineno or 0))
                visit(child, [*chain, child.name])
            else:
                visit(child, chain)

    visit(ast.parse(source), [])
    return found


@pytest.mark.parametrize("path", stdlib_files(50), ids=lambda p: p.name)
def test_names_and_line_ranges_equal_ast(path: Path) -> None:
    source = path.read_bytes()
    tree = parse(source, "python")
    got = [(s.qname, s.line, s.end_line) for s in tree.walk()]
    assert sorted(got) == sorted(ast_symbols(source))
    assert tree.parse_errors == 0


SAMPLE = b'''"""Widgets."""
import os


class Widget(Base):
    """A widget."""

    size = 3

    # The label shown to users.
    @property
    def label(self) -> str:
        return "x"
        # trailing note

    async def fetch(
        self,
        url: str,
    ) -> bytes:
        def helper():
            return 1
        return b""


def top():
    """Docstring with def fake(): inside."""
    return 2
'''


def test_kinds_owners_and_nesting() -> None:
    tree = parse(SAMPLE, "python")
    rows = [(s.kind, s.qname, s.owner, s.line, s.end_line) for s in tree.walk()]
    assert rows == [
        ("class", "Widget", "", 5, 22),
        ("method", "Widget.label", "Widget", 12, 13),
        ("method", "Widget.fetch", "Widget", 16, 22),
        ("function", "Widget.fetch.helper", "Widget.fetch", 20, 21),
        ("function", "top", "", 25, 27),
    ]


def test_slice_includes_comment_and_decorator_and_does_not_bleed() -> None:
    tree = parse(SAMPLE, "python")
    (label,) = tree.find("Widget.label")
    assert label.slice_line == 10
    assert slice_text(SAMPLE, label) == (
        b'    # The label shown to users.\n    @property\n    def label(self) -> str:\n        return "x"\n'
    )


def test_definitions_under_compound_statements() -> None:
    source = b"try:\n    from x import y\nexcept ImportError:\n    def y():\n        pass\nif True:\n    class Z:\n        pass\n"
    tree = parse(source, "python")
    assert [(s.qname, s.line) for s in tree.walk()] == [("y", 4), ("Z", 7)]
