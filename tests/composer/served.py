"""What the tests over every served tool call and check for the `composer_*` tools (see tests/served.py)."""

from __future__ import annotations

from tests.served import Case, Row

ROWS = {
    "composer_ls": Row({"root": "php"}, ("packages",), lambda p: "acme/array-reader" in p),
    "composer_show": Row(
        {"package": "acme/array-reader", "root": "php"}, ("name",), lambda p: "Typed reads" in p
    ),
    "composer_check": Row(
        {"package": "array-reader", "root": "php"}, ("results",), lambda p: '"status":"ok"' in p
    ),
}
CASES = [
    Case(
        "composer_ls",
        {"root": "nope"},
        ["composer", "ls", "--root", "nope"],
        "(pass an existing directory (or a composer.json) as root)",
        "(pass an existing directory (or a composer.json) as --root)",
        error=True,
    ),
    Case(
        "composer_show",
        {"package": "zzz", "root": "lib"},
        ["composer", "show", "zzz", "--root", "lib"],
        "a directory name or a path (composer_ls lists them)",
        "a directory name or a path (sf composer ls lists them)",
        error=True,
    ),
    Case(
        "composer_check",
        {"root": "lib", "script": "nosuch"},
        ["composer", "check", "--root", "lib", "--script", "nosuch"],
        "no package defines a 'nosuch' script; pick another with script",
        "no package defines a 'nosuch' script; pick another with --script",
    ),
]
