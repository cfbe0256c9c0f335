"""What the tests over every served tool call and check for `refs` (see tests/served.py)."""

from __future__ import annotations

from tests.served import Case, Row

ROWS = {
    "refs": Row(
        {"symbols": ["Widget::caption"], "root": "app"},
        ("symbols",),
        lambda p: '"qname":"Widget::caption"' in p,
    ),
}
CASES = [
    Case(
        "refs",
        {"symbols": ["needle"], "max_per_symbol": 1, "root": "repo"},
        ["refs", "needle", "--max-per-symbol", "1", "--root", "repo"],
        "showing 1 of 3 uses (max_per_symbol=1); needle: raise max_per_symbol or narrow with root, exts, kinds",
        "showing 1 of 3 uses (--max-per-symbol 1); needle: raise --max-per-symbol or narrow with --root, --ext, --kind",
    ),
]
