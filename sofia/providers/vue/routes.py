"""Walking a vue-router route table: the values the evaluator computed (spreads across modules,
modules loaded by glob, nested children) flattened into rows of path, name, component, meta,
redirect and alias, each row keeping the module its route is written in (docs/vue.md, "Output")."""

from __future__ import annotations

import re
from typing import Any

from sofia.errors import param
from sofia.output.notes import Place
from sofia.output.tables import cut
from sofia.providers.contract import ProviderError
from sofia.providers.vue.evaluate import Evaluator
from sofia.providers.vue.misses import Misses
from sofia.providers.vue.modules import (
    Module,
    ModuleLoader,
    collapse,
    first_error_line,
    string_value,
    text,
    unwrap,
)
from sofia.providers.vue.values import (
    NULL,
    UNDEFINED,
    Array,
    FileRef,
    Func,
    LazyModule,
    Namespace,
    ObjectLit,
    Origin,
    Scope,
    Unknown,
)

FUNCTIONS = ("arrow_function", "function_expression", "function", "function_declaration")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:(//|[^/])")
"""A path with a scheme (`https://…`, `mailto:…`): admin menus list external links as routes."""
ROUTE_METHODS = ("addRoute", "addRoutes")
NAMES = ("identifier", "shorthand_property_identifier")
EVALUATED = (*NAMES, "member_expression", "subscript_expression", "call_expression", "template_string")
"""Field values worth evaluating (a name, `RouteName.Home`, `views['./A.vue']`, a template)."""
MAX_ROUTE_DEPTH = 64
"""Levels of `children` followed; deeper lists are named in notes."""


def join_path(parent: str, child: str) -> str:
    """The full path of a child route under `parent` (vue-router's rules)."""
    if child.startswith("/") or EXTERNAL.match(child):
        return child
    if child == "":
        return parent or "/"
    if parent in ("", "/"):
        return "/" + child
    return parent.rstrip("/") + "/" + child


def place(origin: Origin) -> Place:
    return Place(origin.module.rel, origin.line, text(origin.node))


class RouteWalker:
    """Flattens route tables into rows; what it cannot follow goes to `misses`."""

    def __init__(self, loader: ModuleLoader) -> None:
        self.loader = loader
        self.evaluator = Evaluator(loader)
        self.rows: list[dict[str, Any]] = []
        self.misses = Misses()
        self.walked: set[tuple[str, int]] = set()
        """Route objects in the table, by module and position."""

    # --- the table ---------------------------------------------------------------------------------
    def walk(self, table: Array, parent_path: str, depth: int) -> None:
        for origin in table.gaps:
            self.misses.add("statements", "they change a route table at run time", place(origin))
        for origin in table.via:
            self.misses.add("calls", "routes listed as passed in", place(origin))
        for item in table.items:
            if isinstance(item, ObjectLit):
                self.route(item, parent_path, depth)
            elif isinstance(item, Unknown):
                self.misses.add("route entries", item.why, place(item.origin))
            elif isinstance(item, Array):
                self.walk(item, parent_path, depth)
            elif isinstance(item, Namespace):
                self.misses.add("route entries", "a module where a route belongs", Place(item.module.rel))
            else:
                self.misses.add(
                    "route entries", f"not a route object: {item!r}", Place(self.loader.rel(self.loader.root))
                )

    def route(self, route: ObjectLit, parent_path: str, depth: int) -> None:
        _fail_on_error(route.module, route.node)
        self.walked.add((route.module.rel, route.node.start_byte))
        path_field = self.evaluator.property(route, "path")
        path = self.path_text(*path_field) if path_field is not None else ""
        computed = path.startswith("<") and parent_path in ("", "/")
        full = path if computed else join_path(parent_path, path)
        row = {
            "path": full,
            "name": self.plain(self.evaluator.property(route, "name")),
            "component": self.component(route),
            "meta": self.meta(self.evaluator.property(route, "meta")),
            "depth": depth,
            "redirect": self.redirect(self.evaluator.property(route, "redirect")),
            "alias": self.alias(self.evaluator.property(route, "alias")),
            "file": self.loader.order.index(route.module.rel),
        }
        self.rows.append(row)
        children = self.evaluator.property(route, "children")
        if children is None:
            return
        scope, node = children
        if depth + 1 >= MAX_ROUTE_DEPTH:
            self.misses.add(
                "children lists",
                f"nested deeper than {MAX_ROUTE_DEPTH} levels",
                place(Origin(scope.module, node)),
            )
            return
        value = self.evaluator.eval(node, scope)
        if isinstance(value, Array):
            self.walk(value, full, depth + 1)
        elif value is not UNDEFINED and value is not NULL:
            origin = value.origin if isinstance(value, Unknown) else Origin(scope.module, node)
            why = value.why if isinstance(value, Unknown) else "not an array"
            self.misses.add("children lists", why, place(origin))

    # --- field renderings --------------------------------------------------------------------------
    def path_text(self, scope: Scope, node: Any) -> str:
        value = self.evaluator.eval(node, scope)
        if isinstance(value, str):
            return value
        source = f"<{collapse(text(unwrap(node)))}>"
        self.misses.add(
            "route paths", "computed at run time", Place(scope.module.rel, scope.module.line(node), source)
        )
        return source

    def plain(self, field: tuple[Scope, Any] | None) -> str:
        if field is None:
            return ""
        scope, node = field
        node = unwrap(node)
        value = string_value(node)
        if value is None and node.type in EVALUATED:
            evaluated = self.evaluator.eval(node, scope)
            value = evaluated if isinstance(evaluated, str) else None
        return value if value is not None else cut(collapse(text(node)), 40)

    def component(self, route: ObjectLit) -> str:
        single = self.evaluator.property(route, "component")
        if single is not None:
            return self.component_of(*single)
        views = self.evaluator.property(route, "components")
        if views is not None and unwrap(views[1]).type == "object":
            parts = []
            for key, value in _pairs(unwrap(views[1])).items():
                parts.append(f"{key}={self.component_of(views[0], value)}")
            return "; ".join(parts)
        return ""

    def component_of(self, scope: Scope, node: Any) -> str:
        node = unwrap(node)
        module = scope.module
        specifier = _dynamic_import(node)
        if specifier is not None:
            return self._file(module, specifier)
        if node.type in EVALUATED:
            value = self.evaluator.eval(node, scope)
            shown = self._component_value(value)
            if shown:
                return shown
            if node.type in NAMES and text(node) in module.imports:
                return self._file(module, module.imports[text(node)].specifier)
            if node.type in NAMES:
                return text(node)
        return cut(collapse(text(node)), 40)

    def _component_value(self, value: Any) -> str:
        if isinstance(value, FileRef):
            return self.loader.rel(value.path)
        if isinstance(value, LazyModule):
            return self.loader.rel(value.path)
        if isinstance(value, Func):
            specifier = _dynamic_import(value.node)
            if specifier is not None:
                return self._file(value.scope.module, specifier)
        if isinstance(value, Namespace):
            return value.module.rel
        return ""

    def _file(self, module: Module, specifier: str) -> str:
        path = self.loader.resolve(module, specifier, component=True)
        if path is None or not self.loader.inside(path):
            return specifier
        return self.loader.rel(path)

    def redirect(self, field: tuple[Scope, Any] | None) -> str:
        if field is None:
            return ""
        node = unwrap(field[1])
        if node.type in FUNCTIONS:
            return "(function)"
        if node.type == "object":
            return ";".join(f"{k}={self.literal(v)}" for k, v in _pairs(node).items())
        return self.plain(field)

    def alias(self, field: tuple[Scope, Any] | None) -> str:
        if field is None:
            return ""
        scope, node = field
        node = unwrap(node)
        if node.type == "array":
            return ";".join(
                self.plain((scope, item)) for item in node.named_children if item.type != "comment"
            )
        return self.plain(field)

    def meta(self, field: tuple[Scope, Any] | None) -> str:
        if field is None:
            return ""
        node = unwrap(field[1])
        if node.type != "object":
            return cut(collapse(text(node)), 40)
        return ";".join(f"{k}={self.literal(v)}" for k, v in _pairs(node).items())

    def literal(self, node: Any) -> str:
        """A meta value: strings bare, literals as written, arrays and objects recursively."""
        node = unwrap(node)
        value = string_value(node)
        if value is not None:
            return value
        if node.type in ("number", "true", "false", "null", "undefined"):
            return text(node)
        if node.type == "array":
            return "[" + ",".join(self.literal(c) for c in node.named_children if c.type != "comment") + "]"
        if node.type == "object":
            return "{" + ";".join(f"{k}={self.literal(v)}" for k, v in _pairs(node).items()) + "}"
        return cut(collapse(text(node)), 40)

    # --- routes added at run time ------------------------------------------------------------------
    def note_other_tables(self) -> None:
        """Exported route arrays of the modules read that the table does not hold (`asyncRoutes`,
        added at run time by a permission guard): named, so their routes are not taken as absent."""
        evaluator = self.evaluator
        for module in list(self.loader.modules.values()):
            if module is None or module.path not in evaluator.scopes:
                continue
            for name in sorted(module.exports):
                origin = Origin(module, module.root_node)
                value = evaluator.export(module, name, origin)
                if not isinstance(value, Array):
                    continue
                routes = [
                    i for i in value.items if isinstance(i, ObjectLit) and evaluator.property(i, "path")
                ]
                if routes and not any((r.module.rel, r.node.start_byte) in self.walked for r in routes):
                    declared = module.bindings.get(name)
                    line = module.line(declared) if declared is not None else 0
                    self.misses.add(
                        "route arrays",
                        "exported, not in the table",
                        Place(module.rel, line, f"{name} ({len(routes)} routes)"),
                    )

    def note_added_routes(self) -> None:
        """`router.addRoute(...)` calls in every module read: routes the table cannot show."""
        for module in list(self.loader.modules.values()):
            if module is None:
                continue
            stack = [module.root_node]
            while stack:
                node = stack.pop()
                if node.type == "call_expression":
                    function = node.child_by_field_name("function")
                    prop = function.child_by_field_name("property") if function is not None else None
                    member = function is not None and function.type == "member_expression"
                    if member and prop is not None and text(prop) in ROUTE_METHODS:
                        what = f"{text(prop)} calls"
                        self.misses.add(what, "routes added at run time", place(Origin(module, node)))
                stack.extend(reversed(node.named_children))


def _fail_on_error(module: Module, node: Any) -> None:
    if node.has_error:
        line = first_error_line(node)
        raise ProviderError(
            f"{module.rel}:{line}: cannot parse the route definition",
            f"fix the syntax, or pass {param('file', ...)} for another router module",
        )


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


def find_routes(walker: RouteWalker, module: Module) -> Array | Unknown | None:
    """The route table of a router module: createRouter({routes}), export default [...], or `routes`.

    None when the module has none of them; an Unknown when the table is built at run time.
    """
    evaluator = walker.evaluator
    scope = evaluator.module_scope(module)
    call = _find_create_router(module.root_node)
    if call is not None:
        arguments = call.child_by_field_name("arguments")
        options = arguments.named_children[0] if arguments is not None and arguments.named_children else None
        value = evaluator.eval(options, scope) if options is not None else None
        if isinstance(value, ObjectLit):
            found = evaluator.property(value, "routes")
            if found is not None:
                _fail_on_error(found[0].module, found[1])
                routes = evaluator.eval(found[1], found[0])
                if isinstance(routes, (Array, Unknown)):
                    return routes
                return Unknown(Origin(found[0].module, found[1]), "not an array")
    if module.default_export is not None:
        _fail_on_error(module, module.default_export)
        default = evaluator.export(module, "default", Origin(module, module.default_export))
        if isinstance(default, Array):
            return default
    if "routes" in module.bindings and module.bindings["routes"] is not None:
        _fail_on_error(module, module.bindings["routes"])
        routes = evaluator.lookup("routes", scope, Origin(module, module.bindings["routes"]))
        if isinstance(routes, (Array, Unknown)):
            return routes
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
