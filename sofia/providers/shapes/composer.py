"""The Composer tools (docs/composer.md)."""

from __future__ import annotations

from sofia.providers.shapes.common import NOTES, OMITTED

_AUTOLOAD = [{"kind": "str", "key": "str", "paths": "str"}]
"""One autoload rule: `psr-4`, `psr-0`, `classmap` or `files`, its namespace, its paths joined by spaces."""
_REQUIRE = [{"name": "str", "constraint": "str"}]

SHAPES = {
    "composer_ls": {
        "root": "str",
        "packages": [
            {
                "name": "str",
                "dir": "str",
                "version": "str",
                "type": "str",
                "php": "str",
                "phpstan": "str",
                "namespaces": "str",
                "scripts": "str",
                "deps": "str",
                "dev_deps": "str",
            }
        ],
        "errors": [{"dir": "str", "error": "str"}],
        "notes": NOTES,
    },
    "composer_show": {
        "name": "str",
        "dir": "str",
        "description": "str",
        "version": "str",
        "type": "str",
        "license": "str",
        "php": "str",
        "phpstan": "str",
        "scripts": [{"name": "str", "commands": "str"}],
        "autoload": _AUTOLOAD,
        "autoload_dev": _AUTOLOAD,
        "require": _REQUIRE,
        "require_dev": _REQUIRE,
        "lock": {
            "present": "bool",
            "fresh": "bool|null",
            "content_hash": "str",
            "expected_hash": "str",
            "locked": [{"name": "str", "constraint": "str", "version": "str", "dev": "bool"}],
            "not_locked": ["str"],
        },
        "vendor_installed": "bool",
        "notes": NOTES,
        "omitted?": OMITTED,
    },
    "composer_check": {
        "root": "str",
        "script": "str",
        "wall_ms": "int",
        "summary": {"ok": "int", "fail": "int", "skip": "int", "timeout": "int", "error": "int"},
        "results": [
            {
                "package": "str",
                "dir": "str",
                "status": "str",
                "exit_code": "int",
                "duration_ms": "int",
                "failed_step": "str",
                "first_failure": "str",
            }
        ],
        "notes": NOTES,
        "omitted?": OMITTED,
    },
}
