"""`refs`: per symbol, its definitions and its uses grouped under their file, as grep's hits are
(docs/refs.md)."""

from __future__ import annotations

from sofia.providers.shapes.common import NOTES, OMITTED, STATS

DEFINITION = {
    "file": "str",
    "line": "int",
    "col": "int",
    "end_line": "int",
    "kind": "str",
    "qname": "str",
    "sig": "str",
    "uses": "int",
}
USE = {"line": "int", "col": "int", "kind": "str", "in": "str"}
"""One use: where, how the name is used (`call`, `new`, `reference`, ...) and the definition it is in."""
USES = {"*": [USE]}
"""Uses by file, files in path order: a path is written once, not per use (`exact` holds the uses
of this very symbol, `name` those of the name that may be another's)."""

SHAPES = {
    "refs": {
        "root": "str",
        "symbols": [
            {
                "symbol": "str",
                "totals": {"*": "int"},
                "kinds": {"*": "int"},
                "definitions?": [DEFINITION],
                "exact?": USES,
                "name?": USES,
            }
        ],
        "notes": NOTES,
        "omitted?": OMITTED,
        "stats": STATS,
    },
}
