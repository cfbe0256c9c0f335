"""Summaries of the query-driven languages (Java, Kotlin, C#, C, C++, Rust, Ruby, Swift): the
file's package or namespace, its imports, types with their relations, every function and method
with its signature and line range, fields and properties, constants and enum cases — all read off
the declarations the language's query captures (`sofia.syntax.queried`)."""

from __future__ import annotations

from typing import Any

from sofia.providers.code import cells
from sofia.providers.code.model import SourceFile, Summary, SummaryOptions
from sofia.syntax import queried
from sofia.syntax.queried import FUNCTION_KINDS, TYPE_KINDS, Declaration, Spec
from sofia.syntax.registry import separator
from sofia.syntax.tree import Node, SymbolTree, last_line, text_of

EXPORTED = frozenset({"public", "open"})
"""Visibilities `exported` keeps."""


def summarise(tree: SymbolTree, file: SourceFile, options: SummaryOptions) -> Summary:
    parsed = queried.read(tree.source, tree.lang, tree.trees[0])
    spec = queried.spec_of(tree.lang)
    rows = _Rows(spec, separator(tree.lang), options.exported, tree.source)
    for declaration in parsed.declarations:
        rows.add(declaration)
    imports = [_import(spec, node) for node in parsed.imports]
    namespace = parsed.package or rows.hoist(_enclosing_namespace(parsed.declarations))
    fields: dict[str, Any] = {
        "namespace": namespace,
        "imports": [text for text in imports if text],
        "types": rows.types,
        "functions": rows.functions,
        "properties": rows.properties,
        "constants": rows.constants,
        "cases": rows.cases,
    }
    return Summary(fields=fields)


def _enclosing_namespace(declarations: list[Declaration]) -> tuple[str, ...]:
    """The namespace every declaration of the file stands in (C++'s `namespace LightGBM { ... }`
    around the whole file, `a::b` for nested ones), else (): written once as the summary's
    `namespace`, as a package is, not before every name. The preprocessor's definitions belong to
    no namespace and do not count."""
    path: tuple[str, ...] = ()
    holders: set[int] = set()
    while True:
        outer = [
            d
            for d in declarations
            if not d.node.type.startswith("preproc_")
            and (id(d.owner) in holders if holders else d.owner is None)
        ]
        if not outer or any(d.kind != "namespace" for d in outer) or len({d.path for d in outer}) != 1:
            return path
        path, holders = outer[0].path, {id(d) for d in outer}


def _import(spec: Spec, node: Node) -> str:
    if spec.import_text is not None:
        return spec.import_text(node)
    return cells.collapse(text_of(node)).removesuffix(";")


class _Rows:
    def __init__(self, spec: Spec, separator: str, exported_only: bool, source: bytes) -> None:
        self.spec = spec
        self.source = source
        self.separator = separator
        self.exported_only = exported_only
        self.types: list[dict[str, Any]] = []
        self.functions: list[dict[str, Any]] = []
        self.properties: list[dict[str, Any]] = []
        self.constants: list[dict[str, Any]] = []
        self.cases: list[dict[str, Any]] = []
        self.hidden: set[int] = set()
        """Declarations left out by `exported`: their members go too."""

    def add(self, declaration: Declaration) -> None:
        """One declaration into its table, unless it is hidden (inside a hidden owner, local to a
        scope, or not exported when only the exported surface is asked for)."""
        if declaration.owner is not None and id(declaration.owner) in self.hidden:
            self.hidden.add(id(declaration))
            return
        if declaration.scope:
            return
        words, inside = queried.modifiers_of(self.spec, declaration.node)
        vis = queried.visibility(self.spec, declaration, words)
        if self.exported_only and vis not in EXPORTED and declaration.kind != "case":
            self.hidden.add(id(declaration))
            return
        self.add_row(declaration, vis, self.mods_cell(declaration, words), inside)

    def mods_cell(self, declaration: Declaration, words: list[str]) -> str:
        """The modifiers beside the visibility: the language's own reading where it has one."""
        if self.spec.mods is not None:
            return cells.mods(self.spec.mods(declaration.node, words))
        return cells.mods(w for w in words if w not in queried.VISIBILITY_WORDS)

    def add_row(self, declaration: Declaration, vis: str, mods: str, inside: list[str]) -> None:
        """The row of a shown declaration, in the table of its kind; `inside` are the annotations
        written among its children (`queried.modifiers_of`)."""
        attrs = cells.join(queried.annotations_above(self.spec, declaration.node) + inside, "; ")
        owner = self.separator.join(declaration.path[:-1])
        kind = declaration.kind
        if kind in TYPE_KINDS:
            self.types.append(self.type_row(declaration, vis, mods, attrs))
        elif kind in FUNCTION_KINDS:
            self.functions.append(self.function_row(declaration, owner, vis, mods, attrs))
        elif kind in ("field", "property"):
            self.properties.append(
                {
                    "owner": owner,
                    "name": declaration.name,
                    "type": self.type_cell(declaration),
                    "vis": vis,
                    "mods": mods,
                    "value": _literal(self.spec, declaration),
                    "attrs": attrs,
                    "via": "",
                }
            )
        elif kind in ("constant", "var"):
            self.constants.append(
                {
                    "owner": owner,
                    "kind": "const" if kind == "constant" else "var",
                    "name": declaration.name,
                    "type": self.type_cell(declaration),
                    "value": _literal(self.spec, declaration),
                    "via": "",
                }
            )
        elif kind == "case":
            self.cases.append(
                {"owner": owner, "name": declaration.name, "value": _literal(self.spec, declaration)}
            )

    def function_row(
        self, declaration: Declaration, owner: str, vis: str, mods: str, attrs: str
    ) -> dict[str, object]:
        """A function's row: its header as written (defaults cut), its lines and modifiers."""
        spec = self.spec
        header = queried.header(spec, declaration.node, declaration.name_node, self.source)
        return {
            "owner": owner,
            "name": declaration.name,
            "sig": _cut_defaults(cells.collapse(header)),
            "line": declaration.name_node.start_point.row + 1,
            "end_line": last_line(declaration.end),
            "vis": vis,
            "mods": mods,
            "attrs": attrs,
            "via": spec.via(declaration.node) if spec.via is not None else "",
        }

    def hoist(self, path: tuple[str, ...]) -> str:
        """Names and owners written without the file's enclosing namespace `path` (its own rows
        left out): the namespace is the summary's; "" where there is none."""
        if not path:
            return ""
        namespace = self.separator.join(path)
        prefix = namespace + self.separator
        self.types = [
            row for row in self.types if not (row["kind"] == "namespace" and row["name"] == namespace)
        ]
        for row in self.types:
            row["name"] = row["name"].removeprefix(prefix)
        for table in (self.functions, self.properties, self.constants, self.cases):
            for row in table:
                owner = row["owner"]
                row["owner"] = "" if owner == namespace else owner.removeprefix(prefix)
        return namespace

    def type_cell(self, declaration: Declaration) -> str:
        if self.spec.value_type is not None:
            return cells.collapse(self.spec.value_type(declaration.node, declaration.name_node))
        return _capture(declaration, "type")

    def type_row(self, declaration: Declaration, vis: str, mods: str, attrs: str) -> dict[str, Any]:
        relations: dict[str, list[str]] = {"extends": [], "implements": [], "uses": []}
        for child in declaration.node.named_children:
            relation = self.spec.relations.get(child.type)
            if relation is None:
                continue
            for item in child.named_children:
                parts = item.named_children if item.type in self.spec.lists else [item]
                for part in parts:
                    kind, text = (relation, text_of(part))
                    if self.spec.relation is not None:
                        kind, text = self.spec.relation(part)
                    if kind:
                        relations[kind].append(cells.collapse(text))
        if self.spec.related is not None:
            for kind, text in self.spec.related(declaration.node):
                relations[kind].append(cells.collapse(text))
        params = next(
            (
                c
                for c in declaration.node.named_children
                if c.type in ("type_parameters", "type_parameter_list")
            ),
            None,
        )
        return {
            "kind": declaration.kind,
            "name": self.separator.join(declaration.path),
            "line": declaration.name_node.start_point.row + 1,
            "end_line": last_line(declaration.end),
            "vis": vis,
            "mods": mods,
            "extends": cells.join(relations["extends"]),
            "implements": cells.join(relations["implements"]),
            "uses": cells.join(relations["uses"]),
            "attrs": attrs,
            "detail": self.detail(declaration.node, params),
        }

    def detail(self, node: Node, params: Node | None) -> str:
        if self.spec.detail is not None:
            return cells.detail(cells.collapse(self.spec.detail(node)))
        return cells.detail(cells.collapse(text_of(params))) if params is not None else ""


_OPENERS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_OPERATOR_BYTES = frozenset("=!<>+-*/%&|^~")


def _cut_defaults(sig: str) -> str:
    """Each parameter default in a signature cut at 24 characters, as every summary cuts them
    (`size_t n = SIZE_MAX` whole, `Options o = Options::defaults().with(…)` cut): a default is
    the text after a lone `=` inside the parameter list, up to the `,` or `)` closing it."""
    if "=" not in sig:
        return sig
    out: list[str] = []
    depth = 0
    angles = 0  # type arguments (`Iterator<Item = u8>`: an associated type, not a default)
    at = 0
    while at < len(sig):
        char = sig[at]
        if char == "<" and (sig[at - 1 : at].isalnum() or sig[at - 1 : at] == "_"):
            angles += 1
        elif char == ">" and angles and sig[at - 1 : at] != "-":
            angles -= 1
        lone = (
            char == "="
            and depth > 0
            and not angles
            and sig[at - 1 : at] not in _OPERATOR_BYTES
            and sig[at + 1 : at + 2] not in ("=", ">")
        )
        if lone:
            end = _default_end(sig, at + 1)
            out.append("=" + (" " if sig[at + 1 : at + 2] == " " else ""))
            out.append(cells.default(sig[at + 1 : end]))
            at = end
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        out.append(char)
        at += 1
    return "".join(out)


def _default_end(sig: str, start: int) -> int:
    """Where a default starting at `start` ends: the `,` or closer at its own depth."""
    stack: list[str] = []
    quote = ""
    at = start
    while at < len(sig):
        char = sig[at]
        if quote:
            if char == "\\":
                at += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            stack.append(_OPENERS[char])
        elif char in ")]}":
            if not stack:
                return at
            stack.pop()
        elif char == "," and not stack:
            return at
        at += 1
    return at


def _capture(declaration: Declaration, name: str) -> str:
    nodes = declaration.captures.get(name)
    return cells.collapse(text_of(nodes[0])) if nodes else ""


LITERAL_SUFFIXES = ("_literal", "string", "true", "false", "null", "nil", "number", "integer", "float")


def _literal(spec: Spec, declaration: Declaration) -> str:
    """A short literal value (`10`, `"x"`, `-1`), never an expression."""
    nodes = declaration.captures.get("value")
    if not nodes:
        return ""
    node = nodes[0]
    text = spec.literal(node) if spec.literal is not None else None
    if text is not None:
        return cells.value(text)
    if node.type.startswith("unary") and node.named_child_count == 1:
        operand = node.named_children[0]
        return cells.value(text_of(node)) if operand.type.endswith(LITERAL_SUFFIXES) else ""
    return cells.value(text_of(node)) if node.type.endswith(LITERAL_SUFFIXES) else ""
