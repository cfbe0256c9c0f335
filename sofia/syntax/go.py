"""Go symbols: funcs, methods (`Type.Method`), types (interface methods as members), and
top-level consts and vars, each with its doc comment in the slice range."""

from __future__ import annotations

from sofia.syntax.grammars import count_errors, parse_bytes
from sofia.syntax.tree import Node, Symbol, SymbolTree, attached_above, make_symbol, text_of


def extract(source: bytes, lang: str = "go", name: str = "") -> SymbolTree:
    tree = parse_bytes(source, "go")
    symbols: list[Symbol] = []
    for node in tree.root_node.named_children:
        symbols.extend(declaration_symbols(source, node))
    return SymbolTree(
        lang=lang, source=source, symbols=symbols, parse_errors=count_errors(tree.root_node), trees=[tree]
    )


def receiver_base(method: Node) -> str:
    """`Server` for receivers `(s *Server)`, `(c Cache[K, V])` or `(*Server)`."""
    receiver = method.child_by_field_name("receiver")
    if receiver is None:
        return ""
    for param in receiver.named_children:
        if param.type == "parameter_declaration":
            type_node = param.child_by_field_name("type")
            if type_node is not None:
                return base_type_name(text_of(type_node))
    return ""


def base_type_name(type_text: str) -> str:
    """The bare type name of a receiver type: no `*`, parentheses or type arguments."""
    return type_text.strip().lstrip("*(").split("[")[0].rstrip(")").strip()


def spec_nodes(declaration: Node, kinds: tuple[str, ...]) -> list[Node]:
    """The specs of a declaration, looking into a parenthesised group (`var_spec_list`)."""
    found: list[Node] = []
    for child in declaration.named_children:
        if child.type in kinds:
            found.append(child)
        elif child.type.endswith("_spec_list"):
            found.extend(c for c in child.named_children if c.type in kinds)
    return found


def declaration_symbols(source: bytes, node: Node) -> list[Symbol]:
    """The symbols one top-level declaration introduces."""
    if node.type in ("function_declaration", "method_declaration"):
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return []
        owner = receiver_base(node) if node.type == "method_declaration" else ""
        kind = "method" if owner else "function"
        return [make_symbol(source, kind, text_of(name_node), owner, node, first=attached_above(node))]
    if node.type == "type_declaration":
        specs = spec_nodes(node, ("type_spec", "type_alias"))
        named = [spec for spec in specs if spec.child_by_field_name("name") is not None]
        return [type_symbol(source, spec, node if len(specs) == 1 else spec) for spec in named]
    if node.type in ("const_declaration", "var_declaration"):
        kind = "const" if node.type == "const_declaration" else "var"
        specs = spec_nodes(node, ("const_spec", "var_spec"))
        symbols: list[Symbol] = []
        for spec in specs:
            outer = node if len(specs) == 1 else spec
            for name_node in spec.children_by_field_name("name"):
                name = text_of(name_node)
                if name != "_":
                    symbols.append(make_symbol(source, kind, name, "", outer, first=attached_above(outer)))
        return symbols
    return []


def type_symbol(source: bytes, spec: Node, outer: Node) -> Symbol:
    """A type spec; `outer` is the whole `type` declaration when it holds this spec alone."""
    name = text_of(spec.child_by_field_name("name"))
    type_node = spec.child_by_field_name("type")
    kind = "type"
    if (
        spec.type == "type_spec"
        and type_node is not None
        and type_node.type in ("struct_type", "interface_type")
    ):
        kind = "struct" if type_node.type == "struct_type" else "interface"
    symbol = make_symbol(source, kind, name, "", outer, first=attached_above(outer))
    if kind == "interface" and type_node is not None:
        for member in type_node.named_children:
            member_name = member.child_by_field_name("name")
            if member.type == "method_elem" and member_name is not None:
                symbol.children.append(
                    make_symbol(
                        source, "method", text_of(member_name), name, member, first=attached_above(member)
                    )
                )
    return symbol
