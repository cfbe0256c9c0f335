"""Checking tool arguments against the provider's model, with messages an agent can act on.

One short line per problem, naming the parameter; never pydantic's URLs or its echo of the
whole input.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError

from sofia.errors import render

MAX_SHOWN_INPUT = 40
MAX_PROBLEMS = 20
"""Problems listed in one answer: a list of 100,000 bad items is not 100,000 lines."""


def validate(model: type[BaseModel], arguments: dict[str, Any]) -> tuple[BaseModel | None, list[str]]:
    """The validated parameters, or None and the problems found."""
    try:
        return model.model_validate(_unquote_json(model, arguments)), []
    except ValidationError as error:
        return None, problems(model, error)


def _unquote_json(model: type[BaseModel], arguments: dict[str, Any]) -> dict[str, Any]:
    """Some clients send a list or object as a JSON string (`"[\\"a\\"]"`): decode those for list fields."""
    fixed = dict(arguments)
    for name, value in arguments.items():
        field = model.model_fields.get(name)
        if field is None or not isinstance(value, str) or value[:1] not in ("[", "{"):
            continue
        origin = getattr(field.annotation, "__origin__", None)
        if origin not in (list, dict):
            continue
        try:
            decoded = orjson.loads(value)
        except orjson.JSONDecodeError:
            continue
        if isinstance(decoded, origin):
            fixed[name] = decoded
    return fixed


def problems(model: type[BaseModel], error: ValidationError) -> list[str]:
    """One line per distinct problem, at most MAX_PROBLEMS of them and a count of the rest."""
    lines: list[str] = []
    seen: set[str] = set()
    more = 0
    for item in error.errors(include_url=False):
        line = _describe(model, item)
        if line in seen:
            continue
        seen.add(line)
        if len(lines) < MAX_PROBLEMS:
            lines.append(line)
        else:
            more += 1
    if more:
        lines.append(f"… and {more:,} more problems")
    return lines


def _describe(model: type[BaseModel], item: Any) -> str:
    """`where: problem`, the problem in sofia's words (`sofia.providers.params.problem`): a type
    error shows a value that works (`max_per_pattern: a whole number, e.g. 30, not "lots"`)."""
    from sofia.providers.params import problem

    return f"{_location(item.get('loc', ()))}: {render(problem(model, item, _bounded_json))}"


def _bounded_json(value: Any) -> str:
    shown = _shown(value)
    return shown if len(shown) <= MAX_SHOWN_INPUT else shown[: MAX_SHOWN_INPUT - 1] + "…"


def _shown(value: Any) -> str:
    """`value` as JSON; a string holding a lone surrogate shows it escaped (`"\\ud800"`), the one
    spelling that neither orjson refuses nor a writer of UTF-8 chokes on."""
    try:
        return orjson.dumps(value, default=str).decode()
    except TypeError:
        return json.dumps(value, default=str)


def _location(loc: tuple[Any, ...] | list[Any]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "arguments"
