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
