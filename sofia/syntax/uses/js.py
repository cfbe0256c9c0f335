"""JavaScript and TypeScript occurrences: ES imports (named, aliased, default, namespace),
`this.`/`super.` receivers, classes used statically, variables assigned `new Class()` or
annotated with a class in the same function, heritage clauses, type positions, JSX tags and
locals that shadow the name."""

from __future__ import annotations

import posixpath
from typing import Any

from sofia.syntax.js import FUNCTIONS, METHODS
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.model import DEFINITION, LOCAL, OTHER, USE, Binding, Occurrence, Path, Syntax
from sofia.syntax.uses.nodes import holding, is_field, nearest, of_types, span, walk, word_positions
from sofia.syntax.uses.scan import Base

SCRIPT_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".d.ts")
FUNCTION_SCOPES = (
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "method_definition",
    "generator_function",
)
BLOCK_SCOPES = (*FUNCTION_SCOPES, "statement_block", "for_statement", "for_in_statement", "class_body")
TYPE_PARENTS = frozenset(
    {
        "type_annotation",
        "type_arguments",
        "generic_type",
        "union_type",
        "intersection_type",
        "array_type",
        "tuple_type",
        "type_query",
        "nested_type_identifier",
        "as_expression",
        "satisfies_expression",
        "type_alias_declaration",
        "constraint",
        "default_type",
        "lookup_type",
        "index_type_query",
        "readonly_type",
        "conditional_type",
        "function_type",
        "parenthesized_type",
        "predefined_type",
        "type_predicate",
        "opting_type_annotation",
        "omitting_type_annotation",
        "asserts",
        "infer_type",
        "mapped_type_clause",
        "extends_type_clause",
    }
)
DEFINITIONS = {
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "class": "class",
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "enum_declaration": "enum",
    "internal_module": "namespace",
    "module": "namespace",
}


CLASS_DECLARATIONS = ("class_declaration", "abstract_class_declaration", "interface_declaration")
PARAMETERS = ("required_parameter", "optional_parameter")


def _required(declarator: Node) -> str | None:
    """The specifier of a declarator's `require('x')` value, or None."""
    value = declarator.child_by_field_name("value")
    if value is None or value.type != "call_expression":
        return None
    function = value.child_by_field_name("function")
    arguments = value.child_by_field_name("arguments")
    if function is None or text_of(function) != "require" or arguments is None:
        return None
    strings = [a for a in arguments.named_children if a.type == "string"]
    if len(strings) != 1 or arguments.named_child_count != 1:
        return None
    return text_of(strings[0])[1:-1]


def star_sources(root: Node) -> list[str]:
    """The specifiers a module passes on whole (`export * from './x'`; `export * as ns` binds a
    namespace instead), as written."""
    found: list[str] = []
    for statement in root.named_children:
        if statement.type != "export_statement":
            continue
        source = statement.child_by_field_name("source")
        if source is None or any(
            c.type in ("export_clause", "namespace_export") for c in statement.named_children
        ):
            continue
        if any(c.type == "*" for c in statement.children):
            found.append(text_of(source)[1:-1])
    return found


def module_path(rel: str) -> Path:
    """`src/api/index.ts` -> ("src", "api"); `src/api.ts` -> ("src", "api")."""
    stem = rel
    for extension in SCRIPT_EXTENSIONS:
        if stem.lower().endswith(extension):
            stem = stem[: -len(extension)]
            break
    parts = [p for p in stem.split("/") if p and p != "."]
    if len(parts) > 1 and parts[-1] == "index":
        parts.pop()
    return tuple(parts)


class Analyzer(Base):
    def __init__(self, tree: Syntax, rel: str, script: Any = None, component: str = "") -> None:
        self.rel = rel
        self.tree = tree
        self.script = script if script is not None else tree.trees[0]
        """The tree-sitter tree of this script (a whole file, or one Vue `<script>` block)."""
        self.root = self.script.root_node
        self.module = module_path(rel)
        self.component = component
        self._held: dict[tuple[int, int, str], list[Node]] = {}
        self.names: dict[str, Path] = {}
        """Imported local names -> module path + imported name."""
        self.bare: set[Path] = set()
        """Modules named by non-relative specifiers (`@/utils`, `lodash`)."""
        self.namespaces: dict[str, Path] = {}
        self.top: set[str] = set()
        self.top_classes: set[str] = set()
        for statement in self.root.named_children:
            if statement.type == "import_statement":
                self._read_import(statement)
            declaration = (
                statement.child_by_field_name("declaration")
                if statement.type == "export_statement"
                else statement
            )
            if declaration is not None and declaration.type in (*DEFINITIONS, *FUNCTIONS):
                self.top.add(text_of(declaration.child_by_field_name("name")))
                if declaration.type in DEFINITIONS:
                    self.top_classes.add(text_of(declaration.child_by_field_name("name")))
            elif declaration is not None and declaration.type in (
                "lexical_declaration",
                "variable_declaration",
            ):
                for declarator in declaration.named_children:
                    if declarator.type != "variable_declarator":
                        continue
                    required = _required(declarator)
                    if required is not None:
                        self._read_require(declarator, self.target_module(required))
                    else:
                        self.top.add(text_of(declarator.child_by_field_name("name")))

    def target_module(self, source: str) -> Path:
        if source.startswith("."):
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(self.rel), source))
            return module_path(joined)
        module = module_path(source)
        self.bare.add(module)
        return module

    def is_bare(self, container: Path | None) -> bool:
        """Whether a container was read from a non-relative specifier (a package or an alias)."""
        return container is not None and any(container[: len(m)] == m for m in self.bare)

    def _read_import(self, statement: Node) -> None:
        source = statement.child_by_field_name("source")
        raw = text_of(source)[1:-1] if source is not None else ""
        module = self.target_module(raw)
        clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
        for part in clause.named_children if clause is not None else []:
            if part.type == "identifier":
                if raw.lower().endswith(".vue"):
                    self.names[text_of(part)] = module
                    if module in self.bare and len(module) > 1:
                        self.bare.add(module[:-1])  # a component's container is its directory
                else:
                    self.names[text_of(part)] = (*module, text_of(part))
            elif part.type == "namespace_import":
                name = next((c for c in part.named_children if c.type == "identifier"), None)
                if name is not None:
                    self.namespaces[text_of(name)] = module
            elif part.type == "named_imports":
                for specifier in part.named_children:
                    if specifier.type == "import_specifier":
                        original = text_of(specifier.child_by_field_name("name"))
                        alias = specifier.child_by_field_name("alias")
                        self.names[text_of(alias) if alias is not None else original] = (*module, original)

    def _read_require(self, declarator: Node, module: Path) -> None:
        """CommonJS at top level: `const m = require('./m')` binds the module (a namespace),
        `const { a, b: c } = require('./m')` binds its members."""
        name = declarator.child_by_field_name("name")
        if name is not None and name.type == "identifier":
            self.namespaces[text_of(name)] = module
        elif name is not None and name.type == "object_pattern":
            for part in name.named_children:
                if part.type == "shorthand_property_identifier_pattern":
                    self.names[text_of(part)] = (*module, text_of(part))
                elif part.type == "pair_pattern":
                    key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
                    if key is not None and value is not None and value.type == "identifier":
                        self.names[text_of(value)] = (*module, text_of(key))

    # --- resolution ---------------------------------------------------------------------------

    def resolve(self, name: str) -> Path | None:
        """The container of a top-level name as this file sees it."""
        if name in self.names:
            return self.names[name][:-1]
        if name in self.top:
            return self.module
        return None

    def class_of(self, node: Node) -> tuple[Path | None, Node | None]:
        """The class (or Options API component) whose member function holds `node`."""
        function = nearest(
            node, ("method_definition", "function_expression", "arrow_function", "function_declaration")
        )
        current = function
        while current is not None and current.type == "arrow_function":  # `this` passes through arrows
            current = nearest(current, ("method_definition", "function_expression", "function_declaration"))
        if current is None or current.type != "method_definition":
            return None, None
        holder = current.parent
        if holder is not None and holder.type == "class_body" and holder.parent is not None:
            declaration = holder.parent
            return (*self.module, text_of(declaration.child_by_field_name("name"))), declaration
        if holder is not None and holder.type == "object" and self.component:
            return (*self.module[:-1], self.component), None
        return None, None

    def class_path(self, name: str) -> Path | None:
        if name in self.names:
            return self.names[name]
        if name in self.top_classes:
            return (*self.module, name)
        return None

    def heritage(self, declaration: Node) -> tuple[Path, ...]:
        found: list[Path] = []
        for clause in walk(declaration):
            if clause.type == "extends_clause":
                value = clause.child_by_field_name("value")
                if value is not None and value.type == "identifier":
                    path = self.class_path(text_of(value))
                    if path is not None:
                        found.append(path)
            elif clause.type in ("implements_clause", "extends_type_clause"):
                for named in clause.named_children:
                    target = named.child_by_field_name("name") if named.type == "generic_type" else named
                    path = self.class_path(text_of(target)) if target is not None else None
                    if path is not None:
                        found.append(path)
            if clause.type in ("class_body", "interface_body", "object_type"):
                break
        return tuple(found)

    def receiver(self, node: Node) -> tuple[Path | None, bool, bool]:
        """(class path, is the enclosing class, is a module namespace) of a member's object."""
        while node.type in ("parenthesized_expression", "non_null_expression") and node.named_child_count:
            node = node.named_children[0]
        if node.type == "this":
            path, _ = self.class_of(node)
            return path, path is not None, False
        if node.type == "super":
            _, declaration = self.class_of(node)
            parents = self.heritage(declaration) if declaration is not None else ()
            return (parents[0] if parents else None), False, False
        if node.type == "identifier":
            name = text_of(node)
            if name in self.namespaces:
                return self.namespaces[name], False, True
            local = self.variable_class(node, name)
            if local is not None:
                return local, False, False
            if self._bound_locally(node, name):
                return None, False, False
            return self.class_path(name), False, False
        if node.type == "new_expression":
            constructor = node.child_by_field_name("constructor")
            if constructor is not None and constructor.type == "identifier":
                return self.class_path(text_of(constructor)), False, False
        if node.type == "member_expression":
            base = node.child_by_field_name("object")
            if base is not None and base.type == "identifier" and text_of(base) in self.namespaces:
                return (
                    (*self.namespaces[text_of(base)], text_of(node.child_by_field_name("property"))),
                    False,
                    False,
                )
        return None, False, False

    def variable_class(self, node: Node, name: str) -> Path | None:
        """`const x = new C()` or a parameter/variable annotated `: C` in the same function."""
        function = nearest(node, FUNCTION_SCOPES)
        if function is None:
            return None
        found: set[Path | None] = set()
        for inner in self._declaring(function, name):
            if inner.type == "variable_declarator" and text_of(inner.child_by_field_name("name")) == name:
                value = inner.child_by_field_name("value")
                annotation = inner.child_by_field_name("type")
                if annotation is not None:
                    found.add(self.annotated(annotation))
                elif value is not None and value.type == "new_expression":
                    found.add(self.receiver(value)[0])
                else:
                    found.add(None)
            elif inner.type in ("required_parameter", "optional_parameter") and (
                text_of(inner.child_by_field_name("pattern")) == name
            ):
                annotation = inner.child_by_field_name("type")
                found.add(self.annotated(annotation) if annotation is not None else None)
        return found.pop() if len(found) == 1 else None

    def annotated(self, annotation: Node) -> Path | None:
        kind = annotation.named_children[0] if annotation.named_child_count else None
        if kind is not None and kind.type == "generic_type":  # `Subscriber<T>`
            kind = kind.child_by_field_name("name")
        if kind is not None and kind.type == "type_identifier":
            return self.class_path(text_of(kind))
        return None

    def _bound_locally(self, node: Node, name: str) -> bool:
        function = nearest(node, FUNCTION_SCOPES)
        if function is None:
            return False
        return any(
            inner.type == "variable_declarator" and text_of(inner.child_by_field_name("name")) == name
            for inner in self._declaring(function, name)
        )

    def _declaring(self, function: Node, name: str) -> list[Node]:
        """Declarators and parameters in `function` holding `name` (asked twice per receiver)."""
        key = (function.start_byte, function.end_byte, name)
        found = self._held.get(key)
        if found is None:
            found = self._held[key] = holding(
                self.tree.source, function, name, ("variable_declarator", *PARAMETERS)
            )
        return found

    # --- classification -----------------------------------------------------------------------

    def classes(self) -> list[Binding]:
        source, low, high = self.tree.source, self.root.start_byte, self.root.end_byte
        keywords = len(word_positions(source, "class", low, high)) + len(
            word_positions(source, "interface", low, high)
        )
        top = [
            declaration
            for statement in self.root.named_children
            for declaration in [
                statement.child_by_field_name("declaration")
                if statement.type == "export_statement"
                else statement
            ]
            if declaration is not None and declaration.type in CLASS_DECLARATIONS
        ]
        # Each declaration has its keyword: when every keyword is a top-level one, none is
        # nested and the query over the whole tree is not needed.
        nodes = top if len(top) == keywords else of_types(self.script, CLASS_DECLARATIONS)
        return [
            Binding((*self.module, text_of(node.child_by_field_name("name"))), self.heritage(node))
            for node in nodes
            if node.child_by_field_name("name") is not None
        ]

    def classify(self, node: Node, word: str) -> Occurrence:
        occurrence = self._classify(node, word)
        if self.bare and occurrence.role == USE and self.is_bare(occurrence.container):
            occurrence.bare_import = True
        return occurrence

    def _classify(self, node: Node, word: str) -> Occurrence:
        parent = node.parent
        start = node.start_byte
        if parent is None:
            return Occurrence(start, 0, 0, USE, "reference")
        found = self._declared(node, parent)
        if found is None:
            found = self._imported(node, parent, word)
        return found if found is not None else self._used(node, parent, word)

    def _declared(self, node: Node, parent: Node) -> Occurrence | None:
        """The name a class, function, method, property, enum member or variable declaration
        introduces, or None."""
        ptype = parent.type
        if ptype in DEFINITIONS and is_field(parent, "name", node):
            outer = nearest(parent, (*DEFINITIONS, *FUNCTION_SCOPES))
            return self.definition(
                DEFINITIONS[ptype], parent, self.container(parent) if outer else self.module
            )
        if ptype in FUNCTIONS and is_field(parent, "name", node):
            return self.definition("function", parent, self.module)
        if ptype in METHODS and is_field(parent, "name", node):
            owner = self.member_owner(parent)
            return self.definition("method", parent, owner)
        if ptype in ("public_field_definition", "field_definition", "property_signature") and (
            is_field(parent, "name", node) or is_field(parent, "property", node)
        ):
            return self.definition("property", parent, self.member_owner(parent))
        if ptype == "enum_body" or (ptype == "enum_assignment" and is_field(parent, "name", node)):
            enum = nearest(parent, ("enum_declaration",))
            owner = (*self.module, text_of(enum.child_by_field_name("name"))) if enum is not None else None
            return self.definition("constant", parent, owner)
        if ptype == "variable_declarator" and is_field(parent, "name", node):
            return self.declarator(parent, node)
        return None

    def _imported(self, node: Node, parent: Node, word: str) -> Occurrence | None:
        """A name an import, a `require` destructuring or an export names, or None."""
        ptype = parent.type
        start = node.start_byte
        if ptype == "import_specifier":
            return self.import_specifier(parent, node)
        if node.type == "shorthand_property_identifier_pattern" or ptype == "pair_pattern":
            required = self._required_module(parent)
            if required is not None:
                alias = parent.child_by_field_name("value") if ptype == "pair_pattern" else None
                if alias == node:
                    return Occurrence(start, 0, 0, USE, "import", None, alias=text_of(node))
                return Occurrence(
                    start, 0, 0, USE, "import", required, alias=text_of(alias) if alias is not None else ""
                )
        if ptype in ("import_clause", "namespace_import"):
            return Occurrence(start, 0, 0, USE, "import", self.resolve(word))
        if ptype == "export_specifier":
            # `export { X } from './x'` and `export { X }` of an imported X make X this module's:
            # a barrel file (`index.ts`) re-exporting it.
            statement = nearest(parent, ("export_statement",))
            source = statement.child_by_field_name("source") if statement is not None else None
            alias = parent.child_by_field_name("alias")
            exported = alias is None or text_of(alias) == word
            if source is not None:
                origin = self.target_module(text_of(source)[1:-1])
                return Occurrence(start, 0, 0, USE, "import", origin, exported=exported)
            return Occurrence(start, 0, 0, USE, "reference", self.resolve(word), exported=exported)
        return None

    def _used(self, node: Node, parent: Node, word: str) -> Occurrence:
        """Any other use: a member, an object key, a JSX tag, `new`, a heritage clause, a type,
        a parameter, a call or a decorator, else a reference."""
        ptype = parent.type
        start = node.start_byte
        if ptype == "member_expression" and is_field(parent, "property", node):
            target, own, is_module = self.receiver(parent.child_by_field_name("object"))
            kind = "call" if self._called(parent) else "reference"
            return Occurrence(
                start, 0, 0, USE, kind, target, member=not is_module, qualified=is_module, via_self=own
            )
        if ptype == "pair" and is_field(parent, "key", node):
            return Occurrence(start, 0, 0, USE, "reference", None, member=True)
        if ptype == "jsx_attribute" and parent.named_children and parent.named_children[0] == node:
            return Occurrence(start, 0, 0, OTHER)  # a prop's name, as a keyword argument's
        if ptype == "jsx_closing_element":
            return Occurrence(start, 0, 0, OTHER)
        if ptype in ("jsx_opening_element", "jsx_self_closing_element"):
            return Occurrence(start, 0, 0, USE, "tag", self.resolve(word))
        if ptype == "new_expression" and is_field(parent, "constructor", node):
            return Occurrence(start, 0, 0, USE, "new", self.resolve(word))
        if ptype == "extends_clause" or ptype == "class_heritage":
            return Occurrence(start, 0, 0, USE, "extends", self.resolve(word))
        if ptype == "implements_clause":
            return Occurrence(start, 0, 0, USE, "implements", self.resolve(word))
        if ptype == "extends_type_clause":
            return Occurrence(start, 0, 0, USE, "extends", self.resolve(word))
        if node.type == "type_identifier" or ptype in TYPE_PARENTS:
            return Occurrence(start, 0, 0, USE, "type", self.resolve(word))
        binding = self.parameter(node)
        if binding is not None:
            return binding
        if ptype == "call_expression" and is_field(parent, "function", node):
            return Occurrence(start, 0, 0, USE, "call", self.resolve(word))
        if ptype == "decorator":
            return Occurrence(start, 0, 0, USE, "call", self.resolve(word))
        return Occurrence(start, 0, 0, USE, "reference", self.resolve(word))

    def _required_module(self, pattern: Node) -> Path | None:
        """The module a destructuring `{ a, b: c } = require('./m')` at top level reads, or None."""
        holder = pattern if pattern.type == "object_pattern" else pattern.parent
        declarator = holder.parent if holder is not None else None
        if declarator is None or declarator.type != "variable_declarator":
            return None
        required = _required(declarator)
        return self.target_module(required) if required is not None else None

    def _called(self, member: Node) -> bool:
        parent = member.parent
        return (
            parent is not None and parent.type == "call_expression" and is_field(parent, "function", member)
        )

    def member_owner(self, member: Node) -> Path | None:
        holder = member.parent
        if holder is not None and holder.type in ("class_body", "interface_body", "object_type"):
            declaration = holder.parent
            if declaration is not None and declaration.child_by_field_name("name") is not None:
                return (*self.module, text_of(declaration.child_by_field_name("name")))
        if holder is not None and holder.type == "object" and self.component:
            return (*self.module[:-1], self.component)
        return None

    def container(self, declaration: Node) -> Path:
        outer = nearest(declaration, tuple(DEFINITIONS))
        if outer is not None and outer.child_by_field_name("name") is not None:
            return (*self.module, text_of(outer.child_by_field_name("name")))
        return self.module

    def declarator(self, declarator: Node, node: Node) -> Occurrence:
        scope = nearest(declarator, BLOCK_SCOPES)
        if scope is not None and scope.type != "class_body":
            return self.local(node, scope)
        value = declarator.child_by_field_name("value")
        statement = declarator.parent
        kind = "variable"
        if value is not None and value.type in (
            "arrow_function",
            "function_expression",
            "function",
            "generator_function",
        ):
            kind = "function"
        elif statement is not None and statement.child_count and text_of(statement.children[0]) == "const":
            kind = "constant"
        outer = statement if statement is not None else declarator
        if outer.parent is not None and outer.parent.type == "export_statement":
            outer = outer.parent
        return Occurrence(declarator.start_byte, 0, 0, DEFINITION, kind, self.module, decl=span(outer))

    def import_specifier(self, specifier: Node, node: Node) -> Occurrence:
        statement = nearest(specifier, ("import_statement",))
        source = statement.child_by_field_name("source") if statement is not None else None
        module = self.target_module(text_of(source)[1:-1]) if source is not None else None
        alias = specifier.child_by_field_name("alias")
        if alias is not None and alias == node:
            return Occurrence(node.start_byte, 0, 0, USE, "import", None, alias=text_of(node))
        return Occurrence(
            node.start_byte, 0, 0, USE, "import", module, alias=text_of(alias) if alias is not None else ""
        )

    def parameter(self, node: Node) -> Occurrence | None:
        parent = node.parent
        if parent is None:
            return None
        if parent.type in ("required_parameter", "optional_parameter") and is_field(parent, "pattern", node):
            return self.local(node, nearest(parent, FUNCTION_SCOPES))
        if parent.type == "formal_parameters":
            return self.local(node, parent.parent)
        if parent.type == "arrow_function" and is_field(parent, "parameter", node):
            return self.local(node, parent)
        if parent.type == "catch_clause" and is_field(parent, "parameter", node):
            return self.local(node, parent)
        return None

    def local(self, node: Node, scope: Node | None) -> Occurrence:
        return Occurrence(node.start_byte, 0, 0, LOCAL, scope=span(scope) if scope is not None else None)

    def definition(self, kind: str, decl: Node, container: Path | None) -> Occurrence:
        outer = decl.parent if decl.parent is not None and decl.parent.type == "export_statement" else decl
        return Occurrence(decl.start_byte, 0, 0, DEFINITION, kind, container, decl=span(outer))
