"""Tool input schemas from the providers' pydantic models: flat, and only what an agent needs.

pydantic's own schema carries a title on every property and the model, the model's docstring,
`$defs`/`$ref` for nested models and Literal enums, `anyOf [..., null]` for optional fields and
no default for `default_factory` fields. Tool definitions are paid for in every agent turn, so
the titles and docstring go, references are inlined, nullable types become `["string", "null"]`
and every default is shown.
"""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode
from pydantic_core import CoreSchema

_LEADING_KEYS = ("type", "description", "default")


class _NoTitles(GenerateJsonSchema):
    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> dict[str, Any]:
        generated = super().generate(schema, mode=mode)
        generated.pop("title", None)
        return generated


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The flat JSON schema of `model`, as sent in `tools/list`."""
    raw = model.model_json_schema(schema_generator=_NoTitles)
    definitions = raw.pop("$defs", {})
    properties: dict[str, Any] = {}
    for name, prop in raw.get("properties", {}).items():
        properties[name] = _tidy(_inline(prop, definitions))
    for name, field in model.model_fields.items():
        key = field.alias or name
        if key in properties and "default" not in properties[key] and field.default_factory is not None:
            if not field.default_factory_takes_validated_data:
                properties[key]["default"] = _jsonable(field.default_factory())  # type: ignore[call-arg]
            properties[key] = _tidy(properties[key])
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if raw.get("required"):
        schema["required"] = list(raw["required"])
    schema["additionalProperties"] = False
    return schema


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
    """Nullable unions as a type list; `type`, `description`, `default` first for the reader."""
    variants = prop.get("anyOf")
    if isinstance(variants, list) and all(isinstance(v, dict) and set(v) == {"type"} for v in variants):
        prop = {k: v for k, v in prop.items() if k != "anyOf"}
        prop["type"] = [v["type"] for v in variants]
    ordered = {key: prop[key] for key in _LEADING_KEYS if key in prop}
    ordered.update({key: value for key, value in prop.items() if key not in ordered})
    return ordered


def _jsonable(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value))
