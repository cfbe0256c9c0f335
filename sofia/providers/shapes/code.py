"""`code`: summaries, raw files and slices, one document per file (docs/code.md)."""

from __future__ import annotations

from typing import Any

from sofia.providers.shapes.common import NOTES, OMITTED, STATS

_HEADER = {"path": "str", "lang": "str", "mode": "str", "lines": "int"}
_SLICE = {"symbol": "str", "kind": "str", "line": "int", "end_line": "int", "text": "str"}
_MISSING = [{"symbol": "str", "close": "str"}]
_CELL = "str|int|bool"
_TYPES = [
    {
        "kind": "str",
        "name": "str",
        "line": "int",
        "end_line": "int",
        **{
            f"{column}?": "str"
            for column in ("vis", "mods", "extends", "implements", "uses", "attrs", "detail")
        },
    }
]
_FUNCTIONS = [
    {
        "owner?": "str",
        "name": "str",
        "sig?": "str",
        "line": "int",
        "end_line": "int",
        **{f"{column}?": "str" for column in ("vis", "mods", "attrs", "via")},
    }
]
_PROPERTIES = [
    {
        "owner": "str",
        "name": "str",
        **{f"{c}?": "str" for c in ("type", "vis", "mods", "value", "attrs", "via")},
    }
]
_CTOR = [{"owner": "str", "name": "str", "type?": "str", "promoted?": _CELL}]
_CONSTANTS = [{"owner?": "str", "kind": "str", "name": "str", "type?": "str", "value?": "str", "via?": "str"}]
_CASES = [{"owner": "str", "name": "str", "value?": "str"}]
_VUE = {
    "component": "str",
    "script": "str",
    **{key: ["str"] for key in ("props", "emits", "models", "components", "stores", "composables")},
}
"""A single-file component's interface: its name, its script's kind (`setup ts`), and what it
declares and uses."""

DOCUMENT: dict[str, Any] = {
    **_HEADER,
    "namespace?": "str",
    "parse_errors?": "int",
    "reason?": "str",
    "content?": "str",
    "symbols?": ["str"],
    "slices?": [_SLICE],
    "missing?": _MISSING,
    "imports?": ["str"],
    "types?": _TYPES,
    "functions?": _FUNCTIONS,
    "properties?": _PROPERTIES,
    "ctor?": _CTOR,
    "constants?": _CONSTANTS,
    "cases?": _CASES,
    "vue?": _VUE,
    "unresolved?": ["str"],
}
"""`mode` says which keys a document has: `summary` (namespace and the tables), `raw` (reason,
content), `slice` (slices), `skipped` (reason)."""

SHAPES = {
    "code": {
        "mode?": "str",
        "files": [DOCUMENT],
        "missing?": _MISSING,
        "notes": NOTES,
        "omitted?": OMITTED,
        "stats": STATS,
    },
}
