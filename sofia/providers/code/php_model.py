"""A model of one PHP file for the `code` summaries: namespace, imports, and every class-like
declaration with its relations resolved to FQCNs, methods, constructor parameters, properties
(hooks and asymmetric visibility included), constants, enum cases and trait rules. The `api` mode
reads traits and parents through the same model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sofia.providers.code import cells
from sofia.syntax.php import CONTAINERS, TYPE_KINDS, declared_line
from sofia.syntax.tree import Node, first_line, last_line, text_of

BUILTIN_TYPES = frozenset(
    {"int", "float", "string", "bool", "void", "mixed", "never", "self", "static", "parent", "object"}
    | {"callable", "iterable", "array", "true", "false", "null"}
)
"""Type names PHP never resolves against imports or the namespace."""
LITERALS = frozenset({"integer", "float", "string", "boolean", "null"})
PARAMETERS = frozenset({"simple_parameter", "variadic_parameter", "property_promotion_parameter"})
MEMBER_CONTAINERS = frozenset({"ERROR"})
SHORT_ARRAY = 64
"""Longer array literals are not `value` cells (and are not walked)."""


@dataclass
class Member:
    """A method, property or constant row, with the visibility the filters and `api` decide on."""

    name: str
    vis: str
    row: dict[str, Any]
    line: int = 0


@dataclass
class Adaptation:
    """One trait rule: `T::m insteadof U`, `m as n`, `T::m as protected`, `m as private n`."""

    trait: str
    """FQCN of the trait named on the left, "" when unqualified."""
    method: str
    insteadof: list[str] = field(default_factory=list)
    alias: str = ""
    vis: str = ""


@dataclass
class PhpType:
    kind: str
    name: str
    """As shown: the short name, or the FQCN for types outside the file's first namespace."""
    short: str
    fqcn: str
    row: dict[str, Any]
    parents: list[str] = field(default_factory=list)
    """FQCNs: a class's parent, or an interface's parent interfaces."""
    traits: list[str] = field(default_factory=list)
    adaptations: list[Adaptation] = field(default_factory=list)
    functions: list[Member] = field(default_factory=list)
    properties: list[Member] = field(default_factory=list)
    constants: list[Member] = field(default_factory=list)
    cases: list[dict[str, Any]] = field(default_factory=list)
    ctor: list[dict[str, Any]] = field(default_factory=list)
    ctor_public: bool = True


@dataclass
class PhpFile:
    namespace: str = ""
    imports: list[str] = field(default_factory=list)
    types: list[PhpType] = field(default_factory=list)
    functions: list[dict[str, Any]] = field(default_factory=list)
    constants: list[Member] = field(default_factory=list)


def short_name(fqcn: str) -> str:
    return fqcn.rsplit("\\", 1)[-1]


def read(root: Node) -> PhpFile:
    """The model of one parsed PHP file."""
    reader = _Reader()
    reader.statements(root)
    return reader.php


@dataclass
class _Reader:
    php: PhpFile = field(default_factory=PhpFile)
    namespace: str = ""
    first_namespace: str | None = None
    aliases: dict[str, str] = field(default_factory=dict)
    """Class imports of the current namespace: lower-cased alias → FQCN."""

    def statements(self, parent: Node) -> None:
        for node in parent.named_children:
            if node.type == "namespace_definition":
                self.enter_namespace(node)
            elif node.type == "namespace_use_declaration":
                self.use(node)
            elif node.type in TYPE_KINDS:
                self.declaration(node)
            elif node.type == "function_definition":
                self.top_function(node)
            elif node.type == "const_declaration":
                self.php.constants.extend(self.constants(node, ""))
            elif node.type in CONTAINERS:
                self.statements(node)

    def enter_namespace(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        self.namespace = text_of(name_node) if name_node is not None else ""
        self.aliases = {}
        if self.first_namespace is None:
            self.first_namespace = self.namespace
            self.php.namespace = self.namespace
        body = node.child_by_field_name("body")
        if body is not None:
            self.statements(body)

    def use(self, node: Node) -> None:
        """Every import of a `use` statement, group uses expanded, `as` aliases kept."""
        kind_node = node.child_by_field_name("type")
        prefix_node = next((c for c in node.named_children if c.type == "namespace_name"), None)
        prefix = text_of(prefix_node).lstrip("\\") + "\\" if prefix_node is not None else ""
        group = node.child_by_field_name("body")
        clauses = (group or node).named_children
        for clause in clauses:
            if clause.type != "namespace_use_clause":
                continue
            clause_kind = clause.child_by_field_name("type") or kind_node
            alias_node = clause.child_by_field_name("alias")
            name_node = next((c for c in clause.named_children if c != alias_node), None)
            if name_node is None:
                continue
            target = prefix + text_of(name_node).lstrip("\\")
            alias = text_of(alias_node) if alias_node is not None else ""
            kind = text_of(clause_kind) if clause_kind is not None else ""
            self.php.imports.append(" ".join(p for p in (kind, target, "as" if alias else "", alias) if p))
            if not kind:
                self.aliases[(alias or short_name(target)).lower()] = target

    def resolve(self, name: str) -> str:
        """A class name as PHP resolves it: imports, then the current namespace."""
        if name.startswith("\\"):
            return name[1:]
        if name.lower() in BUILTIN_TYPES:
            return name
        if name.lower().startswith("namespace\\"):
            name = name[len("namespace\\") :]
            return f"{self.namespace}\\{name}" if self.namespace else name
        first, _, rest = name.partition("\\")
        target = self.aliases.get(first.lower())
        if target is not None:
            return f"{target}\\{rest}" if rest else target
        return f"{self.namespace}\\{name}" if self.namespace else name

    def shown(self, name: str) -> str:
        """Names in the file's first namespace are shown short, others by FQCN."""
        if self.namespace == (self.first_namespace or "") or not self.namespace:
            return name
        return f"{self.namespace}\\{name}"

    def declaration(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        kind = TYPE_KINDS[node.type]
        short = text_of(name_node)
        fqcn = f"{self.namespace}\\{short}" if self.namespace else short
        mods = [text_of(c) for c in node.children if c.type.endswith("_modifier")]
        parents: list[str] = []
        implements: list[str] = []
        detail = ""
        for child in node.named_children:
            if child.type == "base_clause":
                parents = [self.resolve(text_of(n)) for n in class_names(child)]
            elif child.type == "class_interface_clause":
                implements = [self.resolve(text_of(n)) for n in class_names(child)]
            elif kind == "enum" and child.type in ("primitive_type", "named_type"):
                detail = text_of(child)
        php_type = PhpType(kind=kind, name=self.shown(short), short=short, fqcn=fqcn, row={}, parents=parents)
        body = node.child_by_field_name("body")
        if body is not None:
            self.members(body, php_type)
        php_type.row = {
            "kind": kind,
            "name": php_type.name,
            "line": declared_line(node),
            "end_line": last_line(node),
            "vis": "public",
            "mods": cells.mods(mods),
            "extends": cells.join(parents),
            "implements": cells.join(implements),
            "uses": cells.join(php_type.traits),
            "attrs": attributes(node),
            "detail": detail,
        }
        self.php.types.append(php_type)

    def members(self, body: Node, php_type: PhpType) -> None:
        owner = php_type.name
        for node in body.named_children:
            if node.type == "method_declaration":
                self.method(node, php_type)
            elif node.type == "property_declaration":
                php_type.properties.extend(self.properties(node, owner))
            elif node.type == "const_declaration":
                php_type.constants.extend(self.constants(node, owner))
            elif node.type == "enum_case":
                name_node, value = node.child_by_field_name("name"), node.child_by_field_name("value")
                php_type.cases.append(
                    {
                        "owner": owner,
                        "name": text_of(name_node) if name_node is not None else "",
                        "value": cells.value(text_of(value)) if value is not None else "",
                    }
                )
            elif node.type == "use_declaration":
                self.trait_use(node, php_type)
            elif node.type in MEMBER_CONTAINERS:
                self.members(node, php_type)

    def method(self, node: Node, php_type: PhpType) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = text_of(name_node)
        vis = visibility(node)
        if name.lower() == "__construct":
            php_type.ctor_public = vis == "public"
            php_type.ctor.extend(self.ctor_rows(node, php_type.name))
            return
        row = {
            "owner": php_type.name,
            "name": name,
            "sig": signature(node),
            "line": declared_line(node),
            "end_line": last_line(node),
            "vis": vis,
            "mods": cells.mods(text_of(c) for c in node.children if is_modifier(c)),
            "attrs": attributes(node),
            "via": "",
        }
        php_type.functions.append(Member(name, vis, row))

    def ctor_rows(self, node: Node, owner: str) -> list[dict[str, Any]]:
        parameters = node.child_by_field_name("parameters")
        rows = []
        for param in parameters.named_children if parameters is not None else []:
            if param.type not in PARAMETERS:
                continue
            name_node, type_node = param.child_by_field_name("name"), param.child_by_field_name("type")
            rows.append(
                {
                    "owner": owner,
                    "name": text_of(name_node).lstrip("$") if name_node is not None else "",
                    "type": cells.collapse(text_of(type_node)) if type_node is not None else "",
                    "promoted": param.type == "property_promotion_parameter",
                }
            )
        return rows

    def top_function(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        self.php.functions.append(
            {
                "owner": "",
                "name": self.shown(text_of(name_node)),
                "sig": signature(node),
                "line": declared_line(node),
                "end_line": last_line(node),
                "vis": "public",
                "mods": "",
                "attrs": attributes(node),
                "via": "",
            }
        )

    def properties(self, node: Node, owner: str) -> list[Member]:
        type_node = node.child_by_field_name("type")
        vis = ""
        mods: list[str] = []
        for child in node.children:
            if child.type == "visibility_modifier" and "(" not in text_of(child) and not vis:
                vis = text_of(child)
            elif is_modifier(child) or child.type == "visibility_modifier":
                mods.append(cells.collapse(text_of(child)))
        hooks = next((c for c in node.named_children if c.type == "property_hook_list"), None)
        if hooks is not None:
            for hook in hooks.named_children:
                hook_name = next((c for c in hook.named_children if c.type == "name"), None)
                if hook.type == "property_hook" and hook_name is not None:
                    mods.append(text_of(hook_name))
        vis = vis or "public"
        members = []
        for element in node.named_children:
            if element.type != "property_element":
                continue
            name_node = element.child_by_field_name("name")
            name = text_of(name_node).lstrip("$") if name_node is not None else ""
            row = {
                "owner": owner,
                "name": name,
                "type": cells.collapse(text_of(type_node)) if type_node is not None else "",
                "vis": vis,
                "mods": cells.mods(mods),
                "value": literal(element.child_by_field_name("default_value")),
                "attrs": attributes(node),
                "via": "",
            }
            members.append(Member(name, vis, row))
        return members

    def constants(self, node: Node, owner: str) -> list[Member]:
        type_node = node.child_by_field_name("type")
        vis = visibility(node)
        members = []
        for element in node.named_children:
            if element.type != "const_element":
                continue
            name_node = next((c for c in element.named_children if c.type == "name"), None)
            value_node = name_node.next_named_sibling if name_node is not None else None
            name = text_of(name_node) if name_node is not None else ""
            row = {
                "owner": owner,
                "kind": "const",
                "name": self.shown(name) if not owner else name,
                "type": cells.collapse(text_of(type_node)) if type_node is not None else "",
                "value": literal(value_node),
                "via": "",
            }
            members.append(Member(name, vis, row, first_line(element)))
        return members

    def trait_use(self, node: Node, php_type: PhpType) -> None:
        php_type.traits.extend(self.resolve(text_of(n)) for n in class_names(node))
        rules = next((c for c in node.named_children if c.type == "use_list"), None)
        for rule in rules.named_children if rules is not None else []:
            parts = rule.named_children
            if not parts or rule.type not in ("use_instead_of_clause", "use_as_clause"):
                continue
            trait, method = self.trait_method(parts[0])
            adaptation = Adaptation(trait=trait, method=method)
            if rule.type == "use_instead_of_clause":
                adaptation.insteadof = [self.resolve(text_of(n)) for n in parts[1:] if n.type in CLASS_NAMES]
            else:
                for part in parts[1:]:
                    if part.type == "visibility_modifier":
                        adaptation.vis = text_of(part)
                    elif part.type == "name":
                        adaptation.alias = text_of(part)
            php_type.adaptations.append(adaptation)

    def trait_method(self, node: Node) -> tuple[str, str]:
        """(trait FQCN or "", method) of `T::m` or `m`."""
        if node.type == "class_constant_access_expression":
            names = node.named_children
            if len(names) >= 2:
                return self.resolve(text_of(names[0])), text_of(names[-1])
        return "", text_of(node)


CLASS_NAMES = frozenset({"name", "qualified_name", "relative_name"})


def class_names(node: Node) -> list[Node]:
    """The class names listed in an `extends`, `implements` or trait `use` clause."""
    return [c for c in node.named_children if c.type in CLASS_NAMES]


def is_modifier(node: Node) -> bool:
    return node.type.endswith("_modifier") and node.type not in ("visibility_modifier", "reference_modifier")


def visibility(node: Node) -> str:
    for child in node.children:
        if child.type == "visibility_modifier" and "(" not in text_of(child):
            return text_of(child)
    return "public"


def attributes(node: Node) -> str:
    """Each attribute's source text without `#[ ]`, whitespace collapsed, joined by `; `."""
    found: list[str] = []
    for attribute_list in node.children:
        if attribute_list.type != "attribute_list":
            continue
        for group in attribute_list.named_children:
            found.extend(cells.collapse(text_of(a)) for a in group.named_children if a.type == "attribute")
    return cells.join(found, "; ")


def literal(node: Node | None) -> str:
    """The `value` cell: numbers, plain strings, booleans, null, negatives and arrays of those."""
    if node is None or not is_literal(node):
        return ""
    return cells.value(text_of(node))


def is_literal(node: Node) -> bool:
    if node.type in LITERALS:
        return True
    if node.type == "encapsed_string":
        return all(c.type in ("string_content", "escape_sequence") for c in node.named_children)
    if node.type == "unary_op_expression":
        return all(c.type in ("integer", "float") for c in node.named_children)
    if node.type == "array_creation_expression" and node.end_byte - node.start_byte <= SHORT_ARRAY:
        return all(
            all(is_literal(v) for v in element.named_children)
            for element in node.named_children
            if element.type == "array_element_initializer"
        )
    return False


def signature(function: Node) -> str:
    """`(params): ret` as written, whitespace collapsed, each default cut at 24 characters."""
    parameters = function.child_by_field_name("parameters")
    parts = []
    for param in parameters.named_children if parameters is not None else []:
        if param.type not in PARAMETERS:
            continue
        value = param.child_by_field_name("default_value")
        if value is None:
            parts.append(cells.collapse(text_of(param)))
            continue
        head = (param.text or b"")[: value.start_byte - param.start_byte].decode("utf-8", "replace")
        parts.append(
            f"{cells.collapse(head.rstrip().rstrip('=').rstrip())} = {cells.default(text_of(value))}"
        )
    sig = "(" + ", ".join(parts) + ")"
    returns = function.child_by_field_name("return_type")
    if returns is not None:
        sig += ": " + cells.collapse(text_of(returns))
    return sig


def file_fields(php: PhpFile, exported: bool, unresolved: list[str] | None = None) -> dict[str, Any]:
    """The summary keys of a file model; `exported` keeps public members only. With `unresolved`
    (the api surface) rows keep their surface order instead of the file's line order."""
    in_file_order = unresolved is None

    def rows(members: list[Member]) -> list[dict[str, Any]]:
        return [m.row for m in members if not exported or m.vis == "public"]

    functions = [*php.functions]
    properties: list[dict[str, Any]] = []
    constants = [*php.constants]
    ctor: list[dict[str, Any]] = []
    cases: list[dict[str, Any]] = []
    for php_type in php.types:
        functions.extend(rows(php_type.functions))
        properties.extend(rows(php_type.properties))
        constants.extend(m for m in php_type.constants if not exported or m.vis == "public")
        if php_type.ctor_public or not exported:
            ctor.extend(php_type.ctor)
        cases.extend(php_type.cases)
    fields: dict[str, Any] = {
        "namespace": php.namespace,
        "imports": php.imports,
        "types": [t.row for t in php.types],
        "functions": sorted(functions, key=lambda r: int(r["line"])) if in_file_order else functions,
    }
    constant_rows = [m.row for m in (sorted(constants, key=lambda m: m.line) if in_file_order else constants)]
    optional = {"properties": properties, "ctor": ctor, "constants": constant_rows, "cases": cases}
    fields.update({key: value for key, value in optional.items() if value})
    if unresolved:
        fields["unresolved"] = unresolved
    return fields
