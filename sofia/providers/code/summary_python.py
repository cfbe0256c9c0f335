"""Python summaries: module path, module-level imports, classes,
module functions and methods, fields, module constants; `__all__` decides what is exported."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sofia.providers.code import cells
from sofia.providers.code.model import SourceFile, Summary, SummaryOptions
from sofia.syntax.python import CONTAINERS, code_end
from sofia.syntax.tree import Node, SymbolTree, first_line, last_line, text_of

DECORATOR_MODS = ("staticmethod", "classmethod", "property")
LITERALS = frozenset({"integer", "float", "string", "true", "false", "none", "concatenated_string"})


def summarise(tree: SymbolTree, file: SourceFile, options: SummaryOptions) -> Summary:
    root = tree.trees[0].root_node
    builder = _Builder(exported_names=dunder_all(root), exported_only=options.exported)
    builder.module(root)
    fields: dict[str, Any] = {
        "namespace": module_path(file),
        "imports": builder.imports,
        "types": builder.types,
        "functions": builder.functions,
        "properties": builder.properties,
        "constants": builder.constants,
    }
    return Summary(fields=fields)


def module_path(file: SourceFile) -> str:
    """Dotted module path: the file's stem, prefixed by every enclosing package inside the root."""
    parts = [] if file.path.stem == "__init__" else [file.path.stem]
    directory = file.path.parent
    root = file.root.resolve()
    while (directory / "__init__.py").is_file() and directory.resolve().is_relative_to(root):
        parts.insert(0, directory.name)
        if directory.resolve() == root:
            break
        directory = directory.parent
    return ".".join(parts)


def module_statements(parent: Node) -> list[Node]:
    """Statements at module level, including those under `if TYPE_CHECKING:`, `try:` and the like."""
    found: list[Node] = []
    for child in parent.named_children:
        if child.type in CONTAINERS:
            found.extend(module_statements(child))
        else:
            found.append(child)
    return found


def dunder_all(root: Node) -> set[str] | None:
    """The names of a literal `__all__` list or tuple, or None without one."""
    for statement in module_statements(root):
        assignment = _assignment(statement)
        if assignment is None:
            continue
        left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
        if left is None or right is None or text_of(left) != "__all__":
            continue
        if right.type not in ("list", "tuple"):
            return None
        names = set()
        for item in right.named_children:
            if item.type != "string":
                return None
            names.add(text_of(item)[1:-1])
        return names
    return None


def is_private(name: str) -> bool:
    """`_x` and `__x` are private; dunders (`__init__`) are not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__") and len(name) > 4)


def vis(name: str) -> str:
    return "private" if is_private(name) else "public"


def _assignment(statement: Node) -> Node | None:
    if statement.type == "expression_statement" and statement.named_child_count == 1:
        inner = statement.named_children[0]
        if inner.type == "assignment":
            return inner
    return None


def literal(node: Node | None) -> str:
    """The `value` cell: short literals only (numbers, strings, booleans, None, negatives)."""
    if node is None:
        return ""
    if node.type == "unary_operator":
        operand = node.child_by_field_name("argument")
        return cells.value(text_of(node)) if operand is not None and operand.type in LITERALS else ""
    if node.type == "string" and any(c.type == "interpolation" for c in node.named_children):
        return ""
    return cells.value(text_of(node)) if node.type in LITERALS else ""


def signature(function: Node) -> str:
    """`(params) -> ret` as written, whitespace collapsed, defaults cut at 24 characters."""
    parameters = function.child_by_field_name("parameters")
    parts: list[str] = []
    for param in parameters.named_children if parameters is not None else []:
        if param.type == "comment":
            continue
        value = param.child_by_field_name("value")
        if param.type in ("default_parameter", "typed_default_parameter") and value is not None:
            head = text_of(param)[: value.start_byte - param.start_byte].rstrip().rstrip("=").rstrip()
            glue = " = " if param.type == "typed_default_parameter" else "="
            parts.append(f"{cells.collapse(head)}{glue}{cells.default(text_of(value))}")
        else:
            parts.append(cells.collapse(text_of(param)))
    sig = "(" + ", ".join(parts) + ")"
    returns = function.child_by_field_name("return_type")
    if returns is not None:
        sig += " -> " + cells.collapse(text_of(returns))
    return sig


@dataclass
class _Builder:
    exported_names: set[str] | None
    exported_only: bool
    imports: list[str] = field(default_factory=list)
    types: list[dict[str, Any]] = field(default_factory=list)
    functions: list[dict[str, Any]] = field(default_factory=list)
    properties: list[dict[str, Any]] = field(default_factory=list)
    constants: list[dict[str, Any]] = field(default_factory=list)

    def top_level_exported(self, name: str) -> bool:
        if self.exported_names is not None:
            return name in self.exported_names
        return not is_private(name)

    def keep(self, name: str, owner: str) -> bool:
        if not self.exported_only:
            return True
        return not is_private(name) if owner else self.top_level_exported(name)

    def module(self, root: Node) -> None:
        seen_constants: set[str] = set()
        for statement in module_statements(root):
            if statement.type == "import_statement":
                self.imports.extend(plain_imports(statement))
            elif statement.type == "import_from_statement":
                self.imports.extend(from_imports(statement))
            elif statement.type == "future_import_statement":
                self.imports.extend(from_imports(statement, module="__future__"))
            elif statement.type in ("class_definition", "function_definition", "decorated_definition"):
                self.definition(statement, "")
            elif statement.type == "type_alias_statement":
                self.type_alias(statement)
            else:
                self.module_constant(statement, seen_constants)

    def definition(self, outer: Node, owner: str) -> None:
        decorators = [n for n in outer.named_children if n.type == "decorator"]
        node = outer.child_by_field_name("definition") if outer.type == "decorated_definition" else outer
        if node is None:
            return
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = text_of(name_node)
        if not self.keep(name, owner):
            return
        attrs = [cells.collapse(text_of(d)[1:]) for d in decorators]
        if node.type == "class_definition":
            self.klass(node, name, owner, attrs)
        else:
            self.function(node, name, owner, attrs)

    def klass(self, node: Node, name: str, owner: str, attrs: list[str]) -> None:
        qname = f"{owner}.{name}" if owner else name
        bases = node.child_by_field_name("superclasses")
        extends = [cells.collapse(text_of(b)) for b in bases.named_children] if bases is not None else []
        self.types.append(
            {
                "kind": "class",
                "name": qname,
                "line": first_line(node),
                "end_line": last_line(code_end(node)),
                "vis": vis(name),
                "mods": "",
                "extends": cells.join(b for b in extends if not b.startswith("#")),
                "implements": "",
                "uses": "",
                "attrs": cells.join(attrs, "; "),
                "detail": "",
            }
        )
        body = node.child_by_field_name("body")
        if body is None:
            return
        statements = module_statements(body)
        declared: set[str] = set()
        for statement in statements:
            self.class_field(statement, qname, declared)
        init = next(
            (d for d in map(_function_of, statements) if d is not None and _name(d) == "__init__"), None
        )
        if init is not None:
            self.instance_fields(init, qname, declared)
        for statement in statements:
            if statement.type in ("class_definition", "function_definition", "decorated_definition"):
                self.definition(statement, qname)

    def function(self, node: Node, name: str, owner: str, attrs: list[str]) -> None:
        mods = [a for a in attrs if a in DECORATOR_MODS]
        if any(c.type == "async" for c in node.children):
            mods.append("async")
        self.functions.append(
            {
                "owner": owner,
                "name": name,
                "sig": signature(node),
                "line": first_line(node),
                "end_line": last_line(code_end(node)),
                "vis": vis(name),
                "mods": cells.mods(mods),
                "attrs": cells.join((a for a in attrs if a not in DECORATOR_MODS), "; "),
                "via": "",
            }
        )

    def class_field(self, statement: Node, owner: str, declared: set[str]) -> None:
        assignment = _assignment(statement)
        if assignment is None:
            return
        left = assignment.child_by_field_name("left")
        if left is None or left.type != "identifier":
            return
        self.add_property(owner, text_of(left), assignment, declared)

    def instance_fields(self, init: Node, owner: str, declared: set[str]) -> None:
        parameters = init.child_by_field_name("parameters")
        first = parameters.named_children[0] if parameters is not None and parameters.named_children else None
        receiver = text_of(first) if first is not None and first.type == "identifier" else "self"
        body = init.child_by_field_name("body")
        for statement in module_statements(body) if body is not None else []:
            assignment = _assignment(statement)
            if assignment is None:
                continue
            left = assignment.child_by_field_name("left")
            targets = left.named_children if left is not None and left.type == "pattern_list" else [left]
            for target in targets:
                if target is None or target.type != "attribute":
                    continue
                obj, attr = target.child_by_field_name("object"), target.child_by_field_name("attribute")
                if obj is not None and attr is not None and text_of(obj) == receiver:
                    self.add_property(
                        owner, text_of(attr), assignment if len(targets) == 1 else None, declared
                    )

    def add_property(self, owner: str, name: str, assignment: Node | None, declared: set[str]) -> None:
        if name in declared or not self.keep(name, owner):
            return
        declared.add(name)
        annotation = assignment.child_by_field_name("type") if assignment is not None else None
        value = assignment.child_by_field_name("right") if assignment is not None else None
        self.properties.append(
            {
                "owner": owner,
                "name": name,
                "type": cells.collapse(text_of(annotation)) if annotation is not None else "",
                "vis": vis(name),
                "mods": "",
                "value": literal(value),
                "attrs": "",
                "via": "",
            }
        )

    def module_constant(self, statement: Node, seen: set[str]) -> None:
        assignment = _assignment(statement)
        while assignment is not None:
            left = assignment.child_by_field_name("left")
            right = assignment.child_by_field_name("right")
            names = target_names(left) if left is not None else []
            for name in names:
                if name not in seen and self.keep(name, ""):
                    seen.add(name)
                    annotation = assignment.child_by_field_name("type")
                    self.constants.append(
                        {
                            "owner": "",
                            "kind": "const" if name.isupper() else "var",
                            "name": name,
                            "type": cells.collapse(text_of(annotation)) if annotation is not None else "",
                            "value": literal(right) if len(names) == 1 else "",
                            "via": "",
                        }
                    )
            assignment = right if right is not None and right.type == "assignment" else None

    def type_alias(self, statement: Node) -> None:
        left, right = statement.child_by_field_name("left"), statement.child_by_field_name("right")
        if left is None or right is None:
            return
        name = text_of(left)
        if not self.keep(name.split("[")[0], ""):
            return
        self.types.append(
            {
                "kind": "type",
                "name": cells.collapse(name),
                "line": first_line(statement),
                "end_line": last_line(statement),
                "vis": vis(name),
                "mods": "",
                "extends": "",
                "implements": "",
                "uses": "",
                "attrs": "",
                "detail": cells.detail(text_of(right)),
            }
        )


def target_names(target: Node) -> list[str]:
    """Names a module-level assignment binds: `X` and every name of `A, B = ...` or `(A, *B) = ...`
    (attribute and subscript targets bind no module name)."""
    if target.type == "identifier":
        return [text_of(target)]
    if target.type in ("pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern"):
        return [name for child in target.named_children for name in target_names(child)]
    return []


def _function_of(statement: Node) -> Node | None:
    """The function a (possibly decorated) statement defines, if it defines one."""
    inner = (
        statement.child_by_field_name("definition") if statement.type == "decorated_definition" else statement
    )
    return inner if inner is not None and inner.type == "function_definition" else None


def _name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return text_of(name) if name is not None else ""


def plain_imports(statement: Node) -> list[str]:
    """`import a.b as c, d` → `a.b as c`, `d`."""
    return [cells.collapse(text_of(name)) for name in statement.children_by_field_name("name")]


def from_imports(statement: Node, module: str = "") -> list[str]:
    """`from m import x as y, z` → `m.x as y`, `m.z`; relative modules keep their dots."""
    module_node = statement.child_by_field_name("module_name")
    base = module or (text_of(module_node) if module_node is not None else "")
    sep = "" if base.endswith(".") else "."
    if any(c.type == "wildcard_import" for c in statement.named_children):
        return [f"{base}{sep}*"]
    return [
        f"{base}{sep}{cells.collapse(text_of(name))}" for name in statement.children_by_field_name("name")
    ]
