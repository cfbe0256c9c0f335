"""Glob patterns as `code` accepts them: `*`/`?` within one path segment (dotfiles included),
`[...]` classes negated by `!` or `^`, `{a,b}` alternatives and `**` across segments."""

from __future__ import annotations

import re

GLOB_CHARS = "*?[{"


class GlobError(ValueError):
    """A malformed pattern; the message says what is wrong."""


def is_glob(text: str) -> bool:
    return any(c in text for c in GLOB_CHARS)


def expand_braces(pattern: str) -> list[str]:
    """`src/{a,b}/*.{ts,vue}` → the four patterns without braces, in order (nesting allowed)."""
    start = pattern.find("{")
    if start < 0:
        if "}" in pattern:
            raise GlobError("unmatched '}'")
        return [pattern]
    depth, alternatives, begin = 0, [], start + 1
    for index in range(start, len(pattern)):
        char = pattern[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                alternatives.append(pattern[begin:index])
                head, tail = pattern[:start], pattern[index + 1 :]
                if "}" in head:
                    raise GlobError("unmatched '}'")
                return [
                    expanded
                    for alternative in alternatives
                    for expanded in expand_braces(head + alternative + tail)
                ]
        elif char == "," and depth == 1:
            alternatives.append(pattern[begin:index])
            begin = index + 1
    raise GlobError("unmatched '{'")


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


def segment_regex(segment: str) -> str:
    """Regex for one path segment: `*` and `?` never cross `/`; `[!a-z]`/`[^a-z]` negate."""
    out: list[str] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            while index + 1 < len(segment) and segment[index + 1] == "*":
                index += 1
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = index + 1
            if end < len(segment) and segment[end] in "!^":
                end += 1
            if end < len(segment) and segment[end] == "]":
                end += 1
            end = segment.find("]", end)
            if end < 0:
                raise GlobError("unmatched '['")
            body = segment[index + 1 : end]
            negate = body[:1] in ("!", "^")
            if negate:
                body = body[1:]
            if not body:
                raise GlobError("empty character class '[]'")
            escaped = body.replace("\\", "\\\\").replace("[", "\\[").replace("^", "\\^")
            out.append(f"[^/{escaped}]" if negate else f"[{escaped}]")
            index = end
        elif char == "]":
            raise GlobError("unmatched ']'")
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def compile_glob(pattern: str) -> re.Pattern[str]:
    """A regex matching whole paths (as written relative to the same base) against a brace-free glob."""
    parts = pattern.split("/")
    out = ""
    for index, segment in enumerate(parts):
        last = index == len(parts) - 1
        if segment == "**":
            out += "(?:[^/]+(?:/[^/]+)*)?" if last else "(?:[^/]+/)*"
        else:
            out += segment_regex(segment) + ("" if last else "/")
    return re.compile(out)


def matches(regex: re.Pattern[str], path: str, prefix: str) -> bool:
    """Whether `path` or one of its directories below `prefix` matches (a matched directory is walked)."""
    if regex.fullmatch(path):
        return True
    parts = path.split("/")
    floor = len(prefix.split("/")) if prefix not in ("", ".") else 0
    return any(regex.fullmatch("/".join(parts[:depth])) for depth in range(max(floor, 1), len(parts)))
