"""JavaScript, TypeScript and TSX symbols: classes and their methods (`Class.method`), functions
and consts bound to functions, interfaces, type aliases, enums, namespaces, other top-level
consts and vars, and named functions nested in any of them (`outer.inner`)."""

from __future__ import annotations

from functools import cache
from typing import Any

from sofia.syntax.grammars import count_errors, language, parse_bytes
from sofia.syntax.tree import Node, Symbol, SymbolTree, attached_above, first_line, make_symbol, text_of

GRAMMAR = {"js": "javascript", "ts": "typescript", "tsx": "tsx"}
"""The tree-sitter grammar of each language this module serves."""

FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
"""Expressions that make a const a function (`const f = () => ...`)."""
FUNCTIONS = frozenset({"function_declaration", "generator_function_declaration", "function_signature"})
CLASSES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
NAMESPACES = frozenset({"internal_module", "module"})
SIMPLE_TYPES = {
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "enum_declaration": "enum",
}
VARIABLES = frozenset({"lexical_declaration", "variable_declaration"})
METHODS = frozenset({"method_definition", "method_signature", "abstract_method_signature"})
FIELDS = frozenset({"public_field_definition", "field_definition"})
ATTACHED = ("comment", "decorator")
"""Sibling nodes above a declaration that its slice starts with."""

NESTED_QUERY = """
(function_declaration) @nested
(generator_function_declaration) @nested
(class_declaration) @nested
(variable_declarator name: (identifier) value: [(arrow_function) (function_expression) (generator_function)]) @nested
"""
"""Named functions and classes at any depth; those not already top-level symbols nest by range."""


def extract(source: bytes, lang: str, name: str = "") -> SymbolTree:
    tree = parse_bytes(source, GRAMMAR[lang])
    return SymbolTree(
        lang=lang,
        source=source,
        symbols=script_symbols(source, tree, lang),
        parse_errors=count_errors(tree.root_node),
        trees=[tree],
    )


def script_symbols(source: bytes, tree: Any, lang: str) -> list[Symbol]:
    """Every symbol of one parsed script (a whole file, or a Vue `<script>` block)."""
    symbols: list[Symbol] = []
    seen: set[tuple[int, int]] = set()
    collect(source, tree.root_node, "", symbols, seen)
    nest(source, symbols, nested_nodes(tree, lang), seen)
    return symbols


def unwrap(node: Node) -> tuple[Node | None, bool]:
    """The declaration a top-level statement carries, and whether it is a default export."""
    if node.type == "export_statement":
        inner = node.child_by_field_name("declaration") or node.child_by_field_name("value")
        is_default = any(child.type == "default" for child in node.children)
        return (unwrap(inner)[0] if inner is not None else None), is_default
    if node.type == "expression_statement":
        inner = node.named_children[0] if node.named_child_count else None
        return (inner if inner is not None and inner.type in NAMESPACES else None), False
    if node.type == "ambient_declaration":
        for child in node.named_children:
            if child.type == "statement_block":
                return child, False
            if child.type != "comment":
                return unwrap(child)[0], False
        return None, False
    return node, False


def name_text(node: Node) -> str:
    """A declared name as written, without the quotes of a string name (`declare module 'x'`)."""
    text = text_of(node)
    if node.type == "string" and len(text) >= 2:
        return text[1:-1]
    return text


def declared_line(outer: Node) -> int:
    """The line of the first keyword after decorators and comments (`export`, `class`, `async`, ...)."""
    for child in outer.children:
        if child.type not in ATTACHED:
            return first_line(child)
    return first_line(outer)


def symbol_for(
    source: bytes, kind: str, name: str, owner: str, outer: Node, seen: set[tuple[int, int]], decl: Node
) -> Symbol:
    seen.add((decl.start_byte, decl.end_byte))
    return make_symbol(
        source, kind, name, owner, outer, first=attached_above(outer, ATTACHED), line=declared_line(outer)
    )


def collect(source: bytes, parent: Node, owner: str, out: list[Symbol], seen: set[tuple[int, int]]) -> None:
    """Symbols of the statements directly under `parent` (a program or a namespace body)."""
    for outer in parent.named_children:
        decl, is_default = unwrap(outer)
        if decl is None:
            continue
        if decl.type in VARIABLES:
            out.extend(variable_symbols(source, decl, outer, owner, seen))
            continue
        if decl.type == "statement_block":
            if outer.type != "ambient_declaration":
                continue  # a bare block is code; only `declare global { }` declares
            symbol = symbol_for(source, "namespace", "global", owner, outer, seen, decl)
            collect(source, decl, symbol.qname, symbol.children, seen)
            out.append(symbol)
            continue
        name_node = decl.child_by_field_name("name")
        name = name_text(name_node) if name_node is not None else ("default" if is_default else "")
        if not name:
            continue
        if decl.type in FUNCTIONS or (is_default and decl.type in FUNCTION_VALUES):
            out.append(symbol_for(source, "function", name, owner, outer, seen, decl))
        elif decl.type in CLASSES:
            out.append(class_symbol(source, decl, outer, name, owner, seen))
        elif decl.type in SIMPLE_TYPES:
            out.append(symbol_for(source, SIMPLE_TYPES[decl.type], name, owner, outer, seen, decl))
        elif decl.type in NAMESPACES:
            symbol = symbol_for(source, "namespace", name, owner, outer, seen, decl)
            body = decl.child_by_field_name("body")
            if body is not None:
                collect(source, body, symbol.qname, symbol.children, seen)
            out.append(symbol)


def variable_symbols(
    source: bytes, decl: Node, outer: Node, owner: str, seen: set[tuple[int, int]]
) -> list[Symbol]:
    """One symbol per named declarator: a function when bound to a function, else const or var."""
    declarators = [c for c in decl.named_children if c.type == "variable_declarator"]
    kind = "const" if text_of(decl.children[0]) == "const" else "var"
    symbols: list[Symbol] = []
    for declarator in declarators:
        name_node = declarator.child_by_field_name("name")
        if name_node is None or name_node.type != "identifier":
            continue
        value = declarator.child_by_field_name("value")
        is_function = value is not None and value.type in FUNCTION_VALUES
        node = outer if len(declarators) == 1 else declarator
        symbols.append(
            symbol_for(
                source, "function" if is_function else kind, text_of(name_node), owner, node, seen, declarator
            )
        )
    return symbols


def class_symbol(
    source: bytes, decl: Node, outer: Node, name: str, owner: str, seen: set[tuple[int, int]]
) -> Symbol:
    symbol = symbol_for(source, "class", name, owner, outer, seen, decl)
    body = decl.child_by_field_name("body")
    if body is None:
        return symbol
    for member in body.named_children:
        member_name = class_member_name(member)
        if member_name:
            symbol.children.append(
                symbol_for(source, "method", member_name, symbol.qname, member, seen, member)
            )
    return symbol


def class_member_name(member: Node) -> str:
    """The name of a method (or a field holding a function), "" for anything else."""
    if member.type in METHODS:
        name_node = member.child_by_field_name("name")
        return name_text(name_node) if name_node is not None else ""
    if member.type in FIELDS:
        value = member.child_by_field_name("value")
        name_node = member.child_by_field_name("name") or member.child_by_field_name("property")
        if value is not None and value.type in FUNCTION_VALUES and name_node is not None:
            return name_text(name_node)
    return ""


@cache
def _nested_query(grammar: str) -> Any:
    from tree_sitter import Query

    return Query(language(grammar), NESTED_QUERY)


def nested_nodes(tree: Any, lang: str) -> list[Node]:
    """Named functions and classes anywhere in the tree, in source order."""
    from tree_sitter import QueryCursor

    captures = QueryCursor(_nested_query(GRAMMAR[lang])).captures(tree.root_node)
    return sorted(captures.get("nested", []), key=lambda n: (n.start_byte, -n.end_byte))


def nest(source: bytes, symbols: list[Symbol], nodes: list[Node], seen: set[tuple[int, int]]) -> None:
    """Attach each nested function or class to the innermost symbol whose range holds it."""
    for node in nodes:
        if (node.start_byte, node.end_byte) in seen:
            continue
        name_node = node.child_by_field_name("name")
        if name_node is None:
            continue
        level = symbols
        parent: Symbol | None = None
        while True:
            inner = next(
                (s for s in level if s.start_byte <= node.start_byte and node.end_byte <= s.end_byte), None
            )
            if inner is None:
                break
            parent, level = inner, inner.children
        owner = parent.qname if parent is not None else ""
        outer = node.parent if node.type == "variable_declarator" and _sole_declarator(node) else node
        if node.type == "class_declaration":
            symbol = class_symbol(source, node, node, text_of(name_node), owner, seen)
        else:
            symbol = symbol_for(source, "function", text_of(name_node), owner, outer, seen, node)
        level.append(symbol)
        level.sort(key=lambda s: s.start_byte)


def _sole_declarator(node: Node) -> bool:
    parent = node.parent
    return (
        parent is not None and sum(1 for c in parent.named_children if c.type == "variable_declarator") == 1
    )
