"""A small, bounded evaluator of the JS/TS a router module builds its table with, on the
tree-sitter syntax tree: module top levels run in source order (so `push` in a loop over a glob's
modules fills the array a later spread reads), functions are applied when called (`formatModules(
modules, [])`), and `import.meta.glob`, `globEager` and `require.context` resolve to the files they
name. Nothing is executed: calls it does not know, run-time conditions and APIs become `Unknown`
values that remember their place, so the caller can say what it did not follow. Demand-driven at
the top level: a declaration is evaluated when first read, and an expression statement only when
it can change a value (see `_may_change_tables`), so importing half an app costs nothing.

Bounded: at most MAX_STEPS evaluation steps, MAX_DEPTH nested calls (`calls`) and MAX_NESTING nested
expressions per run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sofia.providers.vue import calls, statements
from sofia.providers.vue.modules import EXTENSIONS, WRAPPERS, Module, ModuleLoader, string_value, text, unwrap
from sofia.providers.vue.statements import FUNCTIONS, Break, Continue, Return, Thunk
from sofia.providers.vue.values import (
    NULL,
    UNDEFINED,
    Array,
    Builtin,
    Context,
    FileRef,
    Func,
    ImportMeta,
    LazyModule,
    Namespace,
    Obj,
    ObjectLit,
    Origin,
    Promise,
    Regex,
    Scope,
    Unknown,
    truthy,
)

MAX_STEPS = 200_000
MAX_NESTING = 150
"""Expressions nested inside one another (Python's own stack bounds the walk)."""
SCRIPT_SUFFIXES = frozenset(EXTENSIONS) | {".cjs", ".cts"}
LITERALS = frozenset(
    {
        "identifier",
        "shorthand_property_identifier",
        "string",
        "template_string",
        "number",
        "true",
        "false",
        "null",
        "undefined",
        "array",
        "object",
        "regex",
        "meta_property",
    }
)
"""Nodes that denote a value by themselves (with a name's, looked up); functions too."""


class Evaluator:
    """Evaluates expressions of the modules a `ModuleLoader` parses; one instance per call."""

    def __init__(self, loader: ModuleLoader) -> None:
        self.loader = loader
        self.scopes: dict[Path, Scope] = {}
        self.running: set[Path] = set()
        self.defaults: dict[Path, Any] = {}
        self.commonjs: dict[Path, Any] = {}
        self.steps = 0
        self.depth = 0
        self.nesting = 0
        self.exhausted = False
        self.passed: list[Origin] = []
        self.truncated: list[Origin] = []
        """Loaders whose listing stopped at the entry limit."""
        self.empty: list[Origin] = []
        """Loaders that matched no file."""
        self.undecided: list[Origin] = []
        """Conditions decided at run time whose every branch was followed."""

    # --- modules ---------------------------------------------------------------------------------
    def module_scope(self, module: Module) -> Scope:
        """The module's top-level scope, running its top level once (in source order)."""
        scope = self.scopes.get(module.path)
        if scope is not None:
            return scope
        scope = Scope(module)
        self.scopes[module.path] = scope
        self.running.add(module.path)
        try:
            self.run_block(module.root_node.named_children, scope)
        except (Return, Break, Continue):
            pass
        finally:
            self.running.discard(module.path)
        return scope

    def export(self, module: Module, name: str, origin: Origin) -> Any:
        """The value `module` exports as `name` (`default` included), following re-exports."""
        scope = self.module_scope(module)
        if name == "default":
            if module.path in self.defaults:
                return self.defaults[module.path]
            if module.path in self.commonjs:
                return self.commonjs[module.path]
        local = module.exports.get(name)
        if isinstance(local, str):
            return self.lookup(local, scope, origin)
        if name in module.reexports:
            spec = module.reexports[name]
            return self.imported(module, spec.specifier, spec.name, origin)
        for specifier in module.star_reexports:
            target = self.resolve_module(module, specifier)
            if isinstance(target, Module) and self._exports_name(target, name):
                return self.export(target, name, origin)
        if module.path in self.running:
            return Unknown(origin, "import cycle")
        if module.path in self.commonjs:
            return self.member(self.commonjs[module.path], name, origin)
        if any(not isinstance(self.resolve_module(module, s), Module) for s in module.star_reexports):
            return Unknown(origin, f"{module.rel} re-exports a module that was not read")
        return UNDEFINED  # the module's exports are all known: it has no such export

    def _exports_name(self, module: Module, name: str) -> bool:
        return (
            name in module.exports
            or name in module.reexports
            or (name == "default" and module.default_export is not None)
        )

    def namespace(self, module: Module) -> Any:
        """What `require()` or a webpack context gives for a module: its CommonJS exports or namespace."""
        self.module_scope(module)
        return self.commonjs.get(module.path, Namespace(module))

    def resolve_module(self, importer: Module, specifier: str) -> Module | Path | None:
        """The module a specifier names (parsed), a non-script file's path, or None."""
        path = self.loader.resolve(importer, specifier, component=True)
        if path is None:
            return None
        return self.file_value_module(path)

    def file_value_module(self, path: Path) -> Module | Path | None:
        if path.suffix.lower() not in SCRIPT_SUFFIXES:
            return path
        return self.loader.load(path)

    def imported(self, importer: Module, specifier: str, name: str, origin: Origin) -> Any:
        path = self.loader.resolve(importer, specifier, component=True)
        if path is None:
            if specifier.startswith(".") or self.loader.aliases.match(specifier) is not None:
                return Unknown(origin, f"no file for {specifier}")
            return Unknown(origin, f"imported from the package {specifier}")
        target = self.file_value_module(path)
        if target is None:
            return Unknown(origin, f"{self.loader.rel(path)} not read")
        if isinstance(target, Path):
            return FileRef(target)
        if name == "*":
            return Namespace(target)
        return self.export(target, name, origin)

    def file_value(self, path: Path, origin: Origin) -> Any:
        """A module loaded by a glob or context: its namespace, or the file for non-scripts."""
        target = self.file_value_module(path)
        if isinstance(target, Module):
            return Namespace(target)
        if isinstance(target, Path):
            return FileRef(target)
        return Unknown(origin, f"not read: {self.loader.rel(path)}")

    # --- names -----------------------------------------------------------------------------------
    def lookup(self, name: str, scope: Scope, origin: Origin) -> Any:
        found = scope.find(name)
        if found is not None:
            value = found.names[name]
            if isinstance(value, Thunk):
                if value.running:
                    return Unknown(origin, f"{name} is defined through itself (an import cycle?)")
                value.running = True
                found.names[name] = result = self.eval(value.node, found)
                return result
            return value
        module = scope.module
        if name in module.imports:
            spec = module.imports[name]
            return self.imported(module, spec.specifier, spec.name, origin)
        if name == "undefined":
            return UNDEFINED
        if name in module.bindings:
            if module.path in self.running:
                return Unknown(origin, f"{name} is used before its declaration runs (import cycle?)")
            return Unknown(origin, f"{name} was not evaluated")
        return Unknown(origin, f"{name} is not declared in {module.rel}")

    def run_block(self, body: list[Any], scope: Scope) -> None:
        statements.run_block(self, body, scope)

    def bind(self, pattern: Any, value: Any, scope: Scope) -> None:
        statements.bind(self, pattern, value, scope)

    # --- expressions -----------------------------------------------------------------------------
    def eval(self, node: Any, scope: Scope) -> Any:
        """The value of an expression, or an Unknown saying why not (also past MAX_NESTING)."""
        if node is None:
            return UNDEFINED
        if self.nesting >= MAX_NESTING:
            return Unknown(Origin(scope.module, node), "an expression nested too deep")
        self.nesting += 1
        try:
            return self._eval(node, scope)
        finally:
            self.nesting -= 1

    def _eval(self, node: Any, scope: Scope) -> Any:
        origin = Origin(scope.module, node)
        if not self.step():
            return Unknown(origin, "evaluation limit reached")
        if node.type in WRAPPERS:
            node = unwrap(node)
            if node is None:
                return UNDEFINED
            origin = Origin(scope.module, node)
        kind = node.type
        if kind in LITERALS or kind in FUNCTIONS:
            return self._literal(node, scope, origin)
        if kind in ("member_expression", "subscript_expression"):
            return self._access(node, scope, origin)
        if kind == "call_expression":
            return calls.call(self, node, scope, origin)
        if kind == "await_expression":
            value = self.eval(node.named_children[0] if node.named_children else None, scope)
            return value.value if isinstance(value, Promise) else value
        if kind == "binary_expression":
            return self._binary(node, scope, origin)
        if kind == "unary_expression":
            operator = node.child_by_field_name("operator")
            value = self.eval(node.child_by_field_name("argument"), scope)
            if operator is not None and text(operator) == "!":
                decided = truthy(value)
                return Unknown(origin, "a run-time condition") if decided is None else not decided
            return Unknown(origin, "an operator not evaluated")
        if kind == "ternary_expression":
            return self._ternary(node, scope, origin)
        if kind == "assignment_expression":
            return self._assign(node, scope, origin)
        if kind == "sequence_expression":
            last: Any = UNDEFINED
            for child in node.named_children:
                last = self.eval(child, scope)
            return last
        if kind == "new_expression":
            return Unknown(origin, "an object built at run time")
        return Unknown(origin, "an expression not evaluated")

    def _literal(self, node: Any, scope: Scope, origin: Origin) -> Any:
        """A name's value, or what a literal (string, number, array, object, function, regex,
        `import.meta`) denotes; objects and functions stay lazy until read or called."""
        kind = node.type
        if kind in ("identifier", "shorthand_property_identifier"):
            return self.lookup(text(node), scope, origin)
        if kind in ("string", "template_string"):
            return self._string(node, scope, origin)
        if kind == "number":
            return _number(text(node))
        if kind in ("true", "false"):
            return kind == "true"
        if kind == "null":
            return NULL
        if kind == "undefined":
            return UNDEFINED
        if kind == "array":
            return self._array(node, scope)
        if kind == "object":
            return ObjectLit(scope, node)
        if kind == "regex":
            pattern = node.child_by_field_name("pattern")
            flags = node.child_by_field_name("flags")
            return Regex(
                text(pattern) if pattern is not None else "", text(flags) if flags is not None else ""
            )
        if kind == "meta_property":
            return (
                ImportMeta()
                if text(node).replace(" ", "") == "import.meta"
                else Unknown(origin, "meta property")
            )
        return Func(scope, node)

    def _access(self, node: Any, scope: Scope, origin: Origin) -> Any:
        """`a.b`, `a?.b` and `a[key]`: the member of the evaluated object."""
        if node.type == "member_expression" and text(node).replace(" ", "") == "Object.prototype.toString":
            return Builtin("toString")
        target = self.eval(node.child_by_field_name("object"), scope)
        if node.type == "subscript_expression":
            key = self.eval(node.child_by_field_name("index"), scope)
            if isinstance(key, Unknown):
                return key
            return self.member(target, _key(key), origin)
        optional = node.child_by_field_name("optional_chain") is not None
        if optional and (target is UNDEFINED or target is NULL):
            return UNDEFINED
        prop = node.child_by_field_name("property")
        return self.member(target, text(prop) if prop is not None else "", origin)

    def _string(self, node: Any, scope: Scope, origin: Origin) -> Any:
        literal = string_value(node)
        if literal is not None:
            return literal
        parts: list[str] = []
        for child in node.children:
            if child.type == "template_substitution":
                value = self.eval(child.named_children[0] if child.named_children else None, scope)
                if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                    return Unknown(origin, "a string computed at run time")
                parts.append(_key(value))
            elif child.type == "string_fragment":
                parts.append(text(child))
            elif child.type == "escape_sequence":
                parts.append(text(child)[1:])
        return "".join(parts)

    def _array(self, node: Any, scope: Scope) -> Array:
        result = Array()
        for element in node.named_children:
            if element.type == "comment":
                continue
            if element.type == "spread_element":
                inner = element.named_children[0] if element.named_children else None
                value = self.eval(inner, scope)
                self.spread_into(result, value, Origin(scope.module, element))
            else:
                result.items.append(self.eval(element, scope))
        return result

    def spread_into(self, target: Array, value: Any, origin: Origin) -> None:
        if isinstance(value, Array):
            target.items.extend(value.items)
            target.absorb(value)
        elif isinstance(value, Unknown):
            target.items.append(value)
        elif isinstance(value, str):
            target.items.extend(value)
        else:
            target.items.append(Unknown(origin, "a spread of something that is not an array"))

    def _binary(self, node: Any, scope: Scope, origin: Origin) -> Any:
        operator_node = node.child_by_field_name("operator")
        operator = text(operator_node) if operator_node is not None else ""
        left = self.eval(node.child_by_field_name("left"), scope)
        if operator in ("||", "&&", "??"):
            if operator == "??":
                if isinstance(left, Unknown):
                    return left
                decided: bool | None = not (left is UNDEFINED or left is NULL)
            else:
                decided = truthy(left)
            if decided is None:
                if operator == "??":
                    return left
                # `unknown || x` is truthy when x is; `unknown && x` is falsy when x is
                right = self.eval(node.child_by_field_name("right"), scope)
                settled = truthy(right)
                return right if settled is (operator == "||") else left
            keep_left = decided if operator in ("||", "??") else not decided
            return left if keep_left else self.eval(node.child_by_field_name("right"), scope)
        right = self.eval(node.child_by_field_name("right"), scope)
        if isinstance(left, Unknown):
            return left
        if isinstance(right, Unknown):
            return right
        simple = (str, int, float, bool)
        if operator in ("===", "==", "!==", "!="):
            if (isinstance(left, simple) or left in (UNDEFINED, NULL)) and (
                isinstance(right, simple) or right in (UNDEFINED, NULL)
            ):
                same = left == right and type(left) is type(right)
                return same if operator in ("===", "==") else not same
            return Unknown(origin, "a comparison decided at run time")
        if operator == "+" and isinstance(left, (str, int, float)) and isinstance(right, (str, int, float)):
            if isinstance(left, str) or isinstance(right, str):
                return _key(left) + _key(right)
            return left + right
        return Unknown(origin, "an operator not evaluated")

    def _ternary(self, node: Any, scope: Scope, origin: Origin) -> Any:
        condition = self.eval(node.child_by_field_name("condition"), scope)
        decided = truthy(condition)
        if decided is not None:
            return self.eval(node.child_by_field_name("consequence" if decided else "alternative"), scope)
        first = self.eval(node.child_by_field_name("consequence"), scope)
        second = self.eval(node.child_by_field_name("alternative"), scope)
        if isinstance(first, Array) and isinstance(second, Array):
            self.undecided.append(Origin(scope.module, node.child_by_field_name("condition")))
            both = Array(first.items + second.items)
            both.absorb(first)
            both.absorb(second)
            return both
        return Unknown(origin, "a run-time condition")

    def _assign(self, node: Any, scope: Scope, origin: Origin) -> Any:
        left = node.child_by_field_name("left")
        value = self.eval(node.child_by_field_name("right"), scope)
        if left is None:
            return value
        if left.type == "identifier":
            found = scope.find(text(left)) or scope
            found.names[text(left)] = value
        elif left.type in ("member_expression", "subscript_expression"):
            if text(left).replace(" ", "") == "module.exports":
                self.commonjs[scope.module.path] = value
                return value
            target = self.eval(left.child_by_field_name("object"), scope)
            if left.type == "member_expression":
                prop = left.child_by_field_name("property")
                key: Any = text(prop) if prop is not None else ""
            else:
                key = self.eval(left.child_by_field_name("index"), scope)
            if isinstance(target, Obj) and not isinstance(key, Unknown):
                target.props[_key(key)] = value
                target.modules = False
        return value

    # --- members ---------------------------------------------------------------------------------
    def member(self, target: Any, name: str, origin: Origin) -> Any:
        if isinstance(target, Unknown):
            return target
        if isinstance(target, Namespace):
            return self.export(target.module, name, origin)
        if isinstance(target, Obj):
            return target.props.get(name, UNDEFINED)
        if isinstance(target, ObjectLit):
            found = self.property(target, name)
            return UNDEFINED if found is None else self.eval(found[1], found[0])
        if isinstance(target, Array):
            if name == "length":
                return len(target.items)
            if name.isdigit():
                index = int(name)
                return target.items[index] if index < len(target.items) else UNDEFINED
            return Unknown(origin, f"array property {name}")
        if isinstance(target, str) and name == "length":
            return len(target)
        if isinstance(target, FileRef):
            return Unknown(origin, f"a member of {self.loader.rel(target.path)}")
        if target is UNDEFINED or target is NULL:
            return Unknown(origin, f"reading {name} of {target!r}")
        return Unknown(origin, f"property {name} not evaluated")

    def property(self, obj: ObjectLit, name: str) -> tuple[Scope, Any] | None:
        """The (scope, value node) of an object literal's property, later entries and spreads winning."""
        for child in reversed(obj.node.named_children):
            if child.type == "pair":
                key = child.child_by_field_name("key")
                if key is not None and _property_name(key, obj.scope, self) == name:
                    return obj.scope, child.child_by_field_name("value")
            elif child.type == "shorthand_property_identifier" and text(child) == name:
                return obj.scope, child
            elif child.type == "method_definition":
                key = child.child_by_field_name("name")
                if key is not None and text(key) == name:
                    return obj.scope, child
            elif child.type == "spread_element" and child.named_children:
                spread = self.eval(child.named_children[0], obj.scope)
                if isinstance(spread, ObjectLit):
                    found = self.property(spread, name)
                    if found is not None:
                        return found
        return None

    def keys(self, value: Any) -> list[Any] | None:
        """`Object.keys(value)` / `for (k in value)`, or None when unknown."""
        if isinstance(value, Obj):
            return list(value.props)
        if isinstance(value, Array):
            return [str(i) for i in range(len(value.items))]
        if isinstance(value, Namespace):
            return self.export_names(value.module)
        if isinstance(value, ObjectLit):
            names = []
            for child in value.node.named_children:
                if child.type == "pair":
                    key = child.child_by_field_name("key")
                    name = _property_name(key, value.scope, self) if key is not None else None
                    if name is None:
                        return None
                    names.append(name)
                elif child.type in ("shorthand_property_identifier", "method_definition"):
                    key = child.child_by_field_name("name") if child.type == "method_definition" else child
                    names.append(text(key))
                elif child.type != "comment":
                    return None
            return names
        return None

    def export_names(self, module: Module) -> list[str]:
        """A namespace's keys: its export names in code-unit order, as JS orders them."""
        self.module_scope(module)
        names = set(module.exports) | set(module.reexports)
        if module.default_export is not None or module.path in self.defaults:
            names.add("default")
        for specifier in module.star_reexports:
            target = self.resolve_module(module, specifier)
            if isinstance(target, Module):
                names.update(n for n in self.export_names(target) if n != "default")
        return sorted(names, key=lambda n: n.encode("utf-16-be"))

    def values_of(self, value: Any, origin: Origin) -> list[Any] | None:
        keys = self.keys(value)
        if keys is None:
            return None
        if isinstance(value, Array):
            return list(value.items)
        return [self.member(value, k, origin) for k in keys]

    def iterate(self, value: Any) -> list[Any] | None:
        if isinstance(value, Array):
            return list(value.items)
        if isinstance(value, str):
            return list(value)
        return None

    # --- calls -----------------------------------------------------------------------------------
    def arguments_of(self, nodes: list[Any], scope: Scope, spread: Array | None = None) -> list[Any]:
        """Evaluated arguments, spreads expanded (their provenance goes to `spread` when given)."""
        args: list[Any] = []
        for node in nodes:
            if node.type == "spread_element":
                value = self.eval(node.named_children[0] if node.named_children else None, scope)
                if isinstance(value, Array):
                    args.extend(value.items)
                    if spread is not None:
                        spread.absorb(value)
                elif isinstance(value, Unknown):
                    args.append(value)
                else:
                    args.append(
                        Unknown(Origin(scope.module, node), "a spread of something that is not an array")
                    )
            else:
                args.append(self.eval(node, scope))
        return args

    def apply(self, callee: Any, args: list[Any], origin: Origin) -> Any:
        """Call a function value; an unknown call that was handed routes passes them through."""
        return calls.apply(self, callee, args, origin)

    def invoke(self, func: Func, args: list[Any]) -> Any:
        """Run a function of the modules read with `args` bound to its parameters."""
        node = func.node
        scope = Scope(func.scope.module, func.scope)
        single = node.child_by_field_name("parameter")
        if single is not None:
            self.bind(single, args[0] if args else UNDEFINED, scope)
        parameters = node.child_by_field_name("parameters")
        if parameters is not None:
            index = 0
            for parameter in parameters.named_children:
                if parameter.type == "comment":
                    continue
                pattern = (
                    parameter.child_by_field_name("pattern")
                    if parameter.type.endswith("_parameter")
                    else parameter
                )
                if pattern is not None and pattern.type == "rest_pattern":
                    self.bind(pattern.named_children[0], Array(list(args[index:])), scope)
                    break
                self.bind(parameter, args[index] if index < len(args) else UNDEFINED, scope)
                index += 1
        body = node.child_by_field_name("body")
        if body is None:
            return UNDEFINED
        if body.type != "statement_block":
            return self.eval(body, scope)
        try:
            self.run_block(body.named_children, scope)
        except Return as returned:
            value = returned.value
            is_async = any(child.type == "async" for child in node.children)
            return Promise(value) if is_async and not isinstance(value, Promise) else value
        except (Break, Continue):
            pass
        return UNDEFINED

    def callback(self, fn: Any, origin: Origin) -> Callable[[list[Any]], Any] | None:
        if isinstance(fn, (Func, Context, LazyModule)):
            return lambda args: self.apply(fn, args, origin)
        return None

    def step(self) -> bool:
        """Count one evaluation step; False once MAX_STEPS are spent."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            self.exhausted = True
            return False
        return True


def _property_name(key: Any, scope: Scope, evaluator: Evaluator) -> str | None:
    if key.type in ("string", "template_string"):
        return string_value(key)
    if key.type == "computed_property_name":
        value = evaluator.eval(key.named_children[0] if key.named_children else None, scope)
        return _key(value) if isinstance(value, (str, int, float)) else None
    return text(key)


def _number(raw: str) -> int | float:
    try:
        return int(raw.replace("_", ""), 0)
    except ValueError:
        try:
            return float(raw.replace("_", ""))
        except ValueError:
            return 0


def _key(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
