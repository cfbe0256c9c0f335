"""`changed`: the files a diff touches, with their symbols and exact totals (docs/changed.md)."""

from __future__ import annotations

from sofia.providers.shapes.common import NOTES, OMITTED

SHAPES = {
    "changed": {
        "spec": "str",
        "files": [
            {
                "status": "str",
                "path": "str",
                "old_path?": "str",
                "category": "str",
                "lang?": "str",
                "adds": "int",
                "dels": "int",
                "symbols?": "str",
            }
        ],
        "binary?": ["str"],
        "totals": {"files": "int", "adds": "int", "dels": "int"},
        "by_category": [{"category": "str", "files": "int", "adds": "int", "dels": "int"}],
        "notes": NOTES,
        "omitted?": OMITTED,
    },
}
