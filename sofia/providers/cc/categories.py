"""Bash command categories: ordered keyword rules over the lower-cased command, first match wins.

Every keyword needs an ASCII word boundary on both sides, so `cat tsconfig.json` is `read`, not a
`tsc` build, and Cyrillic letters next to a keyword do not change the result.
"""

from __future__ import annotations

import re

_RULES: tuple[tuple[str, str], ...] = (
    (
        "test",
        r"\b(?:phpunit|pest|jest|vitest|pytest|go test|cargo test|rspec|mocha|playwright)\b"
        r"|\b(?:npm|yarn|pnpm|composer) (?:run )?test\b"
        r"|\bmake test\b|/vendor/bin/(?:phpunit|pest|phpstan|psalm)\b",
    ),
    (
        "db",
        r"\b(?:mysql|psql|sqlite3|mysqldump|pg_dump|mongosh|redis-cli)\b"
        r"|\b(?:artisan|doctrine|migrate|sequelize|prisma|alembic|flyway)\b",
    ),
    ("git", r"\bgit\b"),
    (
        "build",
        r"\b(?:go build|go install|go run|cargo build|tsc|vite build|webpack|rollup|esbuild|docker build|make)\b"
        r"|\b(?:npm|yarn|pnpm|composer|pip|poetry|bundle|gradle|mvn)\b",
    ),
    ("search", r"\b(?:grep|rg|ag|ack|fd|find)\b"),
    ("read", r"\b(?:cat|head|tail|less|bat|sed|awk|jq|wc)\b"),
    ("fs", r"\b(?:mkdir|rm|mv|cp|touch|ln|chmod|chown|ls|tree|stat)\b"),
)

_COMPILED = tuple((name, re.compile(pattern, re.ASCII)) for name, pattern in _RULES)

CATEGORIES = (*(name for name, _ in _RULES), "other")
"""Every category name, in rule order."""


def category(command: str) -> str:
    """The category of a (redacted) shell command."""
    text = command.lower()
    for name, pattern in _COMPILED:
        if pattern.search(text):
            return name
    return "other"
