"""`grep`: per pattern, its exact totals and the hits shown grouped under their file (docs/grep.md)."""

from __future__ import annotations

from sofia.providers.shapes.common import NOTES, OMITTED

HIT = {"line": "int", "col": "int", "symbol": "str", "text": "str"}
"""One line that matched, with the qualified name of the definition enclosing it ("" when none)."""

SHAPES = {
    "grep": {
        "root": "str",
        "patterns": [
            {
                "pattern": "str",
                "total": "int",
                "files": "int",
                "shown": "int",
                "hits": {"*": [HIT]},
                "more_in?": [{"file": "str", "hits": "int"}],
            }
        ],
        "empty": ["str"],
        "skipped?": [{"path": "str", "reason": "str"}],
        "notes": NOTES,
        "omitted?": OMITTED,
    },
}
