"""Glob patterns as `code` accepts them (the caller's dialect of `sofia.runtime.globs`): `*`/`?`
within one path segment (dotfiles included), `[...]` classes negated by `!` or `^`, `{a,b}`
alternatives and `**` across segments; a malformed pattern is an error that says what is wrong."""

from __future__ import annotations

import re

from sofia.runtime import globs
from sofia.runtime.globs import GlobError as GlobError

GLOB_CHARS = "*?[{"


def is_glob(text: str) -> bool:
    return any(c in text for c in GLOB_CHARS)


def expand_braces(pattern: str) -> list[str]:
    """`src/{a,b}/*.{ts,vue}` → the four patterns without braces, in order (nesting allowed)."""
    return globs.expand_braces(pattern, globs.CALLER)


def literal_prefix(pattern: str) -> str:
    """The leading directory segments without glob characters (`src/app` of `src/app/**/*.ts`)."""
    parts = pattern.split("/")
    literal: list[str] = []
    for part in parts[:-1]:
        if is_glob(part):
            break
        literal.append(part)
    if pattern.startswith("/") and not literal[1:]:
        return "/"
    return "/".join(literal)


def compile_glob(pattern: str) -> re.Pattern[str]:
    """A regex matching whole paths (as written relative to the same base) against a brace-free glob."""
    return globs.compile_glob(pattern, globs.CALLER, dot=True)


def matches(regex: re.Pattern[str], path: str, prefix: str) -> bool:
    """Whether `path` or one of its directories below `prefix` matches (a matched directory is walked)."""
    if regex.fullmatch(path):
        return True
    parts = path.split("/")
    floor = len(prefix.split("/")) if prefix not in ("", ".") else 0
    return any(regex.fullmatch("/".join(parts[:depth])) for depth in range(max(floor, 1), len(parts)))
