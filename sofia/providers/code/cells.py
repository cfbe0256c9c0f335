"""Cell formatting shared by every summariser, so signatures, values and relations read the same
in every language (docs/code.md, "What a summary holds")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from sofia.output.tables import cut

DEFAULT_CUT = 24
"""Parameter defaults and values are cut to this many characters."""
DETAIL_CUT = 160

_AFTER_OPEN = re.compile(r"([(\[{]) ")
_BEFORE_CLOSE = re.compile(r" ([)\]}])")
_TRAILING_COMMA = re.compile(r",\s+([)\]}])")

ELIDABLE: dict[str, dict[str, object]] = {
    "types": {
        "vis": "public",
        "mods": "",
        "extends": "",
        "implements": "",
        "uses": "",
        "attrs": "",
        "detail": "",
    },
    "functions": {"owner": "", "vis": "public", "mods": "", "attrs": "", "via": ""},
    "properties": {"type": "", "vis": "public", "mods": "", "value": "", "attrs": "", "via": ""},
    "ctor": {"type": "", "promoted": False},
    "constants": {"owner": "", "type": "", "value": "", "via": ""},
    "cases": {"value": ""},
}
"""Per table, the columns removed from every row when every row holds the default: elision is per
table, never per row, so TOON can still write one header for all its rows."""


def collapse(text: str) -> str:
    """Whitespace runs to one space, none just inside brackets, no trailing comma before a closer."""
    flat = " ".join(text.split())
    if ", " in flat:
        flat = _TRAILING_COMMA.sub(r"\1", flat)
    if "( " in flat or "[ " in flat or "{ " in flat:
        flat = _AFTER_OPEN.sub(r"\1", flat)
    if " )" in flat or " ]" in flat or " }" in flat:
        flat = _BEFORE_CLOSE.sub(r"\1", flat)
    return flat


def default(text: str) -> str:
    """A parameter default as shown in `sig`: collapsed and cut at 24 characters."""
    return cut(collapse(text), DEFAULT_CUT)


def value(text: str) -> str:
    """A short literal's `value` cell: collapsed and cut at 24 characters. A one-line string
    literal keeps its spacing (`"a }"` is not `"a}"`): it is the value."""
    text = text.strip()
    if text[:1] in ("'", '"') and "\n" not in text:
        return cut(text, DEFAULT_CUT)
    return cut(collapse(text), DEFAULT_CUT)


def detail(text: str) -> str:
    return cut(collapse(text), DETAIL_CUT)


def join(items: Iterable[str], separator: str = ", ") -> str:
    """A multi-valued cell: the non-empty items joined (relations by `, `, attributes by `; `)."""
    return separator.join(item for item in items if item)


def mods(items: Iterable[str]) -> str:
    return " ".join(item for item in items if item)
