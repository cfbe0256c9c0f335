"""Walking a vue-router routes array: spreads across modules, nested children, and each route's
path, name, component, meta, redirect and alias rendered as flat strings (spec tools-code §4.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sofia.output.tables import cut
from sofia.providers.contract import ProviderError

from .modules import Loader, Module, collapse, first_error_line, string_value, text, unwrap

FUNCTIONS = ("arrow_function", "function_expression", "function", "function_declaration")


@dataclass(frozen=True)
class Value:
    """An expression and the module it belongs to (imports resolve relative to that module)."""

    module: Module
    node: Any


def join_path(parent: str, child: str) -> str:
    """The full path of a child route under `parent` (vue-router's rules)."""
    if child.startswith("/"):
        return child
    if child == "":
        return parent or "/"
    if parent in ("", "/"):
        return "/" + child
    return parent.rstrip("/") + "/" + child


class RouteWalker:
    """Flattens route arrays into rows, following identifiers and imports through the loader."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader
        self.rows: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self._resolving: set[tuple[str, str]] = set()

    # --- resolving names to values -------------------------------------------------------------
    def identifier(self, module: Module, name: str) -> Value | None:
        """The value a top-level name stands for, following imports and re-exports."""
        key = (str(module.path), name)
        if key in self._resolving:
            self.notes.append(f"import cycle cut at {module.rel}: {name}")
            return None
        self._resolving.add(key)
        try:
            if name in module.bindings:
                value = module.bindings[name]
                return Value(module, unwrap(value)) if value is not None else None
            if name in module.imports:
                spec = module.imports[name]
                return self.exported(module, spec.specifier, spec.name)
            return None
        finally:
            self._resolving.discard(key)

    def exported(self, importer: Module, specifier: str, name: str) -> Value | None:
        path = self.loader.resolve(importer, specifier)
        if path is None:
            return None
        target = self.loader.load(path)
        if target is None:
            return None
        return self.export_of(target, name)

    def export_of(self, module: Module, name: str) -> Value | None:
        if name == "default":
            node = unwrap(module.default_export)
            if node is None:
                return None
            if node.type == "identifier":
                return self.identifier(module, text(node))
            return Value(module, node)
        if name in module.exports:
            local = module.exports[name]
            return self.identifier(module, local)
        if name in module.reexports:
            spec = module.reexports[name]
            return self.exported(module, spec.specifier, spec.name)
        for specifier in module.star_reexports:
            found = self.exported(module, specifier, name)
            if found is not None:
                return found
        return None

    def resolve(self, value: Value) -> Value | None:
        """Follow an identifier to its value; other expressions are their own value."""
        node = unwrap(value.node)
        if node is not None and node.type in ("identifier", "shorthand_property_identifier"):
            return self.identifier(value.module, text(node))
        return Value(value.module, node) if node is not None else None

    # --- the routes array -------------------------------------------------------------------------
    def walk_array(self, array: Value, parent_path: str, depth: int) -> None:
        self._fail_on_error(array)
        for element in array.node.named_children:
            if element.type == "comment":
                continue
            if element.type == "object":
                self.route(Value(array.module, element), parent_path, depth)
            elif element.type == "spread_element":
                inner = element.named_children[0] if element.named_children else None
                target = self.resolve(Value(array.module, inner)) if inner is not None else None
                if target is not None and target.node.type == "array":
                    self.walk_array(target, parent_path, depth)
                else:
                    self._skipped(array.module, element)
            else:
                target = self.resolve(Value(array.module, element)) if element.type == "identifier" else None
                if target is not None and target.node.type == "object":
                    self.route(target, parent_path, depth)
                else:
                    self._skipped(array.module, element)

    def _skipped(self, module: Module, node: Any) -> None:
        self.notes.append(f"skipped {module.rel}:{module.line(node)}: {cut(collapse(text(node)), 60)}")

    def _fail_on_error(self, value: Value) -> None:
        if value.node.has_error:
            line = first_error_line(value.node)
            raise ProviderError(
                f"{value.module.rel}:{line}: cannot parse the route definition",
                "fix the syntax, or pass file= for another router module",
            )

    def route(self, route: Value, parent_path: str, depth: int) -> None:
        self._fail_on_error(route)
        fields = _pairs(route.node)
        path_source = fields.get("path")
        path = self.path_text(route.module, path_source) if path_source is not None else ""
        full = join_path(parent_path, path)
        row = {
            "path": full,
            "name": self.plain(route.module, fields.get("name")),
            "component": self.component(route.module, fields.get("component"), fields.get("components")),
            "meta": self.meta(route.module, fields.get("meta")),
            "depth": depth,
            "redirect": self.redirect(route.module, fields.get("redirect")),
            "alias": self.alias(route.module, fields.get("alias")),
        }
        self.rows.append(row)
        children = fields.get("children")
        if children is not None:
            target = self.resolve(Value(route.module, children))
            if target is not None and target.node.type == "array":
                self.walk_array(target, full, depth + 1)
            else:
                self._skipped(route.module, children)

    # --- field renderings --------------------------------------------------------------------------
    def path_text(self, module: Module, node: Any) -> str:
        node = unwrap(node)
        value = string_value(node)
        if value is not None:
            return value
        if node.type == "identifier":
            bound = module.bindings.get(text(node))
            resolved = string_value(unwrap(bound)) if bound is not None else None
            if resolved is not None:
                return resolved
        source = f"<{collapse(text(node))}>"
        self.notes.append(f"{module.rel}:{module.line(node)}: path is not a literal: {source}")
        return source

    def plain(self, module: Module, node: Any) -> str:
        if node is None:
            return ""
        node = unwrap(node)
        value = string_value(node)
        return value if value is not None else cut(collapse(text(node)), 40)

    def component(self, module: Module, node: Any, named_views: Any) -> str:
        if node is not None:
            return self.component_of(module, node)
        if named_views is not None and unwrap(named_views).type == "object":
            parts = []
            for key, value in _pairs(unwrap(named_views)).items():
                parts.append(f"{key}={self.component_of(module, value)}")
            return "; ".join(parts)
        return ""

    def component_of(self, module: Module, node: Any) -> str:
        node = unwrap(node)
        specifier = _dynamic_import(node)
        if specifier is not None:
            return self._file(module, specifier)
        if node.type == "identifier":
            name = text(node)
            if name in module.imports:
                return self._file(module, module.imports[name].specifier)
            return name
        return cut(collapse(text(node)), 40)

    def _file(self, module: Module, specifier: str) -> str:
        path = self.loader.resolve(module, specifier, component=True)
        if path is None or not self.loader.inside(path):
            return specifier
        return self.loader.rel(path)

    def redirect(self, module: Module, node: Any) -> str:
        if node is None:
            return ""
        node = unwrap(node)
        value = string_value(node)
        if value is not None:
            return value
        if node.type in FUNCTIONS:
            return "(function)"
        if node.type == "object":
            return ", ".join(f"{k}: {self.literal(v)}" for k, v in _pairs(node).items())
        return cut(collapse(text(node)), 40)

    def alias(self, module: Module, node: Any) -> str:
        if node is None:
            return ""
        node = unwrap(node)
        if node.type == "array":
            return ", ".join(
                self.plain(module, item) for item in node.named_children if item.type != "comment"
            )
        return self.plain(module, node)

    def meta(self, module: Module, node: Any) -> str:
        if node is None:
            return ""
        node = unwrap(node)
        if node.type != "object":
            return cut(collapse(text(node)), 40)
        return ", ".join(f"{k}: {self.literal(v)}" for k, v in _pairs(node).items())

    def literal(self, node: Any) -> str:
        """A meta value: strings bare, literals as written, arrays and objects recursively."""
        node = unwrap(node)
        value = string_value(node)
        if value is not None:
            return value
        if node.type in ("number", "true", "false", "null", "undefined"):
            return text(node)
        if node.type == "array":
            return "[" + ", ".join(self.literal(c) for c in node.named_children if c.type != "comment") + "]"
        if node.type == "object":
            return "{" + ", ".join(f"{k}: {self.literal(v)}" for k, v in _pairs(node).items()) + "}"
        return cut(collapse(text(node)), 40)


def _pairs(obj: Any) -> dict[str, Any]:
    """Keys of an object literal and their value nodes, in source order (shorthand `routes` included)."""
    pairs: dict[str, Any] = {}
    for child in obj.named_children:
        if child.type == "pair":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if key is None or value is None:
                continue
            name = string_value(key) if key.type in ("string", "template_string") else text(key)
            if name is not None:
                pairs[name] = value
        elif child.type == "shorthand_property_identifier":
            pairs[text(child)] = child
        elif child.type == "method_definition":
            name_node = child.child_by_field_name("name")
            if name_node is not None:
                pairs[text(name_node)] = child
    return pairs


def _dynamic_import(node: Any) -> str | None:
    """The specifier of `() => import('x')` in its usual wrappings, or None."""
    node = unwrap(node)
    if node is None:
        return None
    if node.type == "call_expression":
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is not None and function.type == "import" and arguments is not None:
            for argument in arguments.named_children:
                value = string_value(argument)
                if value is not None:
                    return value
            return None
        if function is not None and text(function) == "defineAsyncComponent" and arguments is not None:
            for argument in arguments.named_children:
                if argument.type == "object":
                    loader = _pairs(argument).get("loader")
                    if loader is not None:
                        return _dynamic_import(loader)
                found = _dynamic_import(argument)
                if found is not None:
                    return found
        return None
    if node.type in FUNCTIONS:
        body = node.child_by_field_name("body")
        if body is None:
            return None
        if body.type == "statement_block":
            for statement in body.named_children:
                if statement.type == "return_statement" and statement.named_children:
                    return _dynamic_import(statement.named_children[0])
            return None
        return _dynamic_import(body)
    if node.type == "await_expression" and node.named_children:
        return _dynamic_import(node.named_children[0])
    return None


def find_routes_array(walker: RouteWalker, module: Module) -> Value | None:
    """The routes array of a router module: createRouter({routes}), export default [...], or `routes`."""
    call = _find_create_router(module.root_node)
    if call is not None:
        arguments = call.child_by_field_name("arguments")
        options = arguments.named_children[0] if arguments is not None and arguments.named_children else None
        options_value = walker.resolve(Value(module, options)) if options is not None else None
        if options_value is not None and options_value.node.type == "object":
            routes = _pairs(options_value.node).get("routes")
            if routes is not None:
                target = walker.resolve(Value(options_value.module, routes))
                if target is not None and target.node.type == "array":
                    return target
    if module.default_export is not None:
        target = walker.export_of(module, "default")
        if target is not None and target.node.type == "array":
            return target
    if "routes" in module.bindings and module.bindings["routes"] is not None:
        target = walker.resolve(Value(module, module.bindings["routes"]))
        if target is not None and target.node.type == "array":
            return target
    return None


def _find_create_router(node: Any) -> Any:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            function = current.child_by_field_name("function")
            if function is not None and text(function) in ("createRouter", "VueRouter.createRouter"):
                return current
        if current.type == "new_expression":
            constructor = current.child_by_field_name("constructor")
            if constructor is not None and text(constructor) in ("VueRouter", "Router"):
                return current
        stack.extend(reversed(current.named_children))
    return None
