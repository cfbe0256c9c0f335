"""`vue_routes`: the route table, one row per route, `file` indexing the modules read (docs/vue.md)."""

from __future__ import annotations

from sofia.providers.shapes.common import NOTES, OMITTED, STATS

SHAPES = {
    "vue_routes": {
        "files": ["str"],
        "routes": [
            {
                "path": "str",
                "name?": "str",
                "component?": "str",
                "meta?": "str",
                "depth?": "int",
                "redirect?": "str",
                "alias?": "str",
                "file?": "int",
            }
        ],
        "notes": NOTES,
        "omitted?": OMITTED,
        "stats": STATS,
    },
}
