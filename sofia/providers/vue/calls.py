"""Calls in the route evaluator: what a call expression evaluates to (a dynamic import, `require`,
a module loader, a standard library call, a method, a function of the modules read), and routes
handed to a call that cannot be followed, which are passed through as declared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sofia.providers.vue import library, loaders
from sofia.providers.vue.host import Host
from sofia.providers.vue.modules import Module, text
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
    Scope,
    Unknown,
)

MAX_DEPTH = 24
"""Nested calls of the modules' own functions."""


def call(ev: Host, node: Any, scope: Scope, origin: Origin) -> Any:
    """A call expression: `import()`, `require()`, the loaders, `Object.*`/`Array.*`, methods, functions."""
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    argument_nodes = (
        [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    )
    if function is None:
        return Unknown(origin, "a call not followed")
    if function.type == "import":
        specifier = ev.eval(argument_nodes[0], scope) if argument_nodes else UNDEFINED
        if not isinstance(specifier, str):
            return Unknown(origin, "an import of a computed specifier")
        return Promise(ev.imported(scope.module, specifier, "*", origin))
    if function.type == "identifier" and text(function) == "require":
        specifier = ev.eval(argument_nodes[0], scope) if argument_nodes else UNDEFINED
        if not isinstance(specifier, str):
            return Unknown(origin, "a require of a computed specifier")
        target = ev.resolve_module(scope.module, specifier)
        if isinstance(target, Module):
            return ev.namespace(target)
        if isinstance(target, Path):
            return FileRef(target)
        return Unknown(origin, f"cannot resolve {specifier}")
    if function.type == "member_expression":
        object_node = function.child_by_field_name("object")
        prop = function.child_by_field_name("property")
        method = text(prop) if prop is not None else ""
        head = text(object_node).replace(" ", "") if object_node is not None else ""
        if head == "require" and method == "context":
            return loaders.require_context(ev, argument_nodes, scope, origin)
        if head in ("Object", "Array", "Promise"):
            return library.static_call(ev, head, method, argument_nodes, scope, origin)
        receiver = ev.eval(object_node, scope)
        if isinstance(receiver, ImportMeta) and method in loaders.GLOB_NAMES:
            return loaders.vite_glob(ev, method, argument_nodes, scope, origin)
        if function.child_by_field_name("optional_chain") is not None and receiver in (UNDEFINED, NULL):
            return UNDEFINED
        spread = Array()
        args = ev.arguments_of(argument_nodes, scope, spread)
        if isinstance(receiver, Array) and method in ("push", "unshift"):
            receiver.absorb(spread)
            if method == "push":
                receiver.items.extend(args)
            else:
                receiver.items[:0] = args
            return len(receiver.items)
        return method_call(ev, receiver, method, args, scope, origin)
    callee = ev.eval(function, scope)
    args = ev.arguments_of(argument_nodes, scope)
    return apply(ev, callee, args, origin)


def apply(ev: Host, callee: Any, args: list[Any], origin: Origin) -> Any:
    """Call a function value; an unknown call that was handed routes passes them through."""
    if isinstance(callee, Func):
        if ev.depth >= MAX_DEPTH:
            return Unknown(origin, "calls nested too deep")
        ev.depth += 1
        try:
            result = ev.invoke(callee, args)
        finally:
            ev.depth -= 1
        if not isinstance(result, Unknown):
            return result
        return pass_through(ev, args, origin) or result
    if isinstance(callee, Context):
        key = args[0] if args else UNDEFINED
        for entry_key, value in callee.entries:
            if entry_key == key:
                return value
        return Unknown(origin, "a context key not among its files")
    if isinstance(callee, LazyModule):
        value = ev.file_value(callee.path, origin)
        return Promise(ev.member(value, callee.name, origin) if callee.name else value)
    fallback = callee if isinstance(callee, Unknown) else Unknown(origin, "a call not followed")
    return pass_through(ev, args, origin) or fallback


def pass_through(ev: Host, args: list[Any], origin: Origin) -> Array | None:
    """Routes handed to a call that cannot be followed (`ascending(routes)`), listed as declared."""
    for arg in args:
        routes: Array | None = None
        if isinstance(arg, Array) and any(isinstance(i, (ObjectLit, Array)) for i in arg.items):
            routes = Array(list(arg.items))
            routes.absorb(arg)
        elif isinstance(arg, Obj) and arg.modules:
            routes = Array()
            for value in arg.props.values():
                default = ev.member(value, "default", origin)
                if isinstance(default, Array):
                    routes.items.extend(default.items)
                    routes.absorb(default)
                else:
                    routes.items.append(default)
        if routes is not None:
            routes.via.append(origin)
            return routes
    return None


def method_call(ev: Host, receiver: Any, method: str, args: list[Any], scope: Scope, origin: Origin) -> Any:
    """`receiver.method(...args)` on an evaluated receiver."""
    if isinstance(receiver, Array):
        return library.array_method(ev, receiver, method, args, origin)
    if isinstance(receiver, Context) and method == "keys":
        return Array([key for key, _ in receiver.entries])
    if isinstance(receiver, Promise) and method == "then" and args:
        callback = ev.callback(args[0], origin)
        return Promise(callback([receiver.value])) if callback is not None else Unknown(origin, "then")
    if isinstance(receiver, str):
        return library.string_method(receiver, method, args, origin)
    if isinstance(receiver, Builtin) and method == "call" and args:
        return library.type_tag(args[0], origin)
    if isinstance(receiver, (Func, LazyModule, Context)) and method in ("call", "apply"):
        rest = (
            args[1:]
            if method == "call"
            else (args[1].items if len(args) > 1 and isinstance(args[1], Array) else [])
        )
        return apply(ev, receiver, rest, origin)
    if isinstance(receiver, (Namespace, Obj, ObjectLit)):
        member = ev.member(receiver, method, origin)
        if isinstance(member, (Func, LazyModule, Context)):
            return apply(ev, member, args, origin)
    if isinstance(receiver, Unknown):
        return pass_through(ev, args, origin) or receiver
    return pass_through(ev, args, origin) or Unknown(origin, f"a call of {method} not followed")
