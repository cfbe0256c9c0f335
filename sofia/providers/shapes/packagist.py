"""The Packagist tools (docs/packagist.md)."""

from __future__ import annotations

from sofia.providers.shapes.common import NOTES, OMITTED

SHAPES = {
    "packagist_status": {
        "root": "str",
        "packages": [
            {
                "name": "str",
                "dir": "str",
                "local_tag": "str",
                "pushed": "str",
                "packagist": "str",
                "state": "str",
                "cause": "str",
            }
        ],
        "summary": {"in_sync": "int", "drift": "int", "unknown": "int"},
        "notes": NOTES,
        "omitted?": OMITTED,
    },
    "packagist_release": {
        "package": "str",
        "dir": "str",
        "repo": "str",
        "version": "str",
        "tag": "str",
        "dry_run": "bool",
        "steps": [{"step": "str", "status": "str", "command": "str", "detail": "str"}],
        "flags": ["str"],
        "finish_by_hand": ["str"],
        "notes": NOTES,
        "omitted": OMITTED,
    },
}
