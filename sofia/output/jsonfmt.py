"""JSON encoding with orjson: compact for MCP payloads, indented for people; keys keep their order."""

from __future__ import annotations

from typing import Any

import orjson


def compact(obj: Any) -> bytes:
    """Compact UTF-8 JSON, byte-identical for identical input (no sorting: key order is the contract)."""
    return orjson.dumps(obj)


def pretty(obj: Any) -> str:
    """Two-space indented JSON with a trailing newline, for the CLI's `--json`."""
    return orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE).decode()


def loads(data: bytes | str) -> Any:
    return orjson.loads(data)
