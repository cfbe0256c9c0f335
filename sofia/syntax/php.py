"""PHP symbols: classes, interfaces, traits and enums (short names), their methods (`Class::method`)
and top-level functions, each slice starting at its doc comment or first attribute."""

from __future__ import annotations

from sofia.syntax.grammars import count_errors, parse_bytes
from sofia.syntax.tree import Node, Symbol, SymbolTree, attached_above, first_line, make_symbol, text_of

TYPE_KINDS = {
    "class_declaration": "class",
    "interface_declaration": "interface",
    "trait_declaration": "trait",
    "enum_declaration": "enum",
}
"""Class-like declarations and the symbol kind each one gets."""

CONTAINERS = frozenset(
    {
        "namespace_definition",
        "compound_statement",
        "if_statement",
        "else_clause",
        "else_if_clause",
        "colon_block",
        "declare_statement",
        "ERROR",
    }
)
"""Statements whose bodies may hold declarations: braced namespaces, `if (!function_exists(...))`
guards around helpers, and what error recovery wraps."""

MEMBER_CONTAINERS = frozenset({"ERROR"})
"""Nodes inside a class body that may hold methods the grammar could not place."""


def extract(source: bytes, lang: str = "php", name: str = "") -> SymbolTree:
    tree = parse_bytes(source, "php")
    symbols: list[Symbol] = []
    collect(source, tree.root_node, symbols)
    return SymbolTree(
        lang=lang, source=source, symbols=symbols, parse_errors=count_errors(tree.root_node), trees=[tree]
    )


def declared_line(node: Node) -> int:
    """The line of a declaration's first keyword or modifier, after its attributes and comments."""
    for child in node.children:
        if child.type not in ("attribute_list", "comment"):
            return first_line(child)
    return first_line(node)


def collect(source: bytes, parent: Node, out: list[Symbol]) -> None:
    """Top-level symbols under `parent`, looking through namespace blocks and guard statements."""
    for node in parent.named_children:
        kind = TYPE_KINDS.get(node.type)
        if kind is not None:
            symbol = named_symbol(source, kind, "", node)
            if symbol is not None:
                body = node.child_by_field_name("body")
                if body is not None:
                    collect_methods(source, body, symbol.qname, symbol.children)
                out.append(symbol)
        elif node.type == "function_definition":
            symbol = named_symbol(source, "function", "", node)
            if symbol is not None:
                out.append(symbol)
        elif node.type in CONTAINERS:
            collect(source, node, out)


def collect_methods(source: bytes, body: Node, owner: str, out: list[Symbol]) -> None:
    for node in body.named_children:
        if node.type == "method_declaration":
            symbol = named_symbol(source, "method", owner, node)
            if symbol is not None:
                out.append(symbol)
        elif node.type in MEMBER_CONTAINERS:
            collect_methods(source, node, owner, out)


def named_symbol(source: bytes, kind: str, owner: str, node: Node) -> Symbol | None:
    name_node = node.child_by_field_name("name")
    if name_node is None:
        return None
    return make_symbol(
        source,
        kind,
        text_of(name_node),
        owner,
        node,
        separator="::",
        first=attached_above(node),
        line=declared_line(node),
    )
