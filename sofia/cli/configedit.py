"""Putting one MCP server entry into a client's configuration file without disturbing the rest.

Every other server, every key, the indentation, the line ends (a CRLF file stays CRLF) and (where
the format has them) the comments stay byte for byte as they were: the edit replaces or inserts
exactly one span of text. JSON files are
read as JSON with comments and trailing commas (VS Code's dialect, a superset of what the other
clients write); Codex's TOML is edited at its `[mcp_servers.NAME]` table.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """The existing file cannot be read as its format: it is left untouched. Internal, a ValueError
    of a parse `sf init` reports per client (see the drawing in `sofia.errors`)."""


def read_text(path: Path) -> tuple[str, str]:
    """The file's text with `\n` line ends ("" when it does not exist), and the line end it uses:
    `\r\n` when its first line ends so (Windows editors), else `\n`; `encode` writes it back so."""
    if not path.exists():
        return "", "\n"
    raw = path.read_bytes().decode("utf-8")
    first = raw.find("\n")
    if first > 0 and raw[first - 1] == "\r":
        return raw.replace("\r\n", "\n"), "\r\n"
    return raw, "\n"


def encode(text: str, newline: str) -> bytes:
    """`text` (with `\n` line ends) as the file's bytes, in its own line ends."""
    return (text.replace("\n", newline) if newline != "\n" else text).encode("utf-8")


# -- JSON with comments -----------------------------------------------------------------------


@dataclass
class _Node:
    """A value's span in the text; objects also know their members' spans."""

    start: int
    end: int
    members: dict[str, tuple[int, _Node]] = field(default_factory=dict)
    """key -> (start of the key's string, value node), for objects."""
    is_object: bool = False
    last_member_end: int = -1
    """Where the last member's value ends (-1 for an empty object)."""


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, what: str) -> ConfigError:
        line = self.text.count("\n", 0, self.at) + 1
        return ConfigError(f"{what} at line {line}")

    def skip(self) -> None:
        """Whitespace and // or /* */ comments."""
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char in " \t\r\n\ufeff":
                self.at += 1
            elif text.startswith("//", self.at):
                newline = text.find("\n", self.at)
                self.at = len(text) if newline < 0 else newline + 1
            elif text.startswith("/*", self.at):
                close = text.find("*/", self.at + 2)
                if close < 0:
                    raise self.fail("unterminated comment")
                self.at = close + 2
            else:
                return

    def value(self) -> _Node:
        self.skip()
        if self.at >= len(self.text):
            raise self.fail("unexpected end of file")
        char = self.text[self.at]
        if char == "{":
            return self.object()
        if char == "[":
            return self.array()
        if char == '"':
            start = self.at
            self.string()
            return _Node(start, self.at)
        match = re.compile(r"-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null").match(self.text, self.at)
        if not match:
            raise self.fail("unexpected character")
        self.at = match.end()
        return _Node(match.start(), match.end())

    def string(self) -> str:
        match = re.compile(r'"(?:[^"\\\n]|\\.)*"').match(self.text, self.at)
        if not match:
            raise self.fail("malformed string")
        self.at = match.end()
        decoded: str = json.loads(match.group(0))
        return decoded

    def object(self) -> _Node:
        node = _Node(self.at, -1, is_object=True)
        self.at += 1
        while True:
            self.skip()
            if self.text.startswith("}", self.at):
                self.at += 1
                node.end = self.at
                return node
            key_start = self.at
            if not self.text.startswith('"', self.at):
                raise self.fail("expected a quoted key")
            key = self.string()
            self.skip()
            if not self.text.startswith(":", self.at):
                raise self.fail("expected ':'")
            self.at += 1
            member = self.value()
            node.members[key] = (key_start, member)
            node.last_member_end = member.end
            self.skip()
            if self.text.startswith(",", self.at):
                self.at += 1
            elif not self.text.startswith("}", self.at):
                raise self.fail("expected ',' or '}'")

    def array(self) -> _Node:
        node = _Node(self.at, -1)
        self.at += 1
        while True:
            self.skip()
            if self.text.startswith("]", self.at):
                self.at += 1
                node.end = self.at
                return node
            self.value()
            self.skip()
            if self.text.startswith(",", self.at):
                self.at += 1
            elif not self.text.startswith("]", self.at):
                raise self.fail("expected ',' or ']'")


def parse_jsonc(text: str) -> Any:
    """The document, comments and trailing commas allowed; ConfigError when malformed."""
    scanner = _Scanner(text)
    scanner.value()
    scanner.skip()
    if scanner.at != len(text):
        raise scanner.fail("text after the document")
    return json.loads(_strip(text, scanner))


def _strip(text: str, scanner: _Scanner) -> str:
    """`text` as plain JSON: comments blanked, trailing commas dropped (positions kept)."""
    out = list(text)
    at, in_string = 0, False
    while at < len(text):
        char = text[at]
        if in_string:
            if char == "\\":
                at += 2
                continue
            in_string = char != '"'
        elif char == '"':
            in_string = True
        elif text.startswith("//", at) or text.startswith("/*", at):
            end = text.find("\n", at) if text.startswith("//", at) else text.find("*/", at) + 2
            end = len(text) if end < 0 or end < at else end
            for index in range(at, end):
                if out[index] != "\n":
                    out[index] = " "
            at = end
            continue
        elif char == ",":
            rest = re.compile(r"(\s|//[^\n]*|/\*(?:.|\n)*?\*/)*[}\]]").match(text, at + 1)
            if rest:
                out[at] = " "
        at += 1
    return "".join(out).lstrip("\ufeff")


def set_json_entry(text: str, path: tuple[str, ...], name: str, entry: dict[str, Any]) -> str:
    """`text` with `entry` as member `name` of the object at `path` (created as needed); only the
    entry's own span (or one inserted member) changes. Empty text starts a new document."""
    if not text.strip():
        document: dict[str, Any] = {}
        cursor = document
        for key in path:
            cursor = cursor.setdefault(key, {})
        cursor[name] = entry
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    scanner = _Scanner(text)
    root = scanner.value()
    scanner.skip()
    if scanner.at != len(text):
        raise scanner.fail("text after the document")
    parse_jsonc(text)
    if not root.is_object:
        raise ConfigError("the file does not hold a JSON object")
    node, depth = root, 0
    for key in path:
        found = node.members.get(key)
        if found is None:
            break
        if not found[1].is_object:
            raise ConfigError(f'"{key}" is not an object')
        node, depth = found[1], depth + 1
    missing = (*path[depth:], name)
    value: Any = entry
    for key in reversed(missing[1:]):
        value = {key: value}
    indent = _member_indent(text, node)
    if depth == len(path) and name in node.members:
        _, existing = node.members[name]
        rendered = _render(entry, _line_indent(text, existing.start))
        return text[: existing.start] + rendered + text[existing.end :]
    rendered = f"{json.dumps(missing[0], ensure_ascii=False)}: {_render(value, indent)}"
    return _insert_member(text, node, rendered, indent)


def _render(value: Any, indent: str) -> str:
    lines = json.dumps(value, indent=2, ensure_ascii=False).split("\n")
    return "\n".join([lines[0], *(indent + line for line in lines[1:])])


def _line_indent(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    return re.compile(r"[ \t]*").match(text, start).group(0)  # type: ignore[union-attr]


def _indent_of(text: str, node: _Node) -> str:
    return _line_indent(text, node.start)


def _member_indent(text: str, node: _Node) -> str:
    """The indentation of the object's members (its own indentation plus two spaces if empty)."""
    if node.members:
        first = min(start for start, _ in node.members.values())
        return _line_indent(text, first)
    return _indent_of(text, node) + "  "


def _insert_member(text: str, node: _Node, member: str, indent: str) -> str:
    if node.last_member_end < 0:
        closing = node.end - 1
        outer = _indent_of(text, node)
        return text[: node.start + 1] + f"\n{indent}{member}\n{outer}" + text[closing:]
    after = node.last_member_end
    comma = re.compile(r"\s*,").match(text, after)
    prefix, at = (text[: comma.end()], comma.end()) if comma else (text[:after] + ",", after)
    # A comment closing the last member's line stays on that line.
    rest = re.compile(r"[ \t]*(//[^\n]*)?(?=\n)").match(text, at)
    if rest:
        prefix, at = prefix + text[at : rest.end()], rest.end()
    return prefix + f"\n{indent}{member}" + text[at:]


def get_json_entry(text: str, path: tuple[str, ...], name: str) -> Any:
    """The member `name` of the object at `path`, or None."""
    cursor: Any = parse_jsonc(text) if text.strip() else {}
    for key in (*path, name):
        if not isinstance(cursor, dict):
            return None
        cursor = cursor.get(key)
    return cursor


# -- TOML (Codex) -----------------------------------------------------------------------------


def _header(table: str) -> re.Pattern[str]:
    parts = table.split(".")
    spelled = r"\s*\.\s*".join(rf'(?:{re.escape(p)}|"{re.escape(p)}")' for p in parts)
    return re.compile(rf"^[ \t]*\[[ \t]*{spelled}[ \t]*\][ \t]*(#.*)?$", re.M)


def set_toml_entry(text: str, table: str, entry: dict[str, Any]) -> str:
    """`text` with the table `[table]` holding exactly `entry`'s keys (its sub-tables, comments
    elsewhere and every other table untouched); appended when missing."""
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(error)) from None
    body = "".join(f"{key} = {_toml_value(value)}\n" for key, value in entry.items())
    found = _header(table).search(text)
    if found is None:
        if _lookup(before, table) is not None:
            raise ConfigError(f"[{table}] is written inline; edit it by hand or move it to its own table")
        separator = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
        return f"{text}{separator}[{table}]\n{body}"
    start = found.end() + 1
    following = re.compile(r"^[ \t]*\[", re.M).search(text, start)
    end = following.start() if following else len(text)
    return text[:start] + body + "".join(_kept_lines(text[start:end], entry)) + text[end:]


def _kept_lines(body: str, entry: dict[str, Any]) -> list[str]:
    """The old table body without the keys we now write (a multi-line value goes with its key);
    comments and other keys stay."""
    kept: list[str] = []
    depth = 0
    for line in body.splitlines(keepends=True):
        if depth > 0:
            depth += line.count("[") - line.count("]")
            continue
        key = re.match(r"[ \t]*([A-Za-z0-9_\-]+)[ \t]*=(.*)", line)
        if key and key.group(1) in entry:
            depth = key.group(2).count("[") - key.group(2).count("]")
            continue
        kept.append(line)
    return kept


def get_toml_entry(text: str, table: str) -> Any:
    try:
        return _lookup(tomllib.loads(text), table)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(error)) from None


def _lookup(document: dict[str, Any], table: str) -> Any:
    cursor: Any = document
    for part in table.split("."):
        if not isinstance(cursor, dict):
            return None
        cursor = cursor.get(part)
    return cursor


def _toml_value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(value, ensure_ascii=False)
