"""What the tests over every served tool call and check for `changed` (see tests/served.py)."""

from __future__ import annotations

from tests.served import SMALL, Case, Row

ROWS = {
    "changed": Row({"root": "app"}, ("files",), lambda p: "+Widget::caption; -Widget::label" in p),
}
CASES = [
    Case(
        "changed",
        {"range": "HEAD~1..HEAD", "staged": True, "root": "repo"},
        ["changed", "HEAD~1..HEAD", "--staged", "--root", "repo"],
        "staged cannot be combined with the range HEAD~1..HEAD (use staged with no range",
        "--staged cannot be combined with the range HEAD~1..HEAD (use --staged with no range",
        error=True,
    ),
    Case(
        "changed",
        {"root": "plain"},
        ["changed", "--root", "plain"],
        "(run inside a repository or pass root=…, a directory inside one)",
        "(run inside a repository or pass --root DIR, a directory inside one)",
        error=True,
    ),
    Case(
        "changed",
        {"root": "repo"},
        ["changed", "--root", "repo"],
        "; narrow with paths=[…]",
        "; narrow with -- PATH...",
        budget=SMALL,
    ),
]
