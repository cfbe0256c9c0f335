"""Python occurrences: imports (with `as`), classes and their bases, `self.`/`cls.`/`super().`
receivers, module aliases, variables assigned a class instance in the same function, and locals
(parameters, assignments) that shadow the name."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from sofia.syntax.python import definitions
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.model import DEFINITION, LOCAL, OTHER, USE, Binding, Occurrence, Path, Syntax
from sofia.syntax.uses.nodes import holding, is_field, nearest, span, word_positions
from sofia.syntax.uses.scan import Base

SCOPES = ("function_definition", "lambda")
PARAMETERS = frozenset(
    {
        "parameters",
        "lambda_parameters",
        "typed_parameter",
        "default_parameter",
        "typed_default_parameter",
        "list_splat_pattern",
        "dictionary_splat_pattern",
    }
)
TARGETS = frozenset({"pattern_list", "tuple_pattern", "list_pattern", "as_pattern_target"})


def _class_nodes(parent: Node) -> list[Node]:
    """Classes where the symbol layer finds them: statements of the module and of every class
    and function body, through compound statements."""
    found: list[Node] = []
    for node, _ in definitions(parent):
        if node.type == "class_definition":
            found.append(node)
        body = node.child_by_field_name("body")
        if body is not None:
            found.extend(_class_nodes(body))
    return found


def module_path(rel: str) -> Path:
    """`pkg/models.py` -> ("pkg", "models"); a package's `__init__.py` is the package itself."""
    pure = PurePosixPath(rel)
    parts = [*pure.parent.parts, pure.stem]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return tuple(p for p in parts if p not in ("", "."))


def package_of(rel: str) -> Path:
    """The package a file's relative imports start from: a package's `__init__.py` is its own."""
    module = module_path(rel)
    return module if PurePosixPath(rel).stem == "__init__" else module[:-1]


def resolve_module(package: Path, text: str) -> Path:
    """A module name as written in an import (`.models`, `..api.doc`, `rich.text`) as a path,
    relative ones from `package`."""
    dots = len(text) - len(text.lstrip("."))
    rest = tuple(p for p in text.lstrip(".").split(".") if p)
    if not dots:
        return rest
    up = dots - 1
    return (package[: len(package) - up] if len(package) >= up else ()) + rest


def star_sources(root: Node) -> list[str]:
    """The modules a file passes on whole at module level (`from .models import *`), as written."""
    found: list[str] = []
    for statement in root.named_children:
        if statement.type == "import_from_statement" and any(
            child.type == "wildcard_import" for child in statement.named_children
        ):
            found.append(text_of(statement.child_by_field_name("module_name")))
    return found


@dataclass(frozen=True)
class Imported:
    """What an import binds a local name to: `from m import x` gives (m..., x), which may be a
    module, a class or a function; `import a.b as m` gives the module (a, b)."""

    path: Path
    from_import: bool


@dataclass
class Scope:
    """The imports of one function or class body, visible in its byte range."""

    low: int
    high: int
    bound: dict[str, Imported] = field(default_factory=dict)


IMPORTS = ("import_statement", "import_from_statement")
BODIES = ("function_definition", "class_definition")


class Analyzer(Base):
    def __init__(self, tree: Syntax, rel: str) -> None:
        self.tree = tree
        self.root = tree.trees[0].root_node
        self.module = module_path(rel)
        self.package = package_of(rel)
        self.bound: dict[str, Imported] = {}
        """Names the module's own imports bind (at top level or in `if`/`try` blocks there)."""
        self.scopes: list[Scope] = []
        """Imports inside function and class bodies, innermost scope first."""
        self.classes_here: dict[str, Node] = {}
        self._local_definitions: dict[tuple[int, str], Path | None] = {}
        self._defined: dict[str, bool] = {}
        self._may_nest: dict[str, bool] = {}
        for statement in self._imports():
            body = nearest(statement, BODIES)
            if body is None:
                self._read(statement, self.bound)
                continue
            scope = next((s for s in self.scopes if (s.low, s.high) == span(body)), None)
            if scope is None:
                scope = Scope(*span(body))
                self.scopes.append(scope)
            self._read(statement, scope.bound)
        self.scopes.sort(key=lambda s: s.high - s.low)
        for node in self.root.named_children:
            if node.type in ("class_definition", "decorated_definition"):
                inner = (
                    node.child_by_field_name("definition") if node.type == "decorated_definition" else node
                )
                if inner is not None and inner.type == "class_definition":
                    self.classes_here[text_of(inner.child_by_field_name("name"))] = inner

    def _imports(self) -> list[Node]:
        """Every import statement, at any depth: found from the `import` keyword's occurrences
        (a few per file) instead of a walk of the tree."""
        found: dict[int, Node] = {}
        for start in word_positions(self.tree.source, "import"):
            node = self.root.descendant_for_byte_range(start, start + len("import"))
            statement = node.parent if node is not None else None
            if statement is not None and statement.type in IMPORTS:
                found.setdefault(statement.start_byte, statement)
        return [found[key] for key in sorted(found)]

    def _read(self, statement: Node, into: dict[str, Imported]) -> None:
        if statement.type == "import_from_statement":
            module = self._module_of(text_of(statement.child_by_field_name("module_name")))
            for item in statement.children_by_field_name("name"):
                original, local = item, item
                if item.type == "aliased_import":
                    original, local = item.child_by_field_name("name"), item.child_by_field_name("alias")
                into[text_of(local)] = Imported((*module, text_of(original)), True)
            return
        for item in statement.named_children:
            if item.type == "aliased_import":
                path = tuple(text_of(item.child_by_field_name("name")).split("."))
                into[text_of(item.child_by_field_name("alias"))] = Imported(path, False)
            elif item.type == "dotted_name":
                path = tuple(text_of(item).split("."))
                into[path[0]] = Imported(path[:1], False)

    def imported(self, name: str, start: int) -> Imported | None:
        """What an import in force at byte `start` binds `name` to: the innermost function or
        class body's own imports first, then the module's."""
        for scope in self.scopes:
            if scope.low <= start < scope.high and name in scope.bound:
                return scope.bound[name]
        return self.bound.get(name)

    def _module_of(self, text: str) -> Path:
        """An absolute or relative module name as a path (relative ones from this file's package)."""
        return resolve_module(self.package, text)

    # --- resolution ---------------------------------------------------------------------------

    def resolve_name(self, name: str, node: Node) -> Path | None:
        """Where a bare name comes from: a function or class defined in an enclosing function,
        an import in force where it is written, or this module."""
        nested = self._nested(name, node)
        if nested is not None:
            return nested
        bound = self.imported(name, node.start_byte)
        if bound is not None and bound.from_import:
            return bound.path[:-1]
        if name in self.classes_here or self._defined_here(name):
            return self.module
        return None

    def _nested(self, name: str, node: Node) -> Path | None:
        """The container of a `def name`/`class name` in a function enclosing `node` (a local
        binding there), as its definition gives it."""
        if not self._may_define(name):
            return None
        function = nearest(node, ("function_definition",))
        while function is not None:
            key = (function.start_byte, name)
            if key not in self._local_definitions:
                self._local_definitions[key] = next(
                    (
                        self.container_of(inner)
                        for inner in holding(self.tree.source, function, name, BODIES)
                        if inner != function
                        and text_of(inner.child_by_field_name("name")) == name
                        and nearest(inner, BODIES) == function
                    ),
                    None,
                )
            found = self._local_definitions[key]
            if found is not None:
                return found
            function = nearest(function, ("function_definition",))
        return None

    def _may_define(self, name: str) -> bool:
        """Whether the source has `def name` or `class name` anywhere (once per name: most names
        an occurrence resolves, `self` and `i` above all, are defined by no nested body)."""
        if name not in self._may_nest:
            spelled = re.escape(name.encode("utf-8"))
            self._may_nest[name] = re.search(rb"(?:def|class)[\s\\]+" + spelled, self.tree.source) is not None
        return self._may_nest[name]

    def _defined_here(self, name: str) -> bool:
        """Whether the module defines `name` at its top level (once per name, not per occurrence)."""
        if name not in self._defined:
            self._defined[name] = self._defines(name)
        return self._defined[name]

    def _defines(self, name: str) -> bool:
        for node in self.root.named_children:
            inner = node.child_by_field_name("definition") if node.type == "decorated_definition" else node
            if (
                inner is not None
                and inner.type in ("function_definition", "class_definition")
                and text_of(inner.child_by_field_name("name")) == name
            ):
                return True
            if node.type == "expression_statement" and node.named_child_count:
                first = node.named_children[0]
                if first.type == "assignment" and text_of(first.child_by_field_name("left")) == name:
                    return True
        return False

    def class_of(self, node: Node) -> tuple[Path | None, Node | None]:
        """The class whose method holds `node` (directly: not through a nested function)."""
        function = nearest(node, ("function_definition",))
        holder = function.parent if function is not None else None
        if holder is not None and holder.type == "block":
            declaration = holder.parent
            if declaration is not None and declaration.type == "class_definition":
                return self.class_path(declaration), declaration
        return None, None

    def class_path(self, declaration: Node) -> Path:
        names = [text_of(declaration.child_by_field_name("name"))]
        outer = nearest(declaration, ("class_definition",))
        while outer is not None:
            names.insert(0, text_of(outer.child_by_field_name("name")))
            outer = nearest(outer, ("class_definition",))
        return (*self.module, *names)

    def bases(self, declaration: Node) -> tuple[Path, ...]:
        found: list[Path] = []
        arguments = declaration.child_by_field_name("superclasses")
        for base in arguments.named_children if arguments is not None else []:
            path = self.class_reference(base)
            if path is not None:
                found.append(path)
        return tuple(found)

    def class_reference(self, node: Node) -> Path | None:
        """The path of a class named by an expression (`Repo`, `models.Repo`, `pkg.models.Repo`),
        if it can be told."""
        if node.type == "identifier":
            name = text_of(node)
            bound = self.imported(name, node.start_byte)
            if bound is not None and bound.from_import:
                return bound.path
            if name in self.classes_here:
                return self.class_path(self.classes_here[name])
            return None
        if node.type == "attribute":
            return self.dotted(node)
        return None

    def dotted(self, node: Node) -> Path | None:
        """`a.b.c` whose first name is an import, as the path it names (a module, or a class or
        function reached through one), or None."""
        names: list[str] = []
        while node.type == "attribute":
            attribute = node.child_by_field_name("attribute")
            base = node.child_by_field_name("object")
            if attribute is None or base is None:
                return None
            names.insert(0, text_of(attribute))
            node = base
        if node.type != "identifier":
            return None
        bound = self.imported(text_of(node), node.start_byte)
        return (*bound.path, *names) if bound is not None else None

    def receiver(self, node: Node) -> tuple[Path | None, bool, bool]:
        """(class path, is the enclosing class itself, is a module) of an attribute's object. A
        module bound by `import` is a module; a name bound by `from m import x` and a path
        reached through a module (`pkg.models.Repo`) may be a module or a class, and is given
        as a class path: the definitions it holds are found by that path either way."""
        if node.type == "identifier":
            name = text_of(node)
            if name in ("self", "cls"):
                path, _ = self.class_of(node)
                return path, path is not None, False
            bound = self.imported(name, node.start_byte)
            if bound is not None and not bound.from_import:
                return bound.path, False, True
            reference = self.class_reference(node)
            if reference is not None:
                return reference, False, False
            return self.variable_class(node, name), False, False
        if node.type == "call":
            function = node.child_by_field_name("function")
            if function is not None and function.type == "identifier" and text_of(function) == "super":
                _, declaration = self.class_of(node)
                bases = self.bases(declaration) if declaration is not None else ()
                return (bases[0] if len(bases) == 1 else None), False, False
            if function is not None:
                return self.class_reference(function), False, False
        if node.type == "attribute":
            return self.dotted(node), False, False
        return None, False, False

    def variable_class(self, node: Node, name: str) -> Path | None:
        """A local assigned `Class(...)` (one class only) in the same function."""
        function = nearest(node, SCOPES)
        if function is None:
            return None
        found: set[Path | None] = set()
        for inner in holding(self.tree.source, function, name, ("assignment",)):
            if inner.type == "assignment" and text_of(inner.child_by_field_name("left")) == name:
                right = inner.child_by_field_name("right")
                function_node = (
                    right.child_by_field_name("function")
                    if right is not None and right.type == "call"
                    else None
                )
                found.add(self.class_reference(function_node) if function_node is not None else None)
        return found.pop() if len(found) == 1 else None

    # --- classification -----------------------------------------------------------------------

    def classes(self) -> list[Binding]:
        return [Binding(self.class_path(node), self.bases(node)) for node in _class_nodes(self.root)]

    def classify(self, node: Node, word: str) -> Occurrence:
        parent = node.parent
        start = node.start_byte
        if parent is None:
            return Occurrence(start, 0, 0, USE, "reference")
        ptype = parent.type
        if ptype == "class_definition" and is_field(parent, "name", node):
            return self.definition("class", parent, self.container_of(parent))
        if ptype == "function_definition" and is_field(parent, "name", node):
            owner, _ = self.class_of(node) if self._is_method(parent) else (None, None)
            kind = "method" if owner is not None else "function"
            return self.definition(kind, parent, owner if owner is not None else self.container_of(parent))
        if ptype == "attribute" and is_field(parent, "attribute", node):
            target, own, is_module = self.receiver(parent.child_by_field_name("object"))
            kind = self.call_kind(parent)
            if self._assigned(parent):
                kind = "reference"
            return Occurrence(
                start, 0, 0, USE, kind, target, member=not is_module, qualified=is_module, via_self=own
            )
        if ptype in ("dotted_name", "aliased_import") or ptype.startswith("import"):
            return self.import_use(node)
        binding = self.binding(node)
        if binding is not None:
            return binding
        if self._in_type(node):
            return Occurrence(start, 0, 0, USE, "type", self.resolve_name(word, node))
        if (
            ptype == "argument_list"
            and parent.parent is not None
            and parent.parent.type == "class_definition"
        ):
            return Occurrence(start, 0, 0, USE, "extends", self.resolve_name(word, node))
        if ptype == "keyword_argument" and is_field(parent, "name", node):
            return Occurrence(start, 0, 0, OTHER)  # a parameter's name, not the symbol
        kind = (
            "call"
            if ptype in ("call", "decorator") and (ptype == "decorator" or is_field(parent, "function", node))
            else "reference"
        )
        return Occurrence(start, 0, 0, USE, kind, self.resolve_name(word, node))

    def _is_method(self, function: Node) -> bool:
        holder = function.parent
        if holder is not None and holder.type == "decorated_definition":
            holder = holder.parent
        return (
            holder is not None
            and holder.type == "block"
            and holder.parent is not None
            and holder.parent.type == "class_definition"
        )

    def container_of(self, declaration: Node) -> Path:
        outer = nearest(declaration, ("class_definition", "function_definition"))
        if outer is None:
            return self.module
        if outer.type == "class_definition":
            return self.class_path(outer)
        return (*self.module, text_of(outer.child_by_field_name("name")))

    def call_kind(self, attribute: Node) -> str:
        parent = attribute.parent
        if parent is not None and parent.type == "call" and is_field(parent, "function", attribute):
            return "call"
        if parent is not None and parent.type == "decorator":
            return "call"
        return "reference"

    def _assigned(self, node: Node) -> bool:
        parent = node.parent
        return parent is not None and parent.type == "assignment" and is_field(parent, "left", node)

    def import_use(self, node: Node) -> Occurrence:
        """A name in an import statement. A module's path (`from rich.measure import ...`,
        `import rich.measure`) names a module, never a class or function: not a use. A
        module-level `from m import X` makes X this module's too (`pkg/__init__.py` re-exporting
        `from ._client import Client`): the occurrence says so (`exported`)."""
        statement = nearest(node, ("import_from_statement", "import_statement"))
        start = node.start_byte
        if statement is None:
            return Occurrence(start, 0, 0, USE, "import")
        if statement.type == "import_statement":
            return Occurrence(start, 0, 0, OTHER)
        module = statement.child_by_field_name("module_name")
        if module is not None and module.start_byte <= start < module.end_byte:
            return Occurrence(start, 0, 0, OTHER)
        aliased = nearest(node, ("aliased_import",))
        alias = ""
        if aliased is not None:
            alias_node = aliased.child_by_field_name("alias")
            if alias_node == node:
                return Occurrence(start, 0, 0, USE, "import", None, alias=text_of(node))
            alias = text_of(alias_node)
        exported = (not alias or alias == text_of(node)) and nearest(statement, BODIES) is None
        return Occurrence(
            start,
            0,
            0,
            USE,
            "import",
            self._module_of(text_of(module)),
            alias="" if alias == text_of(node) else alias,
            exported=exported,
        )

    def binding(self, node: Node) -> Occurrence | None:
        """An assignment target or parameter: a definition at module and class level, else a local."""
        parent = node.parent
        assert parent is not None
        target = False
        if (
            (parent.type in ("assignment", "augmented_assignment") and is_field(parent, "left", node))
            or parent.type in TARGETS
            or (parent.type == "for_statement" and is_field(parent, "left", node))
        ):
            target = True
        elif parent.type in PARAMETERS and (
            parent.type != "default_parameter" or is_field(parent, "name", node)
        ):
            if (
                parent.type == "typed_parameter"
                and parent.named_children
                and parent.named_children[0] != node
            ):
                return None
            if parent.type == "typed_default_parameter" and not is_field(parent, "name", node):
                return None
            scope = nearest(node, SCOPES)
            return Occurrence(node.start_byte, 0, 0, LOCAL, scope=span(scope) if scope is not None else None)
        if not target:
            return None
        scope = nearest(node, ("function_definition", "lambda", "class_definition"))
        if scope is None or scope.type == "class_definition":
            kind = "property" if scope is not None else "variable"
            container = self.class_path(scope) if scope is not None else self.module
            statement = parent.parent if parent.parent is not None else parent
            return self.definition(kind, statement, container)
        if self._declared_global(scope, text_of(node)):
            return self.definition("variable", parent, self.module)
        return Occurrence(node.start_byte, 0, 0, LOCAL, scope=span(scope))

    def _declared_global(self, function: Node, name: str) -> bool:
        for inner in holding(self.tree.source, function, name, ("global_statement", "nonlocal_statement")):
            if inner.type in ("global_statement", "nonlocal_statement") and any(
                text_of(child) == name for child in inner.named_children
            ):
                return True
        return False

    def _in_type(self, node: Node) -> bool:
        parent = node.parent
        while parent is not None and parent.type in (
            "type",
            "generic_type",
            "type_parameter",
            "union_type",
            "subscript",
            "attribute",
            "binary_operator",
        ):
            if parent.type == "type":
                return True
            parent = parent.parent
        return False

    def definition(self, kind: str, decl: Node, container: Path | None) -> Occurrence:
        outer = (
            decl.parent if decl.parent is not None and decl.parent.type == "decorated_definition" else decl
        )
        return Occurrence(decl.start_byte, 0, 0, DEFINITION, kind, container, decl=span(outer))
