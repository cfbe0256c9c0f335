"""JS/TS modules as the route resolver sees them: top-level bindings, imports and exports, and
import specifiers resolved to files (relative, or through the project's path aliases, read by
`sofia.syntax.aliases`), parsed with tree-sitter.

Never reads outside the root, follows at most MAX_MODULES modules, and cuts import cycles.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sofia.output.notes import Place
from sofia.providers.vue.misses import Misses
from sofia.runtime.paths import under
from sofia.syntax.aliases import project_aliases

MAX_MODULES = 200
EXTENSIONS = (".ts", ".js", ".mts", ".mjs", ".tsx", ".jsx")
COMPONENT_EXTENSIONS = (*EXTENSIONS, ".vue")
"""Component specifiers may also leave out `.vue` (vue-cli and Vite apps commonly resolve it)."""
GRAMMAR_BY_SUFFIX = {".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript"}
WRAPPERS = frozenset(
    {
        "as_expression",
        "satisfies_expression",
        "parenthesized_expression",
        "non_null_expression",
        "type_assertion",
    }
)
"""Expressions that only say something about the type of the one inside: `x as T`, `x satisfies T`,
`(x)`, `x!` and TypeScript's older assertion `<T>x`."""


def text(node: Any) -> str:
    return str(node.text.decode("utf-8", "replace"))


def collapse(source: str) -> str:
    """Source text on one line with runs of whitespace collapsed."""
    return re.sub(r"\s+", " ", source).strip()


def unwrap(node: Any) -> Any:
    """The expression inside `as`, `satisfies`, parentheses, `!` and `<T>` (see WRAPPERS); None when
    a wrapper holds none (a tree with errors)."""
    while node is not None and node.type in WRAPPERS:
        node = next((c for c in node.named_children if c.type not in ("type_arguments", "comment")), None)
    return node


def string_value(node: Any) -> str | None:
    """The value of a string literal or a template literal without substitutions, else None."""
    if node is None:
        return None
    if node.type == "string":
        return "".join(text(c) if c.type == "string_fragment" else _escape(c) for c in node.named_children)
    if node.type == "template_string":
        if any(c.type == "template_substitution" for c in node.named_children):
            return None
        return text(node)[1:-1]
    return None


def _escape(node: Any) -> str:
    raw = text(node)
    if node.type == "escape_sequence" and len(raw) == 2:
        return {"n": "\n", "t": "\t"}.get(raw[1], raw[1])
    return raw


@dataclass
class Import:
    specifier: str
    name: str  # "default", "*" or the exported name


@dataclass
class Module:
    """One parsed module and its top-level names."""

    path: Path
    rel: str
    source: bytes
    root_node: Any
    bindings: dict[str, Any] = field(default_factory=dict)  # name -> value expression (or declaration)
    imports: dict[str, Import] = field(default_factory=dict)  # local name -> where it comes from
    exports: dict[str, Any] = field(default_factory=dict)  # exported name -> local name (str) or value node
    reexports: dict[str, Import] = field(default_factory=dict)  # exported name -> re-exported binding
    star_reexports: list[str] = field(default_factory=list)
    default_export: Any = None

    def line(self, node: Any) -> int:
        return int(node.start_point.row) + 1


def _index(module: Module) -> None:
    for statement in module.root_node.named_children:
        kind = statement.type
        if kind == "import_statement":
            _index_import(module, statement)
        elif kind in ("lexical_declaration", "variable_declaration"):
            _index_declaration(module, statement)
        elif kind in ("function_declaration", "class_declaration", "generator_function_declaration"):
            name = statement.child_by_field_name("name")
            if name is not None:
                module.bindings[text(name)] = statement
        elif kind == "export_statement":
            _index_export(module, statement)


def _index_import(module: Module, statement: Any) -> None:
    source = string_value(statement.child_by_field_name("source"))
    if source is None:
        return
    for clause in statement.named_children:
        if clause.type != "import_clause":
            continue
        for part in clause.named_children:
            if part.type == "identifier":
                module.imports[text(part)] = Import(source, "default")
            elif part.type == "namespace_import":
                names = [c for c in part.named_children if c.type == "identifier"]
                if names:
                    module.imports[text(names[0])] = Import(source, "*")
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias")
                    if name is not None:
                        module.imports[text(alias if alias is not None else name)] = Import(
                            source, text(name)
                        )


def _index_declaration(module: Module, statement: Any) -> list[str]:
    names = []
    for declarator in statement.named_children:
        if declarator.type != "variable_declarator":
            continue
        name = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if name is not None and name.type == "identifier":
            module.bindings[text(name)] = value
            names.append(text(name))
    return names


def _index_export(module: Module, statement: Any) -> None:
    declaration = statement.child_by_field_name("declaration")
    value = statement.child_by_field_name("value")
    source = string_value(statement.child_by_field_name("source"))
    is_default = any(child.type == "default" for child in statement.children)
    if declaration is not None:
        if declaration.type in ("lexical_declaration", "variable_declaration"):
            for name in _index_declaration(module, declaration):
                module.exports[name] = name
        else:
            name_node = declaration.child_by_field_name("name")
            if name_node is not None:
                module.bindings[text(name_node)] = declaration
                module.exports[text(name_node)] = text(name_node)
                if is_default:
                    module.default_export = declaration
            elif is_default:
                module.default_export = declaration
        return
    if is_default and value is not None:
        module.default_export = value
        return
    clause = next((c for c in statement.named_children if c.type == "export_clause"), None)
    if clause is None:
        if source is not None:
            module.star_reexports.append(source)
        return
    for spec in clause.named_children:
        if spec.type != "export_specifier":
            continue
        name = spec.child_by_field_name("name")
        alias = spec.child_by_field_name("alias")
        if name is None:
            continue
        exported = text(alias if alias is not None else name)
        if source is not None:
            module.reexports[exported] = Import(source, text(name))
        else:
            module.exports[exported] = text(name)


class ModuleLoader:
    """Parses modules on demand, each once, within the root and the module limit."""

    def __init__(self, root: Path, shown_root: str = ".") -> None:
        self.root = root
        self.shown_root = shown_root
        """The root as paths are printed: relative to the workspace (`.` when it is the workspace)."""
        self.aliases = project_aliases(root)
        """The path aliases of the project at `root` (`sofia.syntax.aliases`, the reader refs uses)."""
        self.modules: dict[Path, Module | None] = {}
        self.order: list[str] = []
        self.misses = Misses()

    def rel(self, path: Path) -> str:
        """`path` as every tool prints it: relative to the workspace."""
        return under(self.shown_root, os.path.relpath(path, self.root).replace(os.sep, "/"))

    def inside(self, path: Path) -> bool:
        try:
            path.resolve().relative_to(self.root.resolve())
        except ValueError:
            return False
        return True

    def load(self, path: Path) -> Module | None:
        path = path.resolve()
        if path in self.modules:
            return self.modules[path]
        if not self.inside(path):
            self.misses.add("modules", "outside the root", Place(self.rel(path)))
            self.modules[path] = None
            return None
        if len(self.order) >= MAX_MODULES:
            self.misses.add("modules", f"over the limit of {MAX_MODULES} modules", Place(self.rel(path)))
            return None
        from sofia.runtime import files
        from sofia.syntax.grammars import ParseUnavailable, count_errors, parse_bytes

        try:
            source = files.read_regular(path)
            grammar = GRAMMAR_BY_SUFFIX.get(
                path.suffix.lower(), "tsx" if path.suffix == ".tsx" else "typescript"
            )
            tree = parse_bytes(source, grammar)
        except (OSError, ParseUnavailable) as exc:
            self.misses.add("modules", "unreadable", Place(self.rel(path), 0, str(exc)))
            self.modules[path] = None
            return None
        module = Module(path, self.rel(path), source, tree.root_node)
        _index(module)
        self.modules[path] = module
        self.order.append(module.rel)
        if count_errors(tree.root_node):
            module_errors = first_error_line(tree.root_node)
            self.misses.add("syntax errors", "outside the routes, ignored", Place(module.rel, module_errors))
        return module

    def resolve(self, importer: Module, specifier: str, component: bool = False) -> Path | None:
        """The file an import specifier names, or None (package imports, missing files)."""
        extensions = COMPONENT_EXTENSIONS if component else EXTENSIONS
        if specifier.startswith("."):
            return self._existing(importer.path.parent / specifier, extensions)
        for target in self.aliases.targets(specifier):
            candidate = self._existing(target, extensions)
            if candidate is not None:
                return candidate
        return None

    def _existing(self, base: Path, extensions: tuple[str, ...]) -> Path | None:
        if base.is_file():
            return base
        for ext in extensions:
            candidate = base.with_name(base.name + ext)
            if candidate.is_file():
                return candidate
        for ext in extensions:
            candidate = base / f"index{ext}"
            if candidate.is_file():
                return candidate
        return None


def first_error_line(node: Any) -> int:
    """The line of the first ERROR or MISSING node under `node`."""
    if node.is_error or node.is_missing:
        return int(node.start_point.row) + 1
    for child in node.children:
        if child.has_error or child.is_missing:
            return first_error_line(child)
    return int(node.start_point.row) + 1
