"""JavaScript, TypeScript and TSX summaries: module specifiers
imported, classes, interfaces, type aliases, enums and namespaces, functions (consts bound to
functions included, overloads one row each), class fields, constructor parameters, top-level
constants. Top-level rows are `public` when exported, `private` when local to the module.

`ScriptSummary` also serves each `<script>` block of a Vue SFC (`summary_vue`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sofia.providers.code import cells
from sofia.providers.code.model import SourceFile, Summary, SummaryOptions
from sofia.syntax import js
from sofia.syntax.tree import Node, SymbolTree, last_line, text_of

LITERALS = frozenset(
    {"string", "number", "true", "false", "null", "undefined", "regex", "template_string", "unary_expression"}
)
"""Expressions whose text is a `value` cell."""
MEMBER_MODS = frozenset(
    {"static", "abstract", "override", "readonly", "declare", "accessor", "async", "get", "set"}
)
"""Anonymous modifier tokens of class members, kept in source order in `mods`."""
_ANGLE_OPEN = re.compile(r"<\s+")
_ANGLE_CLOSE = re.compile(r",?\s+>|,>")
"""Padding and trailing commas inside type parameter and argument lists (`< T, >` → `<T>`)."""
PARAMETERS = frozenset(
    {"required_parameter", "optional_parameter", "identifier", "assignment_pattern", "rest_pattern"}
    | {"object_pattern", "array_pattern"}
)


SIGNATURE_NAMES = {"call_signature": "(call)", "construct_signature": "(new)"}
"""The `name` of an interface's call and construct signatures in `functions`."""
NOT_DECLARATIONS = frozenset({"comment", "class_static_block", "decorator"})
DECLARATIONS = frozenset(
    {
        *js.FUNCTIONS,
        *js.CLASSES,
        *js.SIMPLE_TYPES,
        *js.NAMESPACES,
        *js.VARIABLES,
        "generator_function_declaration",
        "using_declaration",
        "ambient_declaration",
    }
)
"""Statement kinds that declare names: one of them yielding no row is named in notes."""
"""Nameless members of a class or interface body that declare nothing."""


def summarise(tree: SymbolTree, file: SourceFile, options: SummaryOptions) -> Summary:
    script = ScriptSummary(exported_only=options.exported)
    for parsed in tree.trees:
        script.script(parsed.root_node)
    return Summary(fields=script.fields(), skipped=script.skipped)


@dataclass
class ScriptSummary:
    """Rows of one or more scripts (a file, or the blocks of an SFC), filtered when `exported_only`."""

    exported_only: bool = False
    default_rows: bool = True
    """Whether an anonymous default export that is not a function or class gets a `default` row
    (not in an SFC, where the default export is the component itself)."""
    imports: list[str] = field(default_factory=list)
    types: list[dict[str, Any]] = field(default_factory=list)
    functions: list[dict[str, Any]] = field(default_factory=list)
    properties: list[dict[str, Any]] = field(default_factory=list)
    ctor: list[dict[str, Any]] = field(default_factory=list)
    constants: list[dict[str, Any]] = field(default_factory=list)
    cases: list[dict[str, Any]] = field(default_factory=list)
    exported_names: set[str] = field(default_factory=set)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    """Declarations without a row kind, as (line, text)."""

    def skip(self, node: Node) -> None:
        self.skipped.append((node.start_point.row + 1, text_of(node)))

    def fields(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "namespace": "",
            "imports": list(dict.fromkeys(self.imports)),
            "types": self.types,
            "functions": self.functions,
        }
        optional = {
            "properties": self.properties,
            "ctor": self.ctor,
            "constants": self.constants,
            "cases": self.cases,
            **(extra or {}),
        }
        fields.update({key: value for key, value in optional.items() if value})
        return fields

    def script(self, root: Node) -> None:
        self.exported_names |= clause_exports(root)
        self.statements(root, "", None)

    def statements(self, parent: Node, owner: str, scope: bool | None) -> None:
        """Rows of the statements directly under a program or namespace body. `scope` is None where
        export marks decide, False in a namespace that is not exported, True in an exported ambient
        (`declare`) namespace, where every declaration is exported."""
        for outer in parent.named_children:
            if outer.type == "import_statement" or (outer.type == "export_statement" and has_source(outer)):
                source = outer.child_by_field_name("source")
                if source is not None:
                    self.imports.append(js.name_text(source))
                continue
            if not owner and outer.type in ("expression_statement", *js.VARIABLES):
                self.imports.extend(requires(outer))
            decl, is_default = js.unwrap(outer)
            if decl is None:
                if outer.type in DECLARATIONS:
                    self.skip(outer)
                continue
            self.declaration(outer, decl, is_default, owner, scope)

    def is_exported(self, outer: Node, name: str, owner: str, scope: bool | None) -> bool:
        if scope is not None:
            return scope
        return outer.type == "export_statement" or (not owner and name in self.exported_names)

    def declaration(self, outer: Node, decl: Node, is_default: bool, owner: str, scope: bool | None) -> None:
        if decl.type in js.VARIABLES:
            for declarator in (c for c in decl.named_children if c.type == "variable_declarator"):
                self.variable(outer, decl, declarator, owner, scope)
            return
        if decl.type == "statement_block":
            if outer.type == "ambient_declaration":
                self.namespace(outer, decl, "global", owner, scope)
            return
        name_node = decl.child_by_field_name("name")
        name = js.name_text(name_node) if name_node is not None else ("default" if is_default else "")
        exported = self.is_exported(outer, name, owner, scope)
        if self.exported_only and not exported:
            return
        if not name:
            if decl.type in DECLARATIONS:
                self.skip(outer)
            return
        vis = "public" if exported else "private"
        if decl.type in js.FUNCTIONS or (is_default and decl.type in js.FUNCTION_VALUES):
            self.functions.append(function_row(owner, name, decl, outer, vis, []))
        elif decl.type in js.CLASSES:
            self.klass(outer, decl, qualify(owner, name), vis)
        elif decl.type == "interface_declaration":
            self.interface(outer, decl, qualify(owner, name), vis)
        elif decl.type == "type_alias_declaration":
            value = decl.child_by_field_name("value")
            rhs = written(value).lstrip("|&").strip() if value is not None else ""
            self.types.append(
                type_row("type", qualify(owner, name), outer, vis, detail=join_detail(decl, rhs))
            )
        elif decl.type == "enum_declaration":
            self.enum(outer, decl, qualify(owner, name), vis)
        elif decl.type in js.NAMESPACES:
            self.namespace(outer, decl, name, owner, scope)
        elif not is_default:
            if decl.type in DECLARATIONS:
                self.skip(outer)
        elif self.default_rows and decl.type != "identifier":
            self.constants.append(constant_row(owner, "const", "default", None, decl))

    def variable(self, outer: Node, decl: Node, declarator: Node, owner: str, scope: bool | None) -> None:
        name_node, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
        if name_node is None:
            return
        if name_node.type != "identifier":
            self.destructured(outer, decl, name_node, value, owner, scope)
            return
        name = text_of(name_node)
        exported = self.is_exported(outer, name, owner, scope)
        if self.exported_only and not exported:
            return
        single = sum(1 for c in decl.named_children if c.type == "variable_declarator") == 1
        anchor = outer if single else declarator
        if value is not None and value.type in js.FUNCTION_VALUES:
            row = function_row(owner, name, value, anchor, "public" if exported else "private", [])
            self.functions.append(row)
            return
        if value is not None and requires(declarator):
            return
        kind = text_of(decl.children[0]) if decl.children else "const"
        self.constants.append(constant_row(owner, kind, name, declarator, value))

    def destructured(
        self, outer: Node, decl: Node, pattern: Node, value: Node | None, owner: str, scope: bool | None
    ) -> None:
        """`const { a, b: c } = f()`: one constant row named by the pattern as written (every bound
        name visible), valued by the right-hand side."""
        if value is not None and requires(value):
            return
        names = bound_names(pattern)
        if self.exported_only and not any(self.is_exported(outer, n, owner, scope) for n in names):
            return
        kind = text_of(decl.children[0]) if decl.children else "const"
        self.constants.append(constant_row(owner, kind, written(pattern), None, value))

    def namespace(self, outer: Node, decl: Node, name: str, owner: str, scope: bool | None) -> None:
        ambient = outer.type == "ambient_declaration" or decl.type == "module"
        exported = self.is_exported(outer, name, owner, scope) or (ambient and scope is None)
        if self.exported_only and not exported:
            return
        qname = qualify(owner, name)
        mods = "declare" if outer.type == "ambient_declaration" else ""
        self.types.append(type_row("namespace", qname, outer, "public" if exported else "private", mods=mods))
        body = decl if decl.type == "statement_block" else decl.child_by_field_name("body")
        if body is not None:
            self.statements(body, qname, (True if ambient else None) if exported else False)

    def klass(self, outer: Node, decl: Node, name: str, vis: str) -> None:
        extends: list[str] = []
        implements: list[str] = []
        for heritage in (c for c in decl.named_children if c.type == "class_heritage"):
            for clause in heritage.named_children:
                if clause.type == "implements_clause":
                    implements.extend(written(t) for t in clause.named_children if t.type != "comment")
                elif clause.type == "extends_clause":
                    extends.append(written(clause).removeprefix("extends").strip())
                else:
                    extends.append(written(clause))
        self.types.append(
            type_row(
                "class",
                name,
                outer,
                vis,
                mods="abstract" if decl.type == "abstract_class_declaration" else "",
                extends=cells.join(extends),
                implements=cells.join(implements),
                attrs=decorators(outer),
                detail=type_parameters(decl),
            )
        )
        body = decl.child_by_field_name("body")
        pending: list[Node] = []
        for member in body.named_children if body is not None else []:
            if member.type == "decorator":
                pending.append(member)
                continue
            self.class_member(member, name, pending)
            pending = []

    def class_member(self, member: Node, owner: str, pending: list[Node]) -> None:
        if member.type == "index_signature":
            if not self.exported_only:
                self.properties.append(index_row(member, owner))
            return
        name_node = member.child_by_field_name("name") or member.child_by_field_name("property")
        if name_node is None:
            if member.type not in NOT_DECLARATIONS:
                self.skip(member)
            return
        name = js.name_text(name_node)
        vis = member_vis(member, name_node)
        if self.exported_only and vis == "private":
            return
        attrs = cells.join([decorator_text(d) for d in pending] + [decorators(member)], "; ")
        if member.type in js.METHODS:
            if name == "constructor":
                self.ctor.extend(ctor_rows(member, owner))
                return
            self.functions.append(function_row(owner, name, member, member, vis, member_mods(member), attrs))
            return
        if member.type not in js.FIELDS:
            return
        value = member.child_by_field_name("value")
        if value is not None and value.type in js.FUNCTION_VALUES:
            mods = member_mods(member) + member_mods(value)
            self.functions.append(function_row(owner, name, value, member, vis, mods, attrs))
            return
        self.properties.append(
            {
                "owner": owner,
                "name": name + ("?" if has_token(member, "?") else ""),
                "type": annotation(member.child_by_field_name("type")),
                "vis": vis,
                "mods": cells.mods(member_mods(member)),
                "value": literal(value),
                "attrs": attrs,
                "via": "",
            }
        )

    def interface(self, outer: Node, decl: Node, name: str, vis: str) -> None:
        parents = next((c for c in decl.named_children if c.type == "extends_type_clause"), None)
        extends = [written(t) for t in parents.named_children if t.type != "comment"] if parents else []
        detail = type_parameters(decl)
        self.types.append(type_row("interface", name, outer, vis, extends=cells.join(extends), detail=detail))
        body = decl.child_by_field_name("body")
        self.members(body, name)

    def members(self, body: Node | None, owner: str) -> None:
        """Property and method signatures of an interface or object type."""
        for member in body.named_children if body is not None else []:
            if member.type in SIGNATURE_NAMES:
                row = function_row(owner, SIGNATURE_NAMES[member.type], member, member, "public", [])
                returns = member.child_by_field_name("type")
                if member.type == "construct_signature" and returns is not None:
                    row["sig"] += written(returns)
                self.functions.append(row)
                continue
            if member.type == "index_signature":
                self.properties.append(index_row(member, owner))
                continue
            name_node = member.child_by_field_name("name")
            if name_node is None:
                if member.type not in NOT_DECLARATIONS:
                    self.skip(member)
                continue
            name = js.name_text(name_node) + ("?" if has_token(member, "?") else "")
            if member.type == "method_signature":
                self.functions.append(function_row(owner, name, member, member, "public", []))
            elif member.type == "property_signature":
                self.properties.append(
                    {
                        "owner": owner,
                        "name": name,
                        "type": annotation(member.child_by_field_name("type")),
                        "vis": "public",
                        "mods": "readonly" if has_token(member, "readonly") else "",
                        "value": "",
                        "attrs": "",
                        "via": "",
                    }
                )

    def enum(self, outer: Node, decl: Node, name: str, vis: str) -> None:
        mods = "const" if has_token(decl, "const") else ""
        self.types.append(type_row("enum", name, outer, vis, mods=mods))
        body = decl.child_by_field_name("body")
        for case in body.named_children if body is not None else []:
            if case.type == "enum_assignment":
                case_name, value = case.child_by_field_name("name"), case.child_by_field_name("value")
                self.cases.append(
                    {
                        "owner": name,
                        "name": js.name_text(case_name) if case_name is not None else "",
                        "value": cells.value(text_of(value)) if value is not None else "",
                    }
                )
            elif case.type in ("property_identifier", "string"):
                self.cases.append({"owner": name, "name": js.name_text(case), "value": ""})


def bound_names(pattern: Node) -> list[str]:
    """The names a destructuring pattern binds, in source order (keys and defaults left out)."""
    if pattern.type in ("identifier", "shorthand_property_identifier_pattern"):
        return [text_of(pattern)]
    if pattern.type == "pair_pattern":
        value = pattern.child_by_field_name("value")
        return bound_names(value) if value is not None else []
    if pattern.type in ("assignment_pattern", "object_assignment_pattern"):
        left = pattern.child_by_field_name("left")
        return bound_names(left) if left is not None else []
    if pattern.type in ("object_pattern", "array_pattern", "rest_pattern"):
        return [name for child in pattern.named_children for name in bound_names(child)]
    return []


def index_row(member: Node, owner: str) -> dict[str, Any]:
    """An index signature (`[key: string]: T`) as a property named by its bracketed key."""
    type_node = next((c for c in reversed(member.named_children) if c.type == "type_annotation"), None)
    key = text_of(member)[: type_node.start_byte - member.start_byte] if type_node is not None else ""
    key = key.strip().removeprefix("readonly").strip()
    return {
        "owner": owner,
        "name": cells.collapse(key) or written(member),
        "type": annotation(type_node),
        "vis": "public",
        "mods": "readonly" if has_token(member, "readonly") else "",
        "value": "",
        "attrs": "",
        "via": "",
    }


def qualify(owner: str, name: str) -> str:
    return f"{owner}.{name}" if owner else name


def has_source(statement: Node) -> bool:
    return statement.child_by_field_name("source") is not None


def has_token(node: Node, token: str) -> bool:
    """Whether `node` has the anonymous child `token` (`?`, `readonly`, `const`, `async`)."""
    return any(not c.is_named and c.type == token for c in node.children)


def clause_exports(root: Node) -> set[str]:
    """Local names exported by `export { a, b as c }` (no source), `export default a`, `export = a`."""
    names: set[str] = set()
    for statement in root.named_children:
        if statement.type != "export_statement" or has_source(statement):
            continue
        for child in statement.named_children:
            if child.type == "export_clause":
                for specifier in child.named_children:
                    local = specifier.child_by_field_name("name")
                    if local is not None:
                        names.add(text_of(local))
            elif child.type == "identifier":
                names.add(text_of(child))
    return names


def requires(statement: Node) -> list[str]:
    """Specifiers of `require('x')` calls at the top of a statement (`const a = require('a').b`)."""
    found: list[str] = []
    stack = [statement]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            callee, arguments = node.child_by_field_name("function"), node.child_by_field_name("arguments")
            if callee is not None and text_of(callee) == "require" and arguments is not None:
                first = arguments.named_children[0] if arguments.named_child_count else None
                if first is not None and first.type == "string":
                    found.append(js.name_text(first))
                continue
            stack.extend(c for c in (callee,) if c is not None)
        elif node.type in ("expression_statement", "lexical_declaration", "variable_declaration"):
            stack.extend(reversed(node.named_children))
        elif node.type == "variable_declarator":
            stack.extend(c for c in (node.child_by_field_name("value"),) if c is not None)
        elif node.type in ("assignment_expression", "await_expression", "member_expression"):
            inner = node.child_by_field_name("right") or node.child_by_field_name("object")
            stack.extend([inner] if inner is not None else node.named_children[-1:])
    return found


def type_parameters(decl: Node) -> str:
    params = decl.child_by_field_name("type_parameters")
    if params is None:
        return ""
    return "<" + ", ".join(written(p) for p in params.named_children if p.type != "comment") + ">"


def join_detail(decl: Node, rhs: str) -> str:
    """A type alias's detail: its type parameters, then the right-hand side, cut at 160."""
    return cells.detail(" ".join(p for p in (type_parameters(decl), rhs) if p))


def written(node: Node) -> str:
    """A node's text as written, comments left out, whitespace collapsed, no padding inside `< >`."""
    text = text_of(node)
    if "/*" in text or "//" in text:
        pieces, at = [], node.start_byte
        for comment in comments(node):
            pieces.append(text_of_range(node, at, comment.start_byte))
            at = comment.end_byte
        text = "".join(pieces) + text_of_range(node, at, node.end_byte)
    flat = cells.collapse(text)
    return _ANGLE_CLOSE.sub(">", _ANGLE_OPEN.sub("<", flat))


def comments(node: Node) -> list[Node]:
    """Comment nodes under `node`, in source order."""
    found: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "comment":
            found.append(current)
        else:
            stack.extend(reversed(current.children))
    return found


def text_of_range(node: Node, start: int, end: int) -> str:
    raw: bytes = node.text or b""
    return raw[start - node.start_byte : end - node.start_byte].decode("utf-8", "replace")


def annotation(node: Node | None) -> str:
    """A type annotation without its leading `:`."""
    if node is None:
        return ""
    return written(node).lstrip(":").strip()


def decorator_text(node: Node) -> str:
    return cells.collapse(text_of(node).lstrip("@"))


def decorators(node: Node) -> str:
    """The decorators that are children of `node` (JS members, TS exported classes)."""
    return cells.join([decorator_text(c) for c in node.children if c.type == "decorator"], "; ")


def member_vis(member: Node, name_node: Node) -> str:
    if name_node.type == "private_property_identifier":
        return "private"
    modifier = next((c for c in member.named_children if c.type == "accessibility_modifier"), None)
    return text_of(modifier) if modifier is not None else "public"


def member_mods(node: Node) -> list[str]:
    """Modifier keywords of a class member in source order (`override` is a named node)."""
    return [
        "override" if c.type == "override_modifier" else c.type
        for c in node.children
        if (not c.is_named and c.type in MEMBER_MODS) or c.type == "override_modifier"
    ]


def type_row(kind: str, name: str, outer: Node, vis: str, **cells_: str) -> dict[str, Any]:
    row: dict[str, Any] = {
        "kind": kind,
        "name": name,
        "line": js.declared_line(outer),
        "end_line": last_line(outer),
        "vis": vis,
    }
    for key in ("mods", "extends", "implements", "uses", "attrs", "detail"):
        row[key] = cells_.get(key, "")
    return row


def signature(function: Node) -> str:
    """`<T>(params): ret` as written, whitespace collapsed, defaults cut at 24 characters."""
    parameters = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    if parameters is None:
        params = "()"
    elif parameters.type == "formal_parameters":
        params = (
            "("
            + ", ".join(parameter_text(p) for p in parameters.named_children if p.type in PARAMETERS)
            + ")"
        )
    else:
        params = f"({text_of(parameters)})"
    returns = function.child_by_field_name("return_type")
    tail = written(returns) if returns is not None else ""
    return type_parameters(function) + params + tail


def parameter_text(param: Node) -> str:
    default = param.child_by_field_name("value") or param.child_by_field_name("right")
    if default is None:
        return written(param)
    head = (param.text or b"")[: default.start_byte - param.start_byte].decode("utf-8", "replace")
    return f"{cells.collapse(head.rstrip().rstrip('=').rstrip())} = {cells.default(text_of(default))}"


def function_row(
    owner: str, name: str, function: Node, anchor: Node, vis: str, mods: list[str], attrs: str = ""
) -> dict[str, Any]:
    if has_token(function, "async") and "async" not in mods:
        mods = [*mods, "async"]
    return {
        "owner": owner,
        "name": name,
        "sig": signature(function),
        "line": js.declared_line(anchor),
        "end_line": last_line(anchor),
        "vis": vis,
        "mods": cells.mods(mods),
        "attrs": attrs,
        "via": "",
    }


def ctor_rows(constructor: Node, owner: str) -> list[dict[str, Any]]:
    parameters = constructor.child_by_field_name("parameters")
    rows = []
    for param in parameters.named_children if parameters is not None else []:
        if param.type not in PARAMETERS:
            continue
        pattern = param.child_by_field_name("pattern") or param.child_by_field_name("left") or param
        optional = "?" if param.type == "optional_parameter" else ""
        rows.append(
            {
                "owner": owner,
                "name": cells.collapse(text_of(pattern)) + optional,
                "type": annotation(param.child_by_field_name("type")),
                "promoted": any(
                    c.type == "accessibility_modifier" or (not c.is_named and c.type == "readonly")
                    for c in param.children
                ),
            }
        )
    return rows


def constant_row(
    owner: str, kind: str, name: str, declarator: Node | None, value: Node | None
) -> dict[str, Any]:
    type_node = declarator.child_by_field_name("type") if declarator is not None else None
    return {
        "owner": owner,
        "kind": kind,
        "name": name,
        "type": annotation(type_node),
        "value": literal(value) or call_value(value),
        "via": "",
    }


def literal(node: Node | None) -> str:
    """The `value` cell of short literals: strings, numbers, booleans, null, negatives, regexes."""
    while node is not None and node.type in (
        "as_expression",
        "satisfies_expression",
        "parenthesized_expression",
    ):
        node = node.named_children[0] if node.named_child_count else None
    if node is None or node.type not in LITERALS:
        return ""
    if node.type == "template_string" and any(c.type == "template_substitution" for c in node.named_children):
        return ""
    return cells.value(text_of(node))


def call_value(node: Node | None) -> str:
    """A call's callee with a literal first argument: `defineStore('auth', …)`, `ref(0)`, `new Map()`."""
    while node is not None and node.type in ("as_expression", "satisfies_expression", "await_expression"):
        node = node.named_children[0] if node.named_child_count else None
    if node is None or node.type not in ("call_expression", "new_expression"):
        return ""
    callee = node.child_by_field_name("function") or node.child_by_field_name("constructor")
    arguments = node.child_by_field_name("arguments")
    if callee is None:
        return ""
    args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    shown = literal(args[0]) if args else ""
    inner = ", ".join(
        p for p in (shown or ("…" if args else ""), "…" if shown and len(args) > 1 else "") if p
    )
    prefix = "new " if node.type == "new_expression" else ""
    return cells.value(f"{prefix}{cells.collapse(text_of(callee))}({inner})")
