"""Vue single-file components: tree-sitter-html finds the top-level `<template>`, `<script>` and
`<style>` blocks (pseudo-symbols of those names); each script is parsed with the grammar of its
`lang` restricted to its own bytes, so every line and offset is the file's. Options API members
become `Component.member`."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sofia.syntax import js
from sofia.syntax.grammars import count_errors, parse_bytes
from sofia.syntax.tree import Node, Symbol, SymbolTree, make_symbol, text_of

SCRIPT_LANGS = {"": "js", "js": "js", "jsx": "js", "ts": "ts", "tsx": "tsx"}
"""The `lang` attribute of a `<script>` and the language its content is parsed as."""

OPTION_SECTIONS = ("methods", "computed", "watch")
"""Options API keys whose members are the component's callable surface."""

FALLBACK_COMPONENT = "default"
"""The component name of Options API members when the caller does not know the file's name."""


@dataclass
class Block:
    """One top-level SFC block."""

    tag: str
    """template, script or style."""
    element: Node
    attrs: dict[str, str]
    lang: str = ""
    """Script blocks: js, ts or tsx; "" when the content cannot be parsed (`lang="coffee"`, `src=`)."""
    tree: Any = None
    """Script blocks: the parse of their content, in file coordinates."""

    @property
    def setup(self) -> bool:
        return "setup" in self.attrs


def trees(source: bytes, lang: str = "vue", words: Sequence[str] = ()) -> list[Any]:
    """The parse trees of the file's script blocks (what the use classifier reads)."""
    return [block.tree for block in sfc_blocks(source) if block.tree is not None]


def extract(source: bytes, lang: str = "vue", name: str = "") -> SymbolTree:
    """The SFC's blocks as pseudo-symbols, each script's symbols as children of its `<script>`
    (qualified as in a plain script); the file's `name` names Options API members
    (`UserCard.member`)."""
    component = os.path.splitext(os.path.basename(name))[0] if name else ""
    symbols: list[Symbol] = []
    trees: list[Any] = []
    errors = 0
    for block in sfc_blocks(source):
        tag = f"<{block.tag}>"
        symbol = make_symbol(source, block.tag, tag, "", block.element, qname=tag)
        if block.tree is not None:
            trees.append(block.tree)
            errors += count_errors(block.tree.root_node)
            symbol.children = script_symbols(source, block, component)
        symbols.append(symbol)
    return SymbolTree(lang=lang, source=source, symbols=symbols, parse_errors=errors, trees=trees)


@lru_cache(maxsize=4)
def sfc_blocks(source: bytes) -> list[Block]:
    """The top-level blocks in file order, scripts parsed (cached: the summariser asks again)."""
    from tree_sitter import Range

    html = parse_bytes(source, "html")
    blocks: list[Block] = []
    for element in html.root_node.named_children:
        start = next((c for c in element.named_children if c.type in ("start_tag", "self_closing_tag")), None)
        if start is None:
            continue
        tag_node = next((c for c in start.named_children if c.type == "tag_name"), None)
        tag = text_of(tag_node).lower() if tag_node is not None else ""
        if tag not in ("template", "script", "style"):
            continue
        block = Block(tag=tag, element=element, attrs=attributes(start))
        raw = next((c for c in element.named_children if c.type == "raw_text"), None)
        if tag == "script" and raw is not None and "src" not in block.attrs:
            block.lang = SCRIPT_LANGS.get(block.attrs.get("lang", "").lower(), "")
            if block.lang:
                ranges = [Range(raw.start_point, raw.end_point, raw.start_byte, raw.end_byte)]
                block.tree = parse_bytes(source, js.GRAMMAR[block.lang], ranges=ranges)
        blocks.append(block)
    return blocks


def attributes(start_tag: Node) -> dict[str, str]:
    """Attribute names (lower case) and values, unquoted; "" for a bare attribute like `setup`."""
    found: dict[str, str] = {}
    for attribute in start_tag.named_children:
        if attribute.type != "attribute":
            continue
        name = next((c for c in attribute.named_children if c.type == "attribute_name"), None)
        if name is None:
            continue
        value = next((c for c in attribute.named_children if c.type != "attribute_name"), None)
        text = text_of(value) if value is not None else ""
        if value is not None and value.type == "quoted_attribute_value":
            text = text[1:-1]
        found[text_of(name).lower()] = text
    return found


def script_symbols(source: bytes, block: Block, component: str) -> list[Symbol]:
    symbols: list[Symbol] = []
    seen: set[tuple[int, int]] = set()
    js.collect(source, block.tree.root_node, "", symbols, seen)
    found = options_object(block.tree)
    if found is not None:
        statement, options = found
        symbols.append(component_symbol(source, statement, options, component or FALLBACK_COMPONENT, seen))
        symbols.sort(key=lambda s: s.start_byte)
    js.nest(source, symbols, js.nested_nodes(block.tree, block.lang), seen)
    return symbols


def options_object(tree: Any) -> tuple[Node, Node] | None:
    """The `export default {...}` statement and its object, also through `defineComponent({...})`."""
    for statement in tree.root_node.named_children:
        if statement.type != "export_statement":
            continue
        value = statement.child_by_field_name("value")
        if value is not None and value.type == "call_expression":
            arguments = value.child_by_field_name("arguments")
            value = (
                arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
            )
        if value is not None and value.type == "object":
            return statement, value
    return None


def object_members(obj: Node) -> Iterator[tuple[str, Node, Node]]:
    """(key, member node, value node) of an object literal; a method is its own value."""
    for member in obj.named_children:
        if member.type == "pair":
            key, value = member.child_by_field_name("key"), member.child_by_field_name("value")
        elif member.type == "method_definition":
            key, value = member.child_by_field_name("name"), member
        elif member.type == "shorthand_property_identifier":
            key, value = member, member
        else:
            continue
        if key is not None and value is not None:
            yield js.name_text(key), member, value


def is_callable(value: Node) -> bool:
    return value.type == "method_definition" or value.type in js.FUNCTION_VALUES


def option_members(options: Node) -> Iterator[tuple[str, str, Node, Node]]:
    """(section, name, member, value) for every member of methods/computed/watch, and the
    component's own function-valued options (`data`, `setup`, hooks) with section ""."""
    for key, member, value in object_members(options):
        if key in OPTION_SECTIONS and value.type == "object":
            for name, inner, inner_value in object_members(value):
                yield key, name, inner, inner_value
        elif is_callable(value):
            yield "", key, member, value


def component_symbol(
    source: bytes, statement: Node, options: Node, component: str, seen: set[tuple[int, int]]
) -> Symbol:
    symbol = js.symbol_for(source, "class", component, "", statement, seen, statement)
    for _section, name, member, _value in option_members(options):
        symbol.children.append(js.symbol_for(source, "method", name, component, member, seen, member))
    return symbol
