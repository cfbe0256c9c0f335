"""The base of every provider's input model, and the markers that give parameters their meaning.

`Input` makes every model forgiving in the ways agents and clients actually err, and strict where
leniency would mislead, while the schema it advertises stays exactly as written:

* a scalar where a list is wanted becomes a one-element list (`files: "x.php"`);
* a number where a string is wanted becomes that string (`session: 258`);
* a boolean where a number is wanted is refused (`max_per_pattern: true` is not 1);
* no string may hold a NUL character or an unpaired surrogate (no path, pattern or argument can);
* a path parameter (marked `PathParam`) is refused when a component or the whole path is longer
  than any file system allows, before anything touches the disk, and a leading `~` is expanded as a
  shell would.

`PathParam` is also what the MCP server's confinement reads: every field carrying it is resolved
and must lie inside the allowed roots, whatever the field is called.
"""

from __future__ import annotations

import os
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from sofia.errors import quote

NAME_MAX = 255
"""Longest file name component, in bytes, on every common file system."""
PATH_MAX = 4095
"""Longest path, in bytes, the kernel accepts."""


@dataclass(frozen=True)
class PathParam:
    """Field metadata: the parameter names files or directories (a string or a list of strings).

    The server confines every such value to its allowed roots; the CLI, run by a person, does not.
    """

    glob: bool = False
    """Values may be globs: their literal leading directories are what is confined."""
    when: Callable[[str, Path], bool] | None = None
    """`when(value, workspace)`: whether a value is a path at all (a package name or a session id
    is not); None: every value is."""
    also_under: str = ""
    """Another path field a relative value may be taken from as well (`package` under `root`)."""

    def applies(self, value: str, workspace: Path) -> bool:
        return self.when is None or self.when(value, workspace)


@dataclass(frozen=True)
class CallBudget:
    """Field metadata: a whole-call budget in seconds; the server's deadline grows to fit it."""

    margin: float = 60.0
    """Seconds the deadline keeps beyond the budget, for reporting after it runs out."""


def path_param(field: Any) -> PathParam | None:
    """The `PathParam` of a pydantic field, if it carries one."""
    return next((item for item in field.metadata if isinstance(item, PathParam)), None)


def call_budget(field: Any) -> CallBudget | None:
    """The `CallBudget` of a pydantic field, if it carries one."""
    return next((item for item in field.metadata if isinstance(item, CallBudget)), None)


class Input(BaseModel):
    """Base of every input model: unknown parameters are refused; see the module docstring."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _as_agents_send_it(cls, value: Any, info: ValidationInfo) -> Any:
        name = info.field_name or ""
        field = cls.model_fields.get(name)
        if field is None:
            return value
        shape = _shape(field.annotation)
        if shape == "list" and _is_scalar(value):
            value = [value]
        if shape == "list" and isinstance(value, list):
            value = [_as_text(item) for item in value]
        elif shape == "str":
            value = _as_text(value)
        elif shape in ("int", "float") and isinstance(value, bool):
            raise PydanticCustomError(
                "number_not_boolean",
                "expected a number but got the boolean {value}",
                {"value": "true" if value else "false"},
            )
        for text in _strings(value):
            _check_text(text)
        if path_param(field) is not None:
            for text in _strings(value):
                _check_path(text)
            value = _home(value)
        return value


def _shape(annotation: Any) -> str:
    """`list`, `str`, `int`, `float`, `bool` or `other`, seeing through `X | None` and Literals."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _shape(inner[0]) if len(inner) == 1 else "other"
    if origin is typing.Literal:
        values = typing.get_args(annotation)
        return "str" if all(isinstance(v, str) for v in values) else "other"
    if origin in (list, tuple, set, frozenset):
        return "list"
    kinds: dict[Any, str] = {bool: "bool", int: "int", float: "float", str: "str"}
    return kinds.get(annotation, "other")


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _as_text(value: Any) -> Any:
    """A JSON number given for a string: its usual spelling (`258`, `1.5`)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise PydanticCustomError(
            "nul_character", "holds a NUL character, which no path, pattern or argument can carry"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise PydanticCustomError(
            "unpaired_surrogate", "holds an unpaired UTF-16 surrogate; send valid Unicode text"
        ) from None


def _home(value: Any) -> Any:
    """`~` and `~user` expanded, as a shell would before the CLI sees a path: an agent's `~/src`
    means the same directory, and the provider and the server's confinement read it alike."""
    if isinstance(value, str) and value.startswith("~"):
        return os.path.expanduser(value)
    if isinstance(value, list):
        return [_home(item) for item in value]
    return value


def _check_path(text: str) -> None:
    size = len(text.encode("utf-8"))
    if size > PATH_MAX:
        raise PydanticCustomError(
            "path_too_long",
            "a path of {size} bytes is longer than any system allows ({limit}); pass a shorter path",
            {"size": size, "limit": PATH_MAX},
        )
    for part in text.replace("\\", "/").split("/"):
        if len(part.encode("utf-8")) > NAME_MAX:
            raise PydanticCustomError(
                "name_too_long",
                "the name {name} is longer than {limit} bytes, the longest any file system allows",
                {"name": quote(part, 40), "limit": NAME_MAX},
            )


# -- what a refusal says ------------------------------------------------------------------------------

Shown = Callable[[Any], str]
"""How an edge shows a value the caller sent (JSON over MCP, as typed in the CLI)."""


def problem(model: type[BaseModel], error: Any, shown: Shown) -> str:
    """One validation error of `model` in sofia's words, without naming where (each edge names the
    parameter its own way): `at most 8 values, not 9`, `0 or more, not -1`, `a whole number, e.g.
    30, not "abc"`, `unknown "repoo"; did you mean repo? (one of: workspace, repo)` — never
    pydantic's own sentences."""
    kind = str(error.get("type", ""))
    context = error.get("ctx") or {}
    loc = error.get("loc") or ()
    field = model.model_fields.get(str(loc[0])) if loc else None
    value = error.get("input")
    got = f", not {shown(value)}" if "input" in error and not isinstance(value, dict) else ""
    words = _WORDED.get(kind)
    if kind == "missing":
        return "required"
    if kind == "extra_forbidden":
        from sofia.errors import did_you_mean

        name = str(loc[-1]) if loc else ""
        guess = did_you_mean(name, model.model_fields)
        known = ", ".join(model.model_fields) or "no parameters"
        return (
            f"unknown parameter; {guess} (known: {known})" if guess else f"unknown parameter (known: {known})"
        )
    if kind in ("literal_error", "enum"):
        from sofia.errors import not_a_choice

        return not_a_choice(str(value), _choices(field), shown(value))
    if kind == "too_long":
        return f"at most {context.get('max_length')} values, not {context.get('actual_length')}"
    if kind == "too_short":
        least = context.get("min_length")
        return f"at least {least} value{'s' if least != 1 else ''}, not {context.get('actual_length')}"
    if kind == "string_too_long":
        length = f", not {len(value):,}" if isinstance(value, str) else ""
        return f"at most {context.get('max_length'):,} characters{length}"
    if kind == "string_too_short":
        least = context.get("min_length", 1)
        return "must not be empty" if least == 1 else f"at least {least} characters{got}"
    if kind in _BOUNDS:
        return f"{_BOUNDS[kind].format(bound=_number(context.get(_BOUND_KEYS[kind])))}{got}"
    if kind in _NUMBERS or kind == "number_not_boolean":
        whole = _shape(field.annotation) == "int" if field is not None else kind.startswith("int")
        example = _example(field, whole)
        if kind == "number_not_boolean":
            got = f", not the boolean {'true' if value else 'false'}"
        return f"{'a whole number' if whole else 'a number'}, e.g. {example}{got}"
    if words is not None:
        return f"{words}{got}"
    message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
    return message[:1].lower() + message[1:]


_WORDED = {
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": 'text, e.g. "src"',
    "list_type": 'a list, e.g. ["a", "b"]',
    "dict_type": "an object",
}
_BOUNDS = {
    "greater_than_equal": "{bound} or more",
    "greater_than": "more than {bound}",
    "less_than_equal": "{bound} or less",
    "less_than": "less than {bound}",
}
_BOUND_KEYS = {"greater_than_equal": "ge", "greater_than": "gt", "less_than_equal": "le", "less_than": "lt"}
_NUMBERS = ("int_type", "int_parsing", "int_from_float", "float_type", "float_parsing", "int_parsing_size")


def _number(value: Any) -> str:
    """A bound as a person writes it: `0`, not `0.0`; `1,000` for large ones."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _choices(field: Any) -> list[str]:
    annotation = field.annotation if field is not None else None
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        annotation, origin = inner[0], typing.get_origin(inner[0])
    if origin in (list, tuple, set, frozenset):
        annotation = typing.get_args(annotation)[0]
        origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return [str(value) for value in typing.get_args(annotation)]
    return []


def _example(field: Any, whole: bool) -> str:
    """A value the field accepts: its default when that is a number, else its lower bound, else 1."""
    default = getattr(field, "default", None)
    if isinstance(default, int | float) and not isinstance(default, bool):
        return str(int(default) if whole else default)
    for item in getattr(field, "metadata", []):
        for name, step in (("ge", 0), ("gt", 1)):
            bound = getattr(item, name, None)
            if isinstance(bound, int | float) and not isinstance(bound, bool):
                return str(int(bound + step) if whole else bound + step)
    return "1"
