"""Go summaries: package, imports, structs with their fields,
interfaces with their methods, defined and alias types, funcs and methods, consts and vars."""

from __future__ import annotations

from typing import Any

from sofia.providers.code import cells
from sofia.providers.code.model import SourceFile, Summary, SummaryOptions
from sofia.syntax.go import base_type_name, spec_nodes
from sofia.syntax.tree import Node, SymbolTree, first_line, last_line, text_of

LITERALS = frozenset(
    {
        "int_literal",
        "float_literal",
        "imaginary_literal",
        "rune_literal",
        "interpreted_string_literal",
        "raw_string_literal",
        "true",
        "false",
        "nil",
        "iota",
    }
)


def summarise(tree: SymbolTree, file: SourceFile, options: SummaryOptions) -> Summary:
    root = tree.trees[0].root_node
    out = _Rows(options.exported)
    package = ""
    for node in root.named_children:
        if node.type == "package_clause":
            package = text_of(node.named_children[0]) if node.named_children else ""
        elif node.type == "import_declaration":
            out.imports.extend(import_specs(node))
        elif node.type == "type_declaration":
            specs = spec_nodes(node, ("type_spec", "type_alias"))
            for spec in specs:
                out.type_spec(spec, node if len(specs) == 1 else spec)
        elif node.type in ("function_declaration", "method_declaration"):
            out.function(node)
        elif node.type in ("const_declaration", "var_declaration"):
            out.values(node)
    fields: dict[str, Any] = {
        "namespace": package,
        "imports": out.imports,
        "types": out.types,
        "functions": out.functions,
        "properties": out.properties,
        "constants": out.constants,
    }
    return Summary(fields=fields)


def is_exported(name: str) -> bool:
    return name[:1].isupper()


def vis(name: str) -> str:
    return "public" if is_exported(name) else "private"


def import_specs(declaration: Node) -> list[str]:
    """`path` or `alias path` for every spec of an import declaration."""
    specs = [c for c in declaration.named_children if c.type == "import_spec"]
    for group in (c for c in declaration.named_children if c.type == "import_spec_list"):
        specs.extend(c for c in group.named_children if c.type == "import_spec")
    found = []
    for spec in specs:
        path = spec.child_by_field_name("path")
        alias = spec.child_by_field_name("name")
        text = text_of(path).strip('"`') if path is not None else ""
        found.append(f"{text_of(alias)} {text}" if alias is not None else text)
    return found


def parameters(node: Node | None) -> str:
    """A parameter list as written, one space after each comma, no line breaks or trailing comma."""
    if node is None:
        return ""
    parts = [cells.collapse(text_of(p)) for p in node.named_children if p.type != "comment"]
    open_, close = ("[", "]") if node.type == "type_parameter_list" else ("(", ")")
    return open_ + ", ".join(parts) + close


def signature(node: Node) -> str:
    """`[T any](x T) (T, error)`: type parameters, parameters and the result as written."""
    sig = parameters(node.child_by_field_name("type_parameters"))
    sig += parameters(node.child_by_field_name("parameters"))
    result = node.child_by_field_name("result")
    if result is not None:
        sig += " " + (
            parameters(result) if result.type == "parameter_list" else cells.collapse(text_of(result))
        )
    return sig


def literal(node: Node | None) -> str:
    if node is None:
        return ""
    if node.type == "unary_expression":
        operand = node.child_by_field_name("operand")
        return cells.value(text_of(node)) if operand is not None and operand.type in LITERALS else ""
    return cells.value(text_of(node)) if node.type in LITERALS else ""


class _Rows:
    def __init__(self, exported_only: bool) -> None:
        self.exported_only = exported_only
        self.imports: list[str] = []
        self.types: list[dict[str, Any]] = []
        self.functions: list[dict[str, Any]] = []
        self.properties: list[dict[str, Any]] = []
        self.constants: list[dict[str, Any]] = []

    def keep(self, name: str) -> bool:
        return not self.exported_only or is_exported(name)

    def type_spec(self, spec: Node, outer: Node) -> None:
        name = text_of(spec.child_by_field_name("name"))
        if not name or not self.keep(name):
            return
        type_node = spec.child_by_field_name("type")
        type_params = parameters(spec.child_by_field_name("type_parameters"))
        kind, extends, detail = "type", [], ""
        if spec.type == "type_alias":
            detail = "= " + cells.collapse(text_of(type_node)) if type_node is not None else ""
        elif type_node is not None and type_node.type == "struct_type":
            kind = "struct"
            extends = self.struct_fields(name, type_node)
        elif type_node is not None and type_node.type == "interface_type":
            kind = "interface"
            extends = self.interface_members(name, type_node)
        elif type_node is not None:
            detail = cells.collapse(text_of(type_node))
        self.types.append(
            {
                "kind": kind,
                "name": name,
                "line": first_line(outer),
                "end_line": last_line(outer),
                "vis": vis(name),
                "mods": "",
                "extends": cells.join(extends),
                "implements": "",
                "uses": "",
                "attrs": "",
                "detail": cells.detail(cells.join([type_params, detail], " ")),
            }
        )

    def struct_fields(self, owner: str, struct: Node) -> list[str]:
        """Rows for named fields; returns the embedded types (they read as `extends`)."""
        embedded: list[str] = []
        lists = [c for c in struct.named_children if c.type == "field_declaration_list"]
        for declaration in (f for group in lists for f in group.named_children):
            if declaration.type != "field_declaration":
                continue
            names = declaration.children_by_field_name("name")
            type_node = declaration.child_by_field_name("type")
            tag = declaration.child_by_field_name("tag")
            if not names:
                end = tag.start_byte if tag is not None else declaration.end_byte
                embedded.append(
                    cells.collapse(
                        declaration.text[: end - declaration.start_byte].decode("utf-8", "replace")
                    )
                )
                continue
            for name_node in names:
                name = text_of(name_node)
                if not self.keep(name):
                    continue
                self.properties.append(
                    {
                        "owner": owner,
                        "name": name,
                        "type": cells.collapse(text_of(type_node)) if type_node is not None else "",
                        "vis": vis(name),
                        "mods": "",
                        "value": "",
                        "attrs": text_of(tag).strip("`") if tag is not None else "",
                        "via": "",
                    }
                )
        return embedded

    def interface_members(self, owner: str, interface: Node) -> list[str]:
        """Rows for method elements; returns the embedded interfaces and type sets."""
        embedded: list[str] = []
        for member in interface.named_children:
            if member.type == "type_elem":
                embedded.append(cells.collapse(text_of(member)))
            elif member.type == "method_elem":
                name = text_of(member.child_by_field_name("name"))
                if name and self.keep(name):
                    self.functions.append(self.function_row(owner, name, member))
        return embedded

    def function(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = text_of(name_node)
        owner = ""
        receiver = node.child_by_field_name("receiver")
        if receiver is not None:
            declaration = next(
                (p for p in receiver.named_children if p.type == "parameter_declaration"), None
            )
            receiver_type = declaration.child_by_field_name("type") if declaration is not None else None
            owner = cells.collapse(text_of(receiver_type)) if receiver_type is not None else ""
        if not self.keep(name) or (owner and not self.keep(base_type_name(owner))):
            return
        self.functions.append(self.function_row(owner, name, node))

    def function_row(self, owner: str, name: str, node: Node) -> dict[str, Any]:
        return {
            "owner": owner,
            "name": name,
            "sig": signature(node),
            "line": first_line(node),
            "end_line": last_line(node),
            "vis": vis(name),
            "mods": "",
            "attrs": "",
            "via": "",
        }

    def values(self, declaration: Node) -> None:
        kind = "const" if declaration.type == "const_declaration" else "var"
        for spec in spec_nodes(declaration, ("const_spec", "var_spec")):
            type_node = spec.child_by_field_name("type")
            value_list = spec.child_by_field_name("value")
            values = value_list.named_children if value_list is not None else []
            for index, name_node in enumerate(spec.children_by_field_name("name")):
                name = text_of(name_node)
                if name == "_" or not self.keep(name):
                    continue
                self.constants.append(
                    {
                        "owner": "",
                        "kind": kind,
                        "name": name,
                        "type": cells.collapse(text_of(type_node)) if type_node is not None else "",
                        "value": literal(values[index]) if index < len(values) else "",
                        "via": "",
                    }
                )
