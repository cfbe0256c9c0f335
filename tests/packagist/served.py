"""What the tests over every served tool call and check for `packagist_status` (see tests/served.py)."""

from __future__ import annotations

from tests.served import Case, Row

ROWS = {
    "packagist_status": Row({"root": "php"}, ("packages",), lambda p: '"state":"in-sync"' in p),
}
CASES = [
    Case(
        "packagist_status",
        {"root": "lib", "offline": True},
        ["packagist", "status", "--root", "lib", "--offline"],
        "nor Packagist was asked; drop offline to compare",
        "nor Packagist was asked; drop --offline to compare",
    ),
]
