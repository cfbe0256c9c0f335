"""Path aliases a Vite project declares in `vite.config.*` (`resolve.alias`), read on the syntax
tree: the object form (`'@': fileURLToPath(new URL('./src', import.meta.url))`) and the array form
(`{ find: '@', replacement: resolve(__dirname, 'src') }`, `find` a string or a plain regex such as
`/\\/@\\//`). The replacement's directory is the string literals it joins (`'src'` in
`path.resolve(__dirname, 'src')`); a replacement with none is not an alias this reader can use.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

CONFIG_NAMES = ("vite.config.ts", "vite.config.js", "vite.config.mts", "vite.config.mjs")
MAX_CONFIG_BYTES = 512 * 1024


def vite_aliases(root: Path) -> list[tuple[str, list[str]]]:
    """(prefix, [target prefix relative to root]) for each alias of the first vite config at `root`."""
    from sofia.syntax.grammars import ParseUnavailable, parse_bytes

    for name in CONFIG_NAMES:
        config = root / name
        if not config.is_file():
            continue
        try:
            source = config.read_bytes()[:MAX_CONFIG_BYTES]
            tree = parse_bytes(source, "typescript" if name.endswith("ts") else "javascript")
        except (OSError, ParseUnavailable):
            return []
        found: list[tuple[str, list[str]]] = []
        for value in _alias_values(tree.root_node):
            found.extend(_entries(value))
        return found
    return []


def _text(node: Any) -> str:
    return str(node.text.decode("utf-8", "replace"))


def _alias_values(node: Any) -> list[Any]:
    values = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "pair":
            key = current.child_by_field_name("key")
            value = current.child_by_field_name("value")
            if key is not None and value is not None and _text(key).strip("'\"") == "alias":
                values.append(value)
                continue
        stack.extend(reversed(current.named_children))
    return values


def _entries(value: Any) -> list[tuple[str, list[str]]]:
    entries = []
    if value.type == "object":
        for pair in value.named_children:
            if pair.type != "pair":
                continue
            key = pair.child_by_field_name("key")
            find = _literal(key) if key is not None else None
            target = _directory(pair.child_by_field_name("value"))
            if find is not None and target is not None:
                entries.append(_prefix(find, target))
    elif value.type == "array":
        for item in value.named_children:
            if item.type != "object":
                continue
            fields = {}
            for pair in item.named_children:
                if pair.type == "pair":
                    key = pair.child_by_field_name("key")
                    if key is not None:
                        fields[_text(key).strip("'\"")] = pair.child_by_field_name("value")
            find_node, replacement = fields.get("find"), fields.get("replacement")
            if find_node is None or replacement is None:
                continue
            find = _regex_prefix(find_node) if find_node.type == "regex" else _literal(find_node)
            target = _directory(replacement)
            if find is not None and target is not None:
                entries.append(_prefix(find, target))
    return entries


def _prefix(find: str, target: str) -> tuple[str, list[str]]:
    """An alias `@` matches `@` and `@/…` (the plugin's rule); as a prefix: `@/` → `src/`."""
    if find.endswith("/"):
        return find, [target.rstrip("/") + "/"]
    return find + "/", [target.rstrip("/") + "/"]


def _literal(node: Any) -> str | None:
    if node.type in ("string", "template_string"):
        inner = _text(node)[1:-1]
        return inner if "${" not in inner else None
    if node.type == "property_identifier":
        return _text(node)
    return None


def _regex_prefix(node: Any) -> str | None:
    """A regex that is a plain (optionally `^`-anchored) literal: `/\\/@\\//` → `/@/`."""
    pattern = node.child_by_field_name("pattern")
    raw = _text(pattern) if pattern is not None else ""
    raw = raw[1:] if raw.startswith("^") else raw
    if not re.fullmatch(r"(?:\\[^\w\s]|[\w@~#$%&/.-])+", raw):
        return None
    return re.sub(r"\\(.)", r"\1", raw)


def _directory(node: Any) -> str | None:
    """The directory a replacement names, relative to the config: its string literals joined."""
    if node is None:
        return None
    parts: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        literal = _literal(current) if current.type in ("string", "template_string") else None
        if literal is not None:
            if literal not in ("", ".", "/") and not literal.startswith(("http", "node:")):
                parts.append(literal)
            continue
        stack.extend(reversed(current.named_children))
    if not parts:
        return None
    joined = os.path.normpath(os.path.join(*[p.lstrip("/") for p in parts]))
    if joined.startswith(".."):
        return None
    return joined.replace(os.sep, "/")
