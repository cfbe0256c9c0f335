"""What the tests over every served tool call and check for `code` (see tests/served.py)."""

from __future__ import annotations

from tests.served import Case, Row

ROWS = {
    "code": Row({"files": ["app/src/Models/Widget.php"]}, ("files",), lambda p: "final class Widget" in p),
}
CASES = [
    Case(
        "code",
        {"files": ["repo/src/a.py"], "api": True},
        ["code", "repo/src/a.py", "--api"],
        "api applies to PHP classes; other files are summarised as with exported=true",
        "--api applies to PHP classes; other files are summarised as with --exported",
    ),
    Case(
        "code",
        {"files": ["repo/src/a.py"], "symbols": [" "]},
        ["code", "repo/src/a.py", "--symbol", " "],
        "or leave symbols out for summaries",
        "or leave --symbol out for summaries",
        error=True,
    ),
]
