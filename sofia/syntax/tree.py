"""The symbol tree every language module produces, its queries, and the helpers that turn
tree-sitter nodes into symbols with line numbers and slice ranges in file coordinates."""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

Node = Any
"""A `tree_sitter.Node`; kept as Any so this module imports without tree-sitter."""


@dataclass
class Symbol:
    """One declaration: its name, where it is, and the whole-line range a slice of it covers."""

    kind: str
    """class interface trait enum struct type namespace function method const var (Vue: template script style)."""
    name: str
    qname: str
    """Qualified name: `Class::method`, `Type.Method`, `Outer.Inner.method`, ... (docs/architecture.md,
    "The symbol layer")."""
    owner: str
    """qname of the enclosing symbol, "" at top level."""
    line: int
    """1-based first line of the declaration itself (Python: the def/class line, as `ast`)."""
    end_line: int
    start_byte: int
    end_byte: int
    slice_line: int
    """First line of the slice range: the first attached doc comment, attribute or decorator."""
    slice_start_byte: int
    slice_end_byte: int
    """Just past the last line, including its newline if any."""
    children: list[Symbol] = field(default_factory=list)

    def contains(self, line: int) -> bool:
        """Whether `line` lies in the symbol's extent (a decorator line belongs to what it decorates)."""
        return self.slice_line <= line <= self.end_line


@dataclass
class SymbolTree:
    """The symbols of one file plus what the summarisers need to look further (the parse trees)."""

    lang: str
    source: bytes
    symbols: list[Symbol]
    parse_errors: int = 0
    trees: list[Any] = field(default_factory=list)
    unparsed: list[tuple[int, int]] = field(default_factory=list)
    """Byte spans of function bodies the trees were parsed without, the grammar having failed in
    them in a way that undid the declarations around them: counted in `parse_errors`, and what
    they declare has no symbol (docs/architecture.md, "A body the grammar cannot read")."""

    def walk(self) -> Iterator[Symbol]:
        """Every symbol, pre-order, in source order."""
        stack = list(reversed(self.symbols))
        while stack:
            symbol = stack.pop()
            yield symbol
            stack.extend(reversed(symbol.children))

    def enclosing(self, line: int) -> Symbol | None:
        """The innermost symbol whose extent holds `line` (its decorators and doc comment too)."""
        found: Symbol | None = None
        level: Sequence[Symbol] = self.symbols
        while True:
            inner = next((s for s in level if s.contains(line)), None)
            if inner is None:
                return found
            found = inner
            level = inner.children

    def find(self, qname: str) -> list[Symbol]:
        """Symbols whose qname is exactly `qname` (several for overloads), in source order."""
        return [s for s in self.walk() if s.qname == qname]

    def qnames(self) -> list[str]:
        """Every qname once, in source order."""
        return list(dict.fromkeys(s.qname for s in self.walk()))


def text_of(node: Node | None) -> str:
    """A node's source text decoded as UTF-8 (invalid bytes become U+FFFD); "" for no node."""
    if node is None:
        return ""
    raw: bytes = node.text or b""
    return raw.decode("utf-8", "replace")


def first_line(node: Node) -> int:
    """1-based line where `node` starts."""
    row: int = node.start_point.row
    return row + 1


def last_line(node: Node) -> int:
    """1-based line holding the last byte of `node` (a node ending right after a newline ends on the line before)."""
    end = node.end_point
    row: int = end.row
    if end.column == 0 and node.end_byte > node.start_byte:
        return row
    return row + 1


def line_end_byte(source: bytes, end_byte: int) -> int:
    """Byte offset just past the line holding byte `end_byte - 1` (past its newline, if any)."""
    if end_byte > 0 and source[end_byte - 1 : end_byte] == b"\n":
        return end_byte
    newline = source.find(b"\n", end_byte)
    return len(source) if newline < 0 else newline + 1


def attached_above(
    node: Node,
    kinds: Iterable[str] = ("comment",),
    *,
    same_column: bool = False,
    through: Iterable[str] = (),
) -> Node:
    """The first of the sibling nodes of `kinds` directly above `node` with no blank line between.

    This is how doc comments (and, with other kinds, attributes) attach to a declaration. Returns
    `node` itself when nothing is attached. `same_column` requires the attached node to start in the
    declaration's column (Python, where a comment ending the previous block sits deeper). `through`
    names parent kinds whose leading comments the grammar places before the parent rather than in
    it (Python's `block`: a comment opening a class body is the class's child, not the block's).
    """
    accepted = kinds if isinstance(kinds, (set, frozenset)) else set(kinds)
    parent, children, index = position(node)
    if index <= 0 and parent is not None and through and parent.type in through:
        _, children, index = position(parent)
    first = node
    index -= 1
    if index < 0 or children[index].type not in accepted:
        return first  # most declarations: nothing attached
    top = first_line(node)
    sibling_last = last_line(children[index])
    while index >= 0:
        sibling = children[index]
        if sibling.type not in accepted or sibling_last < top - 1:
            break
        sibling_first = first_line(sibling)
        before_last = last_line(children[index - 1]) if index > 0 else -1
        if before_last == sibling_first:
            break  # a trailing comment (`x = 1  # note`) belongs to the code before it
        if same_column and sibling.start_point.column != node.start_point.column:
            break
        first, top, sibling_last = sibling, sibling_first, before_last
        index -= 1
    return first


_CHILDREN: OrderedDict[Any, tuple[list[Any], list[int]]] = OrderedDict()
"""Parents whose children `siblings_before` listed, with their start bytes, the last asked
last: the declarations of one body ask in turn, and in source order they alternate between a
few bodies (an enum's variants, then the next item of the file), so more than one is kept."""
_MAX_PARENTS = 32
"""Parents kept at most (they hold their trees alive): the one asked longest ago goes first."""


def siblings_before(node: Node) -> Iterator[Node]:
    """`node`'s earlier siblings, nearest first. tree-sitter's `prev_sibling` finds the parent
    and walks its children on every call, so a run of `///` lines above each item of a long body
    cost the square of its length; the parent's children are listed once instead."""
    _, children, index = position(node)
    return (children[i] for i in range(index - 1, -1, -1)) if index > 0 else iter(())


_POSITIONS: dict[Any, tuple[Any, list[Any], int]] = {}
"""Positions already found, by node: a summary asks for a declaration's twice (its attached
comments, then its annotations), and `node.parent` searches down from the root each time."""
_MAX_POSITIONS = 2048
"""Positions kept at most (they hold their trees alive, as `_CHILDREN` does)."""


def forget_positions() -> None:
    """Drop the positions and parents kept: a new tree is read, whose nodes none of them are."""
    _POSITIONS.clear()
    _CHILDREN.clear()


def position(node: Node) -> tuple[Node | None, list[Node], int]:
    """`node`'s parent, the parent's children and `node`'s index among them (-1 when it has no
    parent), the children listed once per parent (`_CHILDREN`)."""
    known = _POSITIONS.get(node)
    if known is not None:
        return known
    if len(_POSITIONS) >= _MAX_POSITIONS:
        _POSITIONS.clear()
    found = _POSITIONS[node] = _find_position(node)
    return found


def _find_position(node: Node) -> tuple[Node | None, list[Node], int]:
    parent = node.parent
    if parent is None:
        return None, [], -1
    listed = _CHILDREN.get(parent)
    if listed is None:
        if len(_CHILDREN) >= _MAX_PARENTS:
            _CHILDREN.popitem(last=False)
        children = parent.children
        listed = _CHILDREN[parent] = (children, [child.start_byte for child in children])
    else:
        _CHILDREN.move_to_end(parent)
    children, starts = listed
    index = bisect.bisect_right(starts, node.start_byte) - 1
    while index >= 0 and children[index] != node:
        index -= 1
    return parent, children, index


def make_symbol(
    source: bytes,
    kind: str,
    name: str,
    owner: str,
    decl: Node,
    *,
    qname: str = "",
    separator: str = ".",
    end: Node | None = None,
    first: Node | None = None,
    line: int | None = None,
) -> Symbol:
    """A symbol for the declaration node `decl`.

    `end` overrides the node whose end closes the declaration (Python: the last statement, not a
    trailing comment); `first` is the first attached node (doc comment, decorator, attribute) where
    the slice starts; `line` overrides the declaration's first line (PHP attributes inside the node).
    The qname defaults to `owner + separator + name`.
    """
    last = end if end is not None else decl
    head = first if first is not None else decl
    decl_start = decl.start_point
    declared_line = line if line is not None else decl_start.row + 1
    head_start = decl_start if head is decl else head.start_point
    head_line = head_start.row + 1
    slice_line = min(head_line, declared_line)
    start_byte: int = decl.start_byte
    if head_line <= declared_line:
        slice_start: int = (start_byte if head is decl else head.start_byte) - head_start.column
    else:
        slice_start = start_byte - decl_start.column
    end_byte: int = max(last.end_byte, start_byte)
    return Symbol(
        kind=kind,
        name=name,
        qname=qname or (f"{owner}{separator}{name}" if owner else name),
        owner=owner,
        line=declared_line,
        end_line=max(last_line(last), declared_line),
        start_byte=start_byte,
        end_byte=end_byte,
        slice_line=slice_line,
        slice_start_byte=slice_start,
        slice_end_byte=line_end_byte(source, end_byte),
    )


def slice_text(source: bytes, symbol: Symbol) -> bytes:
    """The exact bytes of a symbol's slice range: whole lines, doc comments and decorators included."""
    return source[symbol.slice_start_byte : symbol.slice_end_byte]
