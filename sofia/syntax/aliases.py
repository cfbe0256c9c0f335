"""Path aliases a JavaScript or TypeScript project declares for its module specifiers (`@/utils`,
`~/stores`, `#lib/x`): `compilerOptions.paths` and `baseUrl` of `tsconfig.json` / `jsconfig.json`
(following a relative `extends` and the `references` a Vite template splits its settings into),
and `resolve.alias` of `vite.config.*` (read on its syntax tree: the object form and the
`{ find, replacement }` array form, the replacement's directory being the string literals it
joins). A project that declares none gets the convention Vue and Vite projects follow: `@/` and
`~/` are `src/`.

One reader for every tool that follows imports: `refs` asks `aliases_for(directory)` for the
nearest project at or above a file, `vue_routes` asks `project_aliases(root)` for the project it
reads; each config file is read once for as long as it is unchanged."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

TSCONFIGS = ("tsconfig.json", "jsconfig.json")
VITE_CONFIGS = ("vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs", "vite.config.cjs")
PROJECT_MARKERS = ("package.json", *TSCONFIGS, *VITE_CONFIGS)
CONVENTION = (("@/", ("src/",)), ("~/", ("src/",)))
"""What `@/` and `~/` mean in a project that declares no alias."""
MAX_CONFIG_BYTES = 512 * 1024
MAX_EXTENDS = 8
"""Configs followed through `extends` and `references`, from one tsconfig."""


@dataclass(frozen=True)
class PathAliases:
    """The aliases in force under one project directory."""

    directory: Path
    """The project's directory: targets are relative to it."""
    entries: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(specifier prefix, target prefixes), longest prefix first. A prefix ending in `/` maps
    everything below it (`@/` → `src/`); one without maps that exact specifier."""
    base_url: str | None = None
    """`compilerOptions.baseUrl`: bare specifiers are also looked up below it."""
    declared: bool = False
    """Whether a config declared them (else the `@/`/`~/` convention applies)."""

    def match(self, specifier: str) -> tuple[tuple[str, ...], str] | None:
        """(target prefixes, the rest of `specifier` after the alias) for the longest alias that
        covers it (`@/views/*.vue` → (("src/",), "views/*.vue")), the rest kept as written, so
        glob patterns go through aliases too; None when no alias covers it (`baseUrl` aside)."""
        for prefix, targets in self.entries:
            if not targets:
                continue
            if prefix.endswith("/") and specifier.startswith(prefix):
                return targets, specifier[len(prefix) :]
            if specifier == prefix or specifier == prefix.rstrip("/"):
                return tuple(target.rstrip("/") for target in targets), ""
        return None

    def targets(self, specifier: str) -> list[Path]:
        """Where `specifier` may point, most likely first, without extensions (`@/utils` →
        `<project>/src/utils`); empty when neither an alias nor `baseUrl` covers it."""
        found = self.match(specifier)
        if found is not None:
            targets, rest = found
            return [Path(os.path.normpath(self.directory / (target + rest))) for target in targets]
        if self.base_url is not None and not specifier.startswith((".", "/")):
            return [Path(os.path.normpath(self.directory / self.base_url / specifier))]
        return []


def aliases_for(directory: Path, stop: Path | None = None) -> PathAliases:
    """The aliases of the nearest project at or above `directory` (a directory holding a
    `package.json`, a tsconfig/jsconfig or a vite config), not looking above `stop`; with no
    project found, the convention at `stop` (or `directory`)."""
    current = directory.absolute()
    limit = stop.absolute() if stop is not None else None
    while True:
        if any((current / marker).is_file() for marker in PROJECT_MARKERS):
            return project_aliases(current)
        if current == limit or current.parent == current:
            break
        current = current.parent
    return project_aliases(limit if limit is not None else directory.absolute())


def project_aliases(directory: Path) -> PathAliases:
    """The aliases declared by the configs in `directory`: Vite's first, then the tsconfig's
    (a prefix both declare keeps Vite's; a `tsconfig.json` that declares neither `paths` nor
    `baseUrl` leaves them to a `jsconfig.json` beside it), else the convention."""
    declared: dict[str, tuple[str, ...]] = {}
    vite = next((directory / n for n in VITE_CONFIGS if (directory / n).is_file()), None)
    if vite is not None:
        for prefix, targets in _cached(vite, _vite_aliases):
            declared.setdefault(prefix, targets)
    base_url: str | None = None
    for name in TSCONFIGS:
        config = directory / name
        if not config.is_file():
            continue
        paths, base_url = _tsconfig(config, directory)
        for prefix, targets in paths:
            declared.setdefault(prefix, targets)
        if paths or base_url is not None:
            break
    if declared:
        entries = tuple(sorted(declared.items(), key=lambda item: (-len(item[0]), item[0])))
        return PathAliases(directory, entries, base_url, True)
    return PathAliases(directory, CONVENTION, base_url, False)


def _cached(path: Path, reader: Any) -> Any:
    """`reader(path)`, computed again only when the file changes."""
    try:
        status = path.stat()
    except OSError:
        return ()
    return _read(str(path), status.st_mtime_ns, status.st_size, reader)


@lru_cache(maxsize=64)
def _read(path: str, mtime_ns: int, size: int, reader: Any) -> Any:
    return reader(Path(path))


# --- tsconfig.json / jsconfig.json ------------------------------------------------------------


def _tsconfig(config: Path, project: Path) -> tuple[list[tuple[str, tuple[str, ...]]], str | None]:
    """(aliases with targets relative to `project`, baseUrl relative to `project`) of a tsconfig
    and the configs it extends or references; the first config declaring a key wins."""
    paths: dict[str, tuple[str, ...]] = {}
    base_url: str | None = None
    todo: list[Path] = [config]
    seen: set[Path] = set()
    while todo and len(seen) < MAX_EXTENDS:
        current = todo.pop(0)
        if current in seen or not current.is_file():
            continue
        seen.add(current)
        options, follow = _cached(current, _tsconfig_options)
        here = os.path.relpath(current.parent, project)
        base = options.get("baseUrl")
        if isinstance(base, str) and base_url is None:
            base_url = _join(here, base)
        mapping = options.get("paths")
        if isinstance(mapping, dict):
            root = _join(here, base) if isinstance(base, str) else here
            for key, targets in mapping.items():
                entry = _paths_entry(key, targets, root)
                if entry is not None:
                    paths.setdefault(*entry)
        todo.extend(current.parent / name for name in follow)
    return list(paths.items()), base_url


def _tsconfig_options(config: Path) -> tuple[dict[str, Any], list[str]]:
    """A tsconfig's `compilerOptions` and the relative configs it extends or references."""
    try:
        data = json.loads(_json_text(config.read_bytes()[:MAX_CONFIG_BYTES].decode("utf-8", "replace")))
    except (OSError, ValueError):
        return {}, []
    if not isinstance(data, dict):
        return {}, []
    options = data.get("compilerOptions")
    follow: list[str] = []
    extends = data.get("extends")
    for item in extends if isinstance(extends, list) else [extends]:
        if isinstance(item, str) and item.startswith("."):
            follow.append(item if item.endswith(".json") else item + ".json")
    references = data.get("references")
    for reference in references if isinstance(references, list) else []:
        target = reference.get("path") if isinstance(reference, dict) else None
        if isinstance(target, str):
            follow.append(target if target.endswith(".json") else os.path.join(target, "tsconfig.json"))
    return (options if isinstance(options, dict) else {}), follow


def _paths_entry(key: object, targets: object, root: str) -> tuple[str, tuple[str, ...]] | None:
    """`"@/*": ["src/*"]` as ("@/", ("src/",)), `"@/*": ["*"]` as ("@/", (baseUrl,)), `"lib":
    ["lib/index.ts"]` as ("lib", (...)).
    Other wildcard shapes (`*` inside a segment) are not aliases this reader maps."""
    if not isinstance(key, str) or not isinstance(targets, list):
        return None
    strings = [t for t in targets if isinstance(t, str)]
    if key.endswith("/*") and "*" not in key[:-2]:
        mapped = tuple(_directory_prefix(root, t[:-1]) for t in strings if _is_directory_target(t))
        return (key[:-1], mapped) if mapped else None
    if "*" in key:
        return None
    exact = tuple(_join(root, t) for t in strings if "*" not in t)
    return (key, exact) if exact else None


def _is_directory_target(target: str) -> bool:
    """`src/*`, or `*` alone (everything below `baseUrl`)."""
    return (target == "*" or target.endswith("/*")) and "*" not in target[:-1]


def _directory_prefix(root: str, target: str) -> str:
    """A target prefix ending in `/`, or empty for the project's own directory."""
    joined = _join(root, target)
    return joined + "/" if joined else ""


def _join(*parts: str) -> str:
    joined = os.path.normpath(os.path.join(*parts)).replace(os.sep, "/")
    return "" if joined == "." else joined


def _json_text(raw: str) -> str:
    """tsconfig allows comments and trailing commas; strict JSON does not."""
    text = re.sub(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", raw, flags=re.S)
    return re.sub(r",(\s*[}\]])", r"\1", text)


# --- vite.config.* ----------------------------------------------------------------------------


def _vite_aliases(config: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    from sofia.syntax.grammars import ParseUnavailable, parse_bytes

    try:
        source = config.read_bytes()[:MAX_CONFIG_BYTES]
        tree = parse_bytes(source, "typescript" if "ts" in config.suffix else "javascript")
    except (OSError, ParseUnavailable):
        return ()
    found: list[tuple[str, tuple[str, ...]]] = []
    for value in _alias_values(tree.root_node):
        if value.type == "object":
            pairs = [(p.child_by_field_name("key"), p.child_by_field_name("value")) for p in _pairs(value)]
        elif value.type == "array":
            pairs = []
            for item in value.named_children:
                if item.type == "object":
                    fields = {_text(k).strip("'\"`"): v for k, v in _key_values(item)}
                    pairs.append((fields.get("find"), fields.get("replacement")))
        else:
            continue
        for key, replacement in pairs:
            prefix = _find(key)
            directory = _directory(replacement)
            if prefix is not None and directory is not None:
                found.append((prefix if prefix.endswith("/") else prefix + "/", (directory + "/",)))
    return tuple(found)


def _text(node: Any) -> str:
    return str(node.text.decode("utf-8", "replace")) if node is not None and node.text is not None else ""


def _pairs(node: Any) -> list[Any]:
    return [child for child in node.named_children if child.type == "pair"]


def _key_values(node: Any) -> list[tuple[Any, Any]]:
    return [
        (pair.child_by_field_name("key"), pair.child_by_field_name("value"))
        for pair in _pairs(node)
        if pair.child_by_field_name("key") is not None
    ]


def _alias_values(root: Any) -> list[Any]:
    """The values of every `alias:` key in the config (normally `resolve.alias`)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        for key, value in _key_values(node) if node.type == "object" else []:
            if _text(key).strip("'\"`") == "alias" and value is not None:
                found.append(value)
        stack.extend(node.named_children)
    return found


def _find(node: Any) -> str | None:
    """An alias's `find`: a string, a property name, or a regex that is a plain literal."""
    if node is None:
        return None
    if node.type == "property_identifier":
        return _text(node)
    if node.type in ("string", "template_string"):
        inner = _text(node)[1:-1]
        return inner or None if "${" not in inner else None
    if node.type == "regex":
        pattern = _text(node.child_by_field_name("pattern")).removeprefix("^")
        if re.fullmatch(r"(?:\\[^\w\s]|[\w@~#$%&/.-])+", pattern):
            return re.sub(r"\\(.)", r"\1", pattern)
    return None


def _directory(node: Any) -> str | None:
    """The directory a replacement names relative to the config: the path its string literals
    join to (`'./src'`, `resolve(__dirname, 'src')`, `new URL('./src', import.meta.url)`)."""
    if node is None:
        return None
    parts: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("string", "template_string"):
            literal = _text(current)[1:-1]
            if "${" not in literal and literal not in ("", ".", "/") and ":" not in literal:
                parts.append(literal.lstrip("/"))
            continue
        stack.extend(reversed(current.named_children))
    if not parts:
        return None
    joined = _join(*parts)
    return joined if joined and not joined.startswith("..") else None
