"""The JSON shape of a tool's answer, declared once: the reference pages print it and the tests
hold every tool's real answer to it, so neither can drift from what the tool sends.

A shape is plain data:

* a type name: `"str"`, `"int"`, `"float"` (any number), `"bool"`, `"null"`, `"any"`, or several
  joined with `|` (`"int|null"`);
* `[item]`: a list whose every element has the shape `item`;
* `{"key": shape, "key?": shape}`: an object with exactly these keys, those ending in `?` left out
  when they do not apply;
* `{"*": shape}`: an object whose keys are names (file paths, kinds) and whose values have `shape`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeAlias

Shape: TypeAlias = "str | Sequence[Any] | Mapping[str, Any]"

_SCALARS: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "null": (type(None),),
}


def mismatches(value: Any, shape: Shape, where: str = "$") -> Iterator[str]:
    """Every place `value` departs from `shape`, as `$.files[0].path: expected str, got int`."""
    if isinstance(shape, str):
        yield from _scalar(value, shape, where)
    elif isinstance(shape, Mapping):
        yield from _object(value, shape, where)
    elif not isinstance(value, list):
        yield f"{where}: expected a list, got {_kind(value)}"
    else:
        for index, item in enumerate(value):
            yield from mismatches(item, shape[0], f"{where}[{index}]")


def _scalar(value: Any, shape: str, where: str) -> Iterator[str]:
    names = shape.split("|")
    if "any" in names:
        return
    for name in names:
        types = _SCALARS[name]
        if isinstance(value, types) and not (name in ("int", "float") and isinstance(value, bool)):
            return
    yield f"{where}: expected {shape}, got {_kind(value)}"


def _object(value: Any, shape: Mapping[str, Any], where: str) -> Iterator[str]:
    if not isinstance(value, dict):
        yield f"{where}: expected an object, got {_kind(value)}"
        return
    if set(shape) == {"*"}:
        for key, item in value.items():
            yield from mismatches(item, shape["*"], f"{where}[{key!r}]")
        return
    declared = {key.removesuffix("?"): key.endswith("?") for key in shape}
    for key, optional in declared.items():
        if key not in value and not optional:
            yield f"{where}: missing key {key!r}"
    for key, item in value.items():
        if key not in declared:
            yield f"{where}: undeclared key {key!r}"
            continue
        inner = shape[key + "?"] if declared[key] else shape[key]
        yield from mismatches(item, inner, f"{where}.{key}")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def problems(shape: Shape, where: str = "$") -> Iterator[str]:
    """What makes `shape` itself malformed (an unknown type name, a list of two shapes)."""
    if isinstance(shape, str):
        unknown = [name for name in shape.split("|") if name not in _SCALARS and name != "any"]
        if unknown:
            yield f"{where}: unknown type {'|'.join(unknown)}"
    elif isinstance(shape, Mapping):
        for key, inner in shape.items():
            yield from problems(inner, f"{where}.{key}")
    elif isinstance(shape, Sequence) and len(shape) == 1:
        yield from problems(shape[0], f"{where}[]")
    else:
        yield f"{where}: a list shape holds exactly one item shape"


def render(shape: Shape, indent: int = 0) -> str:
    """The shape as an indented outline (`key?: type`, lists as `[...]`), for the reference pages."""
    pad = "  " * indent
    if isinstance(shape, str):
        return shape
    if isinstance(shape, Mapping):
        if set(shape) == {"*"}:
            return "{ <name>: " + render(shape["*"], indent) + " }"
        lines = [f"{pad}  {key}: {render(inner, indent + 1)}" for key, inner in shape.items()]
        return "{\n" + "\n".join(lines) + f"\n{pad}}}"
    return "[" + render(shape[0], indent) + "]"
