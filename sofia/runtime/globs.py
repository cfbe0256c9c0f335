"""Glob patterns as regular expressions, in the dialects sofia reads (one translator for both).

Common to every dialect: `*` and `?` stay within one path segment, `**` spans any number of
directories, `{a,b}` alternates (nesting allowed, at most MAX_EXPANSIONS patterns), `[...]` is a
class of one character that is never `/`, negated by a leading `!` or `^`. What differs is a
`Dialect`: whether `\\` escapes the next character, whether a malformed bracket or brace is an
error or literal text, and whether a one-item brace (`{a}`) is that item. Whether wildcards match
names starting with `.` is chosen per pattern (`dot`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_EXPANSIONS = 256
"""Patterns one brace expression may expand to (`{a,b}{c,d}…` grows exponentially)."""


class GlobError(ValueError):
    """A malformed or uninterpreted pattern; the message says what is wrong. Internal, a ValueError
    as its catchers expect (the drawing in `sofia.errors` says why it is not a SofiaError)."""


@dataclass(frozen=True)
class Dialect:
    escapes: bool
    """`\\` makes the next character literal."""
    strict: bool
    """An unmatched `[`, `]`, `{` or `}` is an error; otherwise it is literal text."""
    single_braces: bool
    """`{a}` is the one alternative `a`; otherwise the pattern is refused as not interpreted."""


CALLER = Dialect(escapes=False, strict=True, single_braces=True)
"""Patterns a caller types (`code`'s files): a typo is an error that says where."""
VITE = Dialect(escapes=True, strict=False, single_braces=False)
"""`import.meta.glob`, as picomatch reads it."""


def expand_braces(pattern: str, dialect: Dialect) -> list[str]:
    """`src/{a,b}/*.{ts,vue}` → the four patterns without braces, in order."""
    expanded = _expand(pattern, dialect)
    if len(expanded) > MAX_EXPANSIONS:
        raise GlobError(f"more than {MAX_EXPANSIONS} alternatives: {pattern}")
    return expanded


def _expand(pattern: str, dialect: Dialect) -> list[str]:
    start = _find(pattern, "{", 0, dialect)
    if start < 0:
        if dialect.strict and _find(pattern, "}", 0, dialect) >= 0:
            raise GlobError("unmatched '}'")
        return [pattern]
    if dialect.strict and _find(pattern[:start], "}", 0, dialect) >= 0:
        raise GlobError("unmatched '}'")
    depth, alternatives, begin, index = 0, [], start + 1, start
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and dialect.escapes:
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                alternatives.append(pattern[begin:index])
                break
        elif char == "," and depth == 1:
            alternatives.append(pattern[begin:index])
            begin = index + 1
        index += 1
    else:
        if dialect.strict:
            raise GlobError("unmatched '{'")
        return [pattern]
    if len(alternatives) == 1 and not dialect.single_braces:
        raise GlobError(f"brace ranges and one-item braces are not interpreted: {pattern}")
    head, tail = pattern[:start], pattern[index + 1 :]
    expanded: list[str] = []
    for alternative in alternatives:
        expanded.extend(_expand(head + alternative + tail, dialect))
        if len(expanded) > MAX_EXPANSIONS:
            break
    return expanded


def _find(pattern: str, wanted: str, start: int, dialect: Dialect) -> int:
    """Where `wanted` first stands unescaped, or -1."""
    index = start
    while index < len(pattern):
        if pattern[index] == "\\" and dialect.escapes:
            index += 2
            continue
        if pattern[index] == wanted:
            return index
        index += 1
    return -1


def compile_glob(pattern: str, dialect: Dialect, *, dot: bool) -> re.Pattern[str]:
    """A regex matching whole paths, written as the brace-free `pattern` is (relative to the same
    base, or both absolute). Without `dot`, no wildcard matches a name starting with `.`."""
    hidden = "" if dot else r"(?!\.)"
    segments = pattern.split("/")
    out: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            out.append(f"(?:{hidden}[^/]+(?:/{hidden}[^/]+)*)?" if last else f"(?:{hidden}[^/]+/)*")
            continue
        guard = "" if dot or segment.startswith(".") or not segment else hidden
        out.append(guard + segment_regex(segment, dialect) + ("" if last else "/"))
    return re.compile("".join(out))


def segment_regex(segment: str, dialect: Dialect) -> str:
    """Regex for one path segment."""
    out: list[str] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "\\" and dialect.escapes and index + 1 < len(segment):
            out.append(re.escape(segment[index + 1]))
            index += 2
            continue
        if char == "*":
            while index + 1 < len(segment) and segment[index + 1] == "*":
                index += 1
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = _class_end(segment, index, dialect)
            if end < 0:
                out.append(re.escape(char))
            else:
                out.append(_class(segment[index + 1 : end]))
                index = end
        elif char == "]" and dialect.strict:
            raise GlobError("unmatched ']'")
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def _class_end(segment: str, start: int, dialect: Dialect) -> int:
    """Where the class opened at `start` closes (a `]` right after the opening, or after its `!`
    or `^`, is a member); -1 when it does not, which the strict dialect refuses."""
    end = start + 1
    if end < len(segment) and segment[end] in "!^":
        end += 1
    if end < len(segment) and segment[end] == "]":
        end += 1
    end = segment.find("]", end)
    if end < 0 and dialect.strict:
        raise GlobError("unmatched '['")
    return end


def _class(body: str) -> str:
    """A class's regex; `_class_end` makes sure it has a member."""
    negate = body[:1] in ("!", "^")
    members = (body[1:] if negate else body).replace("\\", "\\\\").replace("[", "\\[").replace("^", "\\^")
    return f"[^/{members}]" if negate else f"[{members}]"
