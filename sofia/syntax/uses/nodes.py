"""Small tree-sitter node helpers the language classifiers share."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import cache
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


def of_types(tree: Any, types: Iterable[str]) -> list[Node]:
    """Every node of `types` in the tree-sitter `tree`, in source order, found by a query (run
    in C: a walk in Python would cost about as much as the parse)."""
    query = _query(tree.language, tuple(sorted(set(types))))
    if query is None:
        return []
    from tree_sitter import QueryCursor

    cursor = QueryCursor(query)
    found: list[Node] = cursor.captures(tree.root_node).get("node", [])
    return sorted(found, key=lambda node: node.start_byte)


@cache
def _query(language: Any, types: tuple[str, ...]) -> Any:
    """The query matching any of `types` (those the grammar has) in `language`, or None."""
    from tree_sitter import Query

    known = [t for t in types if language.id_for_node_kind(t, True) is not None]
    if not known:
        return None
    return Query(language, "[" + " ".join(f"({t})" for t in known) + "] @node")


def holding(source: bytes, scope: Node, name: str, types: Iterable[str]) -> list[Node]:
    """The nodes of `types` inside `scope` that hold an identifier spelled `name`, in source
    order: what a walk of the whole scope testing every node of `types` would look at, found
    from the name's few occurrences instead of from every node."""
    wanted = set(types)
    spelled = name.encode("utf-8")
    found: dict[tuple[int, int, str], Node] = {}
    for start in word_positions(source, name, scope.start_byte, scope.end_byte):
        node = scope.descendant_for_byte_range(start, start + len(spelled))
        if node is None or node.text != spelled:
            continue
        for above in ancestors(node):
            if above == scope:
                break
            if above.type in wanted:
                found.setdefault((above.start_byte, -above.end_byte, above.type), above)
    return [found[key] for key in sorted(found)]


def word_positions(source: bytes, word: str, start: int = 0, end: int | None = None) -> list[int]:
    """Byte offsets where `word` occurs as a whole word (in `source[start:end]`, offsets in
    `source`): not preceded or followed by a word character (Unicode letters, digits, marks,
    `_`), the rule `rg --word-regexp` applies."""
    encoded = word.encode("utf-8")
    if not encoded:
        return []
    found: list[int] = []
    first_word = _is_word_char(word[0])
    last_word = _is_word_char(word[-1])
    pattern = re.compile(re.escape(encoded))
    for match in pattern.finditer(source, start, len(source) if end is None else end):
        start, end = match.start(), match.end()
        if first_word and _word_before(source, start):
            continue
        if last_word and _word_after(source, end):
            continue
        found.append(start)
    return found


def _is_word_char(char: str) -> bool:
    return char == "_" or unicodedata.category(char)[0] in "LMN" or char == "\u200c" or char == "\u200d"


def _word_before(source: bytes, start: int) -> bool:
    if start == 0:
        return False
    byte = source[start - 1]
    if byte < 0x80:
        return chr(byte).isalnum() or byte == 0x5F
    back = start - 1
    while back > max(0, start - 4) and source[back] & 0xC0 == 0x80:
        back -= 1
    char = source[back:start].decode("utf-8", "replace")
    return bool(char) and _is_word_char(char[-1])


def _word_after(source: bytes, end: int) -> bool:
    if end >= len(source):
        return False
    byte = source[end]
    if byte < 0x80:
        return chr(byte).isalnum() or byte == 0x5F
    char = source[end : end + 4].decode("utf-8", "replace")
    return bool(char) and _is_word_char(char[0])
