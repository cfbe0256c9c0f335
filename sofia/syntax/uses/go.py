"""Go occurrences: package-qualified names through the file's imports (aliases included),
method receivers, variables declared with a type in the same function (`var t T`, `t := T{}`,
`t := &T{}`, a parameter `t *T`), struct embedding, and locals that shadow the name."""

from __future__ import annotations

from sofia.syntax.go import receiver_base, spec_nodes
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.model import DEFINITION, LOCAL, USE, Binding, Occurrence, Path, Syntax
from sofia.syntax.uses.nodes import holding, is_field, nearest, span, walk
from sofia.syntax.uses.scan import Base

FUNCTIONS = ("function_declaration", "method_declaration", "func_literal")
DECLARING = ("parameter_declaration", "var_spec", "short_var_declaration")
"""Nodes that may declare a local name (a parameter, `var`, `:=`)."""
TYPE_PARENTS = frozenset(
    {
        "pointer_type",
        "slice_type",
        "array_type",
        "map_type",
        "channel_type",
        "type_arguments",
        "type_elem",
        "parameter_declaration",
        "variadic_parameter_declaration",
        "var_spec",
        "const_spec",
        "type_spec",
        "type_alias",
        "field_declaration",
        "function_type",
        "result",
        "type_assertion_expression",
        "type_conversion_expression",
        "type_case",
        "generic_type",
        "method_elem",
        "function_declaration",
        "method_declaration",
        "func_literal",
        "parameter_list",
        "type_constraint",
        "negated_type",
    }
)


def _embedded(kind: Node | None) -> list[Node]:
    """The types a struct embeds (fields without a name) or an interface embeds (a lone type
    element): its parents for method lookup. Fields of nested anonymous structs are not its own."""
    found: list[Node] = []
    if kind is not None and kind.type == "struct_type":
        for body in kind.named_children:
            if body.type == "field_declaration_list":
                for field in body.named_children:
                    if field.type == "field_declaration" and field.child_by_field_name("name") is None:
                        found.extend(n for n in [field.child_by_field_name("type")] if n is not None)
    elif kind is not None and kind.type == "interface_type":
        for element in kind.named_children:
            if element.type == "type_elem" and element.named_child_count == 1:
                found.append(element.named_children[0])
    return found


def import_name(path: str) -> str:
    """The package name an import path is used by when it has no alias (`example.com/api/v2` -> api)."""
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 and parts[-1].startswith("v") and parts[-1][1:].isdigit():
        parts.pop()
    name = parts[-1] if parts else path
    for prefix in ("go-",):
        name = name.removeprefix(prefix)
    return name.split(".")[0].replace("-", "_")


class Analyzer(Base):
    def __init__(self, tree: Syntax, rel: str) -> None:
        self.tree = tree
        self.root = tree.trees[0].root_node
        package = next((c for c in self.root.named_children if c.type == "package_clause"), None)
        name = next((c for c in package.named_children), None) if package is not None else None
        self.module: Path = (text_of(name),) if name is not None else ()
        self.imports: dict[str, Path] = {}
        for declaration in self.root.named_children:
            if declaration.type != "import_declaration":
                continue
            for spec in walk(declaration):
                if spec.type != "import_spec":
                    continue
                path = text_of(spec.child_by_field_name("path")).strip('"`')
                alias = spec.child_by_field_name("name")
                local = text_of(alias) if alias is not None else import_name(path)
                if local not in ("_", "."):
                    self.imports[local] = (import_name(path),)

    # --- resolution ---------------------------------------------------------------------------

    def type_path(self, node: Node | None) -> Path | None:
        """The path of a named type expression (`T`, `*T`, `pkg.T`, `T[K]`), None for others."""
        while node is not None and node.type in ("pointer_type", "parenthesized_type", "generic_type"):
            node = node.child_by_field_name("type") or (
                node.named_children[0] if node.named_child_count else None
            )
        if node is None:
            return None
        if node.type == "type_identifier":
            return (*self.module, text_of(node))
        if node.type == "qualified_type":
            package = text_of(node.child_by_field_name("package"))
            if package in self.imports:
                return (*self.imports[package], text_of(node.child_by_field_name("name")))
        return None

    def local_type(self, node: Node, name: str) -> Path | None:
        """The type of a variable or receiver `name` as declared in the enclosing function."""
        function = nearest(node, FUNCTIONS)
        found: set[Path | None] = set()
        while function is not None:
            if function.type == "method_declaration":
                receiver = function.child_by_field_name("receiver")
                for param in receiver.named_children if receiver is not None else []:
                    if any(text_of(n) == name for n in param.children_by_field_name("name")):
                        found.add((*self.module, receiver_base(function)))
            for inner in holding(self.tree.source, function, name, DECLARING):
                if inner.type in ("parameter_declaration", "var_spec"):
                    if any(text_of(n) == name for n in inner.children_by_field_name("name")):
                        kind = inner.child_by_field_name("type")
                        found.add(
                            self.type_path(kind)
                            if kind is not None
                            else self.value_type(inner.child_by_field_name("value"))
                        )
                elif inner.type == "short_var_declaration":
                    left, right = inner.child_by_field_name("left"), inner.child_by_field_name("right")
                    names = [text_of(n) for n in left.named_children] if left is not None else []
                    if name in names and right is not None:
                        values = right.named_children
                        index = names.index(name)
                        found.add(self.value_type(values[index]) if len(values) == len(names) else None)
            if found:
                break
            function = nearest(function, FUNCTIONS)
        return found.pop() if len(found) == 1 else None

    def value_type(self, node: Node | None) -> Path | None:
        """The type of `T{...}`, `&T{...}` or `new(T)`."""
        if node is not None and node.type == "expression_list" and node.named_child_count == 1:
            node = node.named_children[0]
        if (
            node is not None
            and node.type == "unary_expression"
            and text_of(node.child_by_field_name("operator")) == "&"
        ):
            node = node.child_by_field_name("operand")
        if node is not None and node.type == "composite_literal":
            return self.type_path(node.child_by_field_name("type"))
        return None

    # --- classification -----------------------------------------------------------------------

    def classes(self) -> list[Binding]:
        found: list[Binding] = []
        specs = [
            spec
            for node in self.root.named_children
            if node.type == "type_declaration"
            for spec in spec_nodes(node, ("type_spec", "type_alias"))
            if spec.child_by_field_name("name") is not None
        ]
        for spec in specs:
            kind = spec.child_by_field_name("type")
            parents: list[Path] = []
            for embedded in _embedded(kind):
                path = self.type_path(embedded)
                if path is not None:
                    parents.append(path)
            found.append(Binding((*self.module, text_of(spec.child_by_field_name("name"))), tuple(parents)))
        return found

    def classify(self, node: Node, word: str) -> Occurrence:
        parent = node.parent
        if parent is None:
            return Occurrence(node.start_byte, 0, 0, USE, "reference")
        declared = self.in_declaration(node, parent)
        return declared if declared is not None else self.in_expression(node, parent)

    def in_declaration(self, node: Node, parent: Node) -> Occurrence | None:
        """The name a declaration introduces (a definition, or a local inside a function), or a
        type embedded in a struct; None for a name in any other place."""
        ptype = parent.type
        start = node.start_byte
        if ptype == "function_declaration" and is_field(parent, "name", node):
            return self.definition("function", parent, self.module)
        if ptype == "method_declaration" and is_field(parent, "name", node):
            return self.definition("method", parent, (*self.module, receiver_base(parent)))
        if ptype in ("type_spec", "type_alias") and is_field(parent, "name", node):
            kind = parent.child_by_field_name("type")
            label = {"struct_type": "struct", "interface_type": "interface"}.get(
                kind.type if kind else "", "type"
            )
            return self.definition(label, parent, self.module)
        if ptype == "field_declaration" and is_field(parent, "name", node):
            owner = nearest(parent, ("type_spec",))
            return self.definition(
                "property",
                parent,
                (*self.module, text_of(owner.child_by_field_name("name"))) if owner else None,
            )
        if ptype == "field_declaration" and is_field(parent, "type", node):
            return Occurrence(start, 0, 0, USE, "extends", self.module)
        if ptype == "method_elem" and is_field(parent, "name", node):
            owner = nearest(parent, ("type_spec",))
            return self.definition(
                "method",
                parent,
                (*self.module, text_of(owner.child_by_field_name("name"))) if owner else None,
            )
        if ptype in ("const_spec", "var_spec") and is_field(parent, "name", node):
            if nearest(node, FUNCTIONS) is None:
                return self.definition(
                    "constant" if ptype == "const_spec" else "variable", parent, self.module
                )
            return self.local(node)
        if ptype in ("parameter_declaration", "variadic_parameter_declaration") and is_field(
            parent, "name", node
        ):
            return self.local(node)
        if (
            ptype == "expression_list"
            and parent.parent is not None
            and parent.parent.type in ("short_var_declaration", "range_clause")
        ) and is_field(parent.parent, "left", parent):
            return self.local(node)
        return None

    def in_expression(self, node: Node, parent: Node) -> Occurrence:
        """A use: through a selector or a package, a composite literal's key or type, a type, an
        import, a call, else a reference."""
        ptype = parent.type
        start = node.start_byte
        if ptype == "selector_expression" and is_field(parent, "field", node):
            return self.selector(parent, node)
        if ptype == "qualified_type" and is_field(parent, "name", node):
            package = text_of(parent.child_by_field_name("package"))
            kind = (
                "new" if parent.parent is not None and parent.parent.type == "composite_literal" else "type"
            )
            return Occurrence(start, 0, 0, USE, kind, self.imports.get(package), qualified=True)
        if ptype == "literal_element" and parent.parent is not None and parent.parent.type == "keyed_element":
            keyed = parent.parent
            if keyed.named_children and keyed.named_children[0] == parent:
                literal = nearest(keyed, ("composite_literal",))
                owner = self.type_path(literal.child_by_field_name("type")) if literal is not None else None
                return Occurrence(start, 0, 0, USE, "reference", owner, member=True)
        if ptype == "composite_literal" and is_field(parent, "type", node):
            return Occurrence(start, 0, 0, USE, "new", self.module)
        if node.type == "type_identifier" or (ptype in TYPE_PARENTS and node.type == "type_identifier"):
            return Occurrence(start, 0, 0, USE, "type", self.module)
        if ptype == "import_spec":
            return Occurrence(start, 0, 0, USE, "import")
        if ptype == "call_expression" and is_field(parent, "function", node):
            return Occurrence(start, 0, 0, USE, "call", self.module)
        return Occurrence(start, 0, 0, USE, "reference", self.module)

    def selector(self, selector: Node, node: Node) -> Occurrence:
        operand = selector.child_by_field_name("operand")
        parent = selector.parent
        kind = (
            "call"
            if parent is not None
            and parent.type == "call_expression"
            and is_field(parent, "function", selector)
            else "reference"
        )
        start = node.start_byte
        if operand is not None and operand.type == "identifier":
            name = text_of(operand)
            typed = self.local_type(selector, name)
            if typed is not None:
                return Occurrence(start, 0, 0, USE, kind, typed, member=True)
            if name in self.imports and not self._declared_locally(selector, name):
                return Occurrence(start, 0, 0, USE, kind, self.imports[name], qualified=True)
            return Occurrence(start, 0, 0, USE, kind, None, member=True)
        if operand is not None:
            inner = operand
            while inner.type == "parenthesized_expression" and inner.named_child_count:
                inner = inner.named_children[0]
            typed = self.value_type(inner)
            return Occurrence(start, 0, 0, USE, kind, typed, member=True)
        return Occurrence(start, 0, 0, USE, kind, None, member=True)

    def _declared_locally(self, node: Node, name: str) -> bool:
        function = nearest(node, FUNCTIONS)
        if function is None:
            return False
        for inner in holding(self.tree.source, function, name, DECLARING):
            if inner.type in ("parameter_declaration", "var_spec") and any(
                text_of(n) == name for n in inner.children_by_field_name("name")
            ):
                return True
            if inner.type == "short_var_declaration":
                left = inner.child_by_field_name("left")
                if left is not None and any(text_of(n) == name for n in left.named_children):
                    return True
        return False

    def local(self, node: Node) -> Occurrence:
        scope = nearest(node, FUNCTIONS)
        return Occurrence(node.start_byte, 0, 0, LOCAL, scope=span(scope) if scope is not None else None)

    def definition(self, kind: str, decl: Node, container: Path | None) -> Occurrence:
        outer = decl
        if decl.type in ("type_spec", "const_spec", "var_spec") and decl.parent is not None:
            group = decl.parent
            if (
                group.type in ("type_declaration", "const_declaration", "var_declaration")
                and sum(1 for c in group.named_children if c.type == decl.type) == 1
            ):
                outer = group
        return Occurrence(decl.start_byte, 0, 0, DEFINITION, kind, container, decl=span(outer))
