"""The part of the JS standard library the route evaluator knows: array methods (`push` aside,
which the evaluator does itself), `Object.keys/values/entries`, `Array.isArray/from/of`,
`Promise.all`, a few string methods and the `Object.prototype.toString` type test."""

from __future__ import annotations

from typing import Any

from sofia.providers.vue.host import Host
from sofia.providers.vue.values import (
    NULL,
    UNDEFINED,
    Array,
    Context,
    Func,
    LazyModule,
    Namespace,
    Obj,
    ObjectLit,
    Origin,
    Promise,
    Scope,
    Unknown,
    truthy,
)


def array_method(ev: Host, array: Array, method: str, args: list[Any], origin: Origin) -> Any:
    """`array.method(...args)` for the methods tables are built with; others are Unknown."""
    if method == "concat":
        result = Array(list(array.items))
        result.absorb(array)
        for arg in args:
            if isinstance(arg, Array):
                result.items.extend(arg.items)
                result.absorb(arg)
            else:
                result.items.append(arg)
        return result
    if method in ("slice", "reverse", "sort", "toSorted", "toReversed") and (method != "slice" or not args):
        result = Array(list(array.items))
        result.absorb(array)
        if method in ("reverse", "toReversed"):
            result.items.reverse()
        if method in ("reverse", "sort"):
            array.items[:] = result.items
            return array
        return result
    if method == "flat":
        depth = args[0] if args and isinstance(args[0], (int, float)) else 1
        return flatten(array, float(depth))
    callback = ev.callback(args[0], origin) if args else None
    if callback is None:
        return Unknown(origin, f"array {method} not followed")
    items = list(array.items)
    if method == "forEach":
        for index, item in enumerate(items):
            callback([item, index, array])
        return UNDEFINED
    if method in ("map", "flatMap"):
        mapped = Array()
        mapped.absorb(array)
        for index, item in enumerate(items):
            value = callback([item, index, array])
            if method == "flatMap" and isinstance(value, Array):
                mapped.items.extend(value.items)
                mapped.absorb(value)
            else:
                mapped.items.append(value)
        return mapped
    if method == "filter":
        kept = Array()
        kept.absorb(array)
        for index, item in enumerate(items):
            decided = truthy(callback([item, index, array]))
            if decided is None:
                ev.undecided.append(origin)
            if decided is not False:
                kept.items.append(item)
        return kept
    if method == "reduce":
        accumulator = args[1] if len(args) > 1 else (items.pop(0) if items else UNDEFINED)
        for index, item in enumerate(items):
            accumulator = callback([accumulator, item, index, array])
        return accumulator
    return Unknown(origin, f"array {method} not followed")


def static_call(ev: Host, head: str, method: str, nodes: list[Any], scope: Scope, origin: Origin) -> Any:
    """`Object.*`, `Array.*` and `Promise.*` calls on evaluated arguments."""
    args = ev.arguments_of(nodes, scope)
    first = args[0] if args else UNDEFINED
    if head == "Object" and method in ("keys", "values", "entries"):
        keys = ev.keys(first)
        if keys is None:
            return (
                first
                if isinstance(first, Unknown)
                else Unknown(origin, f"Object.{method} of an unknown value")
            )
        if method == "keys":
            return Array(list(keys))
        values = ev.values_of(first, origin) or []
        if method == "values":
            return Array(values)
        return Array([Array([k, v]) for k, v in zip(keys, values, strict=True)])
    if head == "Object" and method == "assign":
        return first
    if head == "Object" and method == "freeze":
        return first
    if head == "Array" and method == "isArray":
        if isinstance(first, Unknown):
            return Unknown(origin, "a run-time condition")
        return isinstance(first, Array)
    if head == "Array" and method == "from":
        items = ev.iterate(first)
        return Array(items) if items is not None else Unknown(origin, "Array.from not followed")
    if head == "Array" and method == "of":
        return Array(list(args))
    if head == "Promise" and method in ("all", "allSettled") and isinstance(first, Array):
        settled = Array([item.value if isinstance(item, Promise) else item for item in first.items])
        settled.absorb(first)
        return Promise(settled)
    if head == "Promise" and method == "resolve":
        return Promise(first)
    return Unknown(origin, f"{head}.{method} not followed")


def type_tag(value: Any, origin: Origin) -> Any:
    """`Object.prototype.toString.call(value)`, the classic type test."""
    if isinstance(value, Unknown):
        return value
    if isinstance(value, Array):
        return "[object Array]"
    if isinstance(value, str):
        return "[object String]"
    if isinstance(value, bool):
        return "[object Boolean]"
    if isinstance(value, (int, float)):
        return "[object Number]"
    if value is UNDEFINED:
        return "[object Undefined]"
    if value is NULL:
        return "[object Null]"
    if isinstance(value, (Func, LazyModule, Context)):
        return "[object Function]"
    if isinstance(value, (ObjectLit, Obj, Namespace)):
        return "[object Object]" if not isinstance(value, Namespace) else "[object Module]"
    return Unknown(origin, "a type test not evaluated")


def flatten(array: Array, depth: float) -> Array:
    result = Array()
    result.absorb(array)
    for item in array.items:
        if isinstance(item, Array) and depth >= 1:
            inner = flatten(item, depth - 1)
            result.items.extend(inner.items)
            result.absorb(inner)
        else:
            result.items.append(item)
    return result


def string_method(value: str, method: str, args: list[Any], origin: Origin) -> Any:
    first = args[0] if args else UNDEFINED
    if method in ("includes", "startsWith", "endsWith") and isinstance(first, str):
        return {
            "includes": first in value,
            "startsWith": value.startswith(first),
            "endsWith": value.endswith(first),
        }[method]
    if method in ("toLowerCase", "toUpperCase", "trim"):
        return {"toLowerCase": value.lower(), "toUpperCase": value.upper(), "trim": value.strip()}[method]
    if method == "replace" and isinstance(first, str) and len(args) > 1 and isinstance(args[1], str):
        return value.replace(first, args[1], 1)
    if method == "split" and isinstance(first, str) and first:
        return Array(list(value.split(first)))
    return Unknown(origin, f"string {method} not evaluated")
