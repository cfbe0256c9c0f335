"""Which symbols a diff touches (`changed`'s `symbols`, docs/changed.md): changed lines of each side are
mapped to the symbols of that side's tree, and a symbol that changed entirely is named instead of
its members."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from sofia.syntax.grammars import ParseUnavailable
from sofia.syntax.parse import parse
from sofia.syntax.tree import Symbol, SymbolTree


@dataclass(frozen=True)
class Touched:
    """The touched names, and the syntax errors the parser met on the sides it read."""

    names: list[str]
    parse_errors: int = 0


def touched_symbols(
    lang: str,
    old: bytes | None,
    new: bytes | None,
    old_ranges: list[tuple[int, int]],
    new_ranges: list[tuple[int, int]],
    name: str = "",
) -> list[str] | None:
    """qnames touched by the changed line ranges (inclusive, 1-based) of the old and new side.

    New-side names come first in line order, then names only the old side touched; `+` marks a
    qname that exists only in the new file, `-` one that exists only in the old file. None when a
    side that exists cannot be parsed (the caller falls back to git's own hunk context).
    """
    found = touch(lang, old, new, old_ranges, new_ranges, name)
    return None if found is None else found.names


def touch(
    lang: str,
    old: bytes | None,
    new: bytes | None,
    old_ranges: list[tuple[int, int]],
    new_ranges: list[tuple[int, int]],
    name: str = "",
) -> Touched | None:
    """`touched_symbols` with the parse errors of both sides, so a caller can tell "no symbol
    touched" from "the parser recovered none"."""
    try:
        old_tree = parse(old, lang, name) if old is not None else None
        new_tree = parse(new, lang, name) if new is not None else None
    except ParseUnavailable:
        return None
    old_names = set(old_tree.qnames()) if old_tree else set()
    new_names = set(new_tree.qnames()) if new_tree else set()
    names: list[str] = []
    seen: set[str] = set()
    for symbol in _touched(new_tree, new_ranges):
        if symbol.qname not in seen:
            seen.add(symbol.qname)
            names.append(("+" if symbol.qname not in old_names else "") + symbol.qname)
    for symbol in _touched(old_tree, old_ranges):
        if symbol.qname not in seen:
            seen.add(symbol.qname)
            names.append(("-" if symbol.qname not in new_names else "") + symbol.qname)
    errors = sum(tree.parse_errors for tree in (old_tree, new_tree) if tree is not None)
    return Touched(names, errors)


def _touched(tree: SymbolTree | None, ranges: Sequence[tuple[int, int]]) -> list[Symbol]:
    """Symbols touched by `ranges`, ordered by line: for every changed line its innermost symbol,
    unless an enclosing symbol lies entirely inside the changed lines (then that one). A symbol
    spans its slice range, so an edited doc comment or decorator touches it; a changed blank line
    between members does not make the enclosing symbol count as touched."""
    if tree is None:
        return []
    changed = sorted({line for start, end in ranges for line in range(start, end + 1)})
    if not changed:
        return []
    text_lines = tree.source.split(b"\n")
    blank = {line for line in changed if line > len(text_lines) or not text_lines[line - 1].strip()}
    found: list[Symbol] = []
    _visit(tree.symbols, changed, blank, found)
    return sorted(found, key=lambda s: (s.line, s.end_line))


def _visit(symbols: Sequence[Symbol], changed: list[int], blank: set[int], found: list[Symbol]) -> None:
    for symbol in symbols:
        low = bisect.bisect_left(changed, symbol.slice_line)
        high = bisect.bisect_right(changed, symbol.end_line)
        inside = changed[low:high]
        if not inside:
            continue
        if len(inside) == symbol.end_line - symbol.slice_line + 1:
            found.append(symbol)
            continue
        if any(line not in blank and not _in_children(line, symbol.children) for line in inside):
            found.append(symbol)
        _visit(symbol.children, inside, blank, found)


def _in_children(line: int, children: Sequence[Symbol]) -> bool:
    return any(child.slice_line <= line <= child.end_line for child in children)
