"""Small tree-sitter node helpers the language classifiers share."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from sofia.syntax.tree import Node


def is_field(parent: Node | None, field: str, node: Node) -> bool:
    """Whether `node` is `parent`'s child in `field`."""
    if parent is None:
        return False
    return any(child == node for child in parent.children_by_field_name(field))


def ancestors(node: Node) -> Iterator[Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def nearest(node: Node, types: Iterable[str]) -> Node | None:
    """The closest ancestor of one of `types`."""
    wanted = set(types)
    return next((a for a in ancestors(node) if a.type in wanted), None)


def span(node: Node) -> tuple[int, int]:
    return (node.start_byte, node.end_byte)


def walk(node: Node) -> Iterator[Node]:
    """Every node under `node`, pre-order (iterative: deep trees do not recurse)."""
    cursor = node.walk()
    visited_children = False
    while True:
        if not visited_children:
            yield cursor.node
            if cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            visited_children = False
            continue
        if not cursor.goto_parent() or cursor.node == node:
            return
        visited_children = True


def declarations(tree: Any, root: Node, kinds: Iterable[str], types: Iterable[str]) -> list[Node]:
    """The declaration nodes (of `types`) of the symbols of `kinds` in a symbol tree, found from
    each symbol's start instead of walking the whole syntax tree."""
    wanted_kinds = set(kinds)
    wanted_types = set(types)
    found: list[Node] = []
    for symbol in tree.walk():
        if symbol.kind not in wanted_kinds:
            continue
        node = root.descendant_for_byte_range(symbol.start_byte, max(symbol.start_byte, symbol.end_byte - 1))
        node = _declaration_at(node, wanted_types)
        if node is not None and all(node != seen for seen in found):
            found.append(node)
    return found


def _declaration_at(node: Node | None, types: set[str]) -> Node | None:
    """`node` itself, the declaration it wraps (an `export` or decorator statement), or the one
    holding it."""
    if node is None:
        return None
    level = [node]
    for _ in range(3):
        hit = next((n for n in level if n.type in types), None)
        if hit is not None:
            return hit
        level = [child for n in level for child in n.named_children]
    parent = node.parent
    while parent is not None and parent.type not in types:
        parent = parent.parent
    return parent
