"""What the tests over every served tool call and check for `vue_routes` (see tests/served.py)."""

from __future__ import annotations

from tests.served import Case, Row

ROWS = {
    "vue_routes": Row({"root": "app"}, ("routes",), lambda p: "/widgets/:id" in p),
}
CASES = [
    Case(
        "vue_routes",
        {},
        ["vue", "routes"],
        "pass file=… (src/router.ts, say)",
        "pass FILE (src/router.ts, say)",
        error=True,
    ),
]
