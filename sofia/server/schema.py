"""Tool input schemas from the providers' pydantic models: flat, and only what an agent needs.

pydantic's own schema carries a title on every property and the model, the model's docstring,
`$defs`/`$ref` for nested models and Literal enums, `anyOf [..., null]` for optional fields and
no default for `default_factory` fields. Tool definitions are paid for in every agent turn, so
the titles and docstring go, references are inlined, `X | None = None` becomes plain `X`
(leaving it out means the default) and every other default is shown.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode
from pydantic_core import CoreSchema, to_jsonable_python

from sofia.errors import render_all

_LEADING_KEYS = ("type", "description", "default")


class _NoTitles(GenerateJsonSchema):
    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> dict[str, Any]:
        generated = super().generate(schema, mode=mode)
        generated.pop("title", None)
        return generated


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The flat JSON schema of `model`, as sent in `tools/list` (parameter references spelled)."""
    raw = model.model_json_schema(schema_generator=_NoTitles)
    definitions = raw.pop("$defs", {})
    properties: dict[str, Any] = {}
    for name, prop in raw.get("properties", {}).items():
        properties[name] = _tidy(_inline(prop, definitions))
    for name, field in model.model_fields.items():
        key = field.alias or name
        if key in properties and "default" not in properties[key] and field.default_factory is not None:
            if not field.default_factory_takes_validated_data:
                properties[key]["default"] = to_jsonable_python(field.default_factory())  # type: ignore[call-arg]
            properties[key] = _tidy(properties[key])
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if raw.get("required"):
        schema["required"] = list(raw["required"])
    schema["additionalProperties"] = False
    # A description naming a parameter (`param`) reads as the MCP caller writes it.
    rendered: dict[str, Any] = render_all(schema)
    return rendered


def _inline(node: Any, definitions: dict[str, Any]) -> Any:
    """`node` with every `$ref` replaced by the definition it points at (titles dropped)."""
    if isinstance(node, list):
        return [_inline(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = definitions.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
        merged = {**_inline(target, definitions), **{k: v for k, v in node.items() if k != "$ref"}}
        merged.pop("title", None)
        return merged
    return {key: _inline(value, definitions) for key, value in node.items() if key != "title"}


def _tidy(prop: dict[str, Any]) -> dict[str, Any]:
    """`type`, `description`, `default` first for the reader; `X | None = None` shown as plain `X`.

    An optional field whose default is "not given" behaves exactly as when it is left out, so its
    schema is the plain type without a default: a single `type` is what every client dialect
    understands (Gemini's OpenAPI subset rejects type lists), and it is shorter.
    """
    variants = prop.get("anyOf")
    if (
        isinstance(variants, list)
        and prop.get("default", 0) is None
        and {"type": "null"} in variants
        and len(variants) == 2
    ):
        (plain,) = (v for v in variants if v != {"type": "null"})
        prop = {**plain, **{k: v for k, v in prop.items() if k not in ("anyOf", "default")}}
    ordered = {key: prop[key] for key in _LEADING_KEYS if key in prop}
    ordered.update({key: value for key, value in prop.items() if key not in ordered})
    return ordered
