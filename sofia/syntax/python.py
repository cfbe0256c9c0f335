"""Python symbols: classes, functions and methods at any depth, with the line numbers `ast`
reports (the def/class line; the last line of code, trailing comments excluded)."""

from __future__ import annotations

from sofia.syntax.grammars import count_errors, parse_bytes
from sofia.syntax.tree import Node, Symbol, SymbolTree, attached_above, make_symbol, text_of

CONTAINERS = frozenset(
    {
        "block",
        "if_statement",
        "elif_clause",
        "else_clause",
        "try_statement",
        "except_clause",
        "except_group_clause",
        "finally_clause",
        "with_statement",
        "for_statement",
        "while_statement",
        "match_statement",
        "case_clause",
        "ERROR",
    }
)
"""Statements whose bodies may hold definitions (`if TYPE_CHECKING:`, `try:` fallbacks, ...)."""


def extract(source: bytes, lang: str = "python", name: str = "") -> SymbolTree:
    tree = parse_bytes(source, "python")
    symbols: list[Symbol] = []
    collect(source, tree.root_node, "", "", symbols)
    return SymbolTree(
        lang=lang, source=source, symbols=symbols, parse_errors=count_errors(tree.root_node), trees=[tree]
    )


def definitions(parent: Node) -> list[tuple[Node, Node]]:
    """(definition, outermost node) pairs under `parent`'s statements, looking through compound
    statements; the outermost node is the `decorated_definition` when there is one."""
    found: list[tuple[Node, Node]] = []
    for child in parent.named_children:
        if child.type in ("class_definition", "function_definition"):
            found.append((child, child))
        elif child.type == "decorated_definition":
            inner = child.child_by_field_name("definition")
            if inner is not None:
                found.append((inner, child))
        elif child.type in CONTAINERS:
            found.extend(definitions(child))
    return found


def collect(source: bytes, parent: Node, owner: str, owner_kind: str, out: list[Symbol]) -> None:
    for node, outer in definitions(parent):
        name_node = node.child_by_field_name("name")
        if name_node is None:
            continue
        name = text_of(name_node)
        if node.type == "class_definition":
            kind = "class"
        else:
            kind = "method" if owner_kind == "class" else "function"
        head = attached_above(outer, same_column=True, through=("block",))
        symbol = make_symbol(source, kind, name, owner, node, end=code_end(node), first=head)
        body = node.child_by_field_name("body")
        if body is not None:
            collect(source, body, symbol.qname, "class" if kind == "class" else "function", symbol.children)
        out.append(symbol)


def code_end(node: Node) -> Node:
    """The last leaf of real code under `node`: trailing comments inside a body are not part of it."""
    while node.child_count:
        child = node.child(node.child_count - 1)
        while child is not None and child.type == "comment":
            child = child.prev_sibling
        if child is None:
            break
        node = child
    return node
