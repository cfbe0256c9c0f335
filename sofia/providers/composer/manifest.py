"""Reading one `composer.json`: parsing with orjson and checking the type of every field a tool reads.

A manifest Composer itself would reject for a wrong type is reported, never half-read: `check`
returns the first problem as one message (`"require" must be an object`). Composer's habit of
writing an empty map as `[]` is accepted everywhere a map is expected.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from sofia.runtime import files

PLATFORM_EXACT = frozenset({"php", "composer", "composer-plugin-api", "composer-runtime-api"})
PLATFORM_PREFIXES = ("php-", "ext-", "lib-")

NAME_PATTERN = re.compile(r"[a-z0-9](?:[_.-]?[a-z0-9]+)*/[a-z0-9](?:(?:[_.]|-{1,2})?[a-z0-9]+)*")
"""Composer's package name pattern: what may appear in a Packagist URL."""

_STRING_FIELDS = ("name", "type", "description", "version")
_MAP_FIELDS = ("require", "require-dev", "scripts", "config", "extra")
_AUTOLOAD_FIELDS = ("autoload", "autoload-dev")


class ManifestError(ValueError):
    """The manifest cannot be used; the message says why, `line` where (0 when not known).
    Internal, a ValueError of a parse (see the drawing in `sofia.errors`)."""

    def __init__(self, message: str, line: int = 0, keys: tuple[str, ...] = (), brief: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.keys = keys
        """The path of keys to the offending value (`("require", "php")`), used to find its line."""
        self.brief = brief or message
        """The message without what `line` already says, for notes that name the line."""


def load(path: Path) -> dict[str, Any]:
    """The parsed manifest at `path`, or ManifestError naming the first problem."""
    try:
        data = files.read_regular(path)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ManifestError(f"cannot read composer.json: {reason}", brief=f"cannot read: {reason}") from None
    return parse(data)


def parse(data: bytes) -> dict[str, Any]:
    try:
        manifest = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ManifestError(
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
            exc.lineno,
            brief=f"invalid JSON: {exc.msg}",
        ) from None
    if not isinstance(manifest, dict):
        raise ManifestError("composer.json must hold a JSON object", 1, brief="not a JSON object")
    try:
        check(manifest)
    except ManifestError as exc:
        raise ManifestError(exc.message, locate(data, exc.keys), exc.keys) from None
    return manifest


def check(manifest: Mapping[str, Any]) -> None:
    """Raise ManifestError for the first field whose type the tools cannot use."""
    for key in _STRING_FIELDS:
        if key in manifest and not isinstance(manifest[key], str):
            raise ManifestError(f'"{key}" must be a string', keys=(key,))
    license_value = manifest.get("license", "")
    if not (isinstance(license_value, str) or _is_string_list(license_value)):
        raise ManifestError('"license" must be a string or a list of strings', keys=("license",))
    for key in _MAP_FIELDS:
        _check_map(manifest, key)
    for key in ("require", "require-dev"):
        for name, constraint in mapping(manifest, key).items():
            if not isinstance(constraint, str):
                raise ManifestError(f'"{key}.{name}" must be a string', keys=(key, name))
    for key in _AUTOLOAD_FIELDS:
        _, problem = autoload_entries(manifest.get(key), key)
        if problem is not None:
            raise problem


def locate(data: bytes, keys: tuple[str, ...]) -> int:
    """The 1-based line where the key path `keys` is written in the JSON text `data`; 0 if not found.

    Each key is searched after the previous one, so `("require", "php")` finds `"php"` inside
    `"require"` rather than an earlier `"php"` elsewhere. Good enough to point a person at the line.
    """
    position, found = 0, 0
    for key in keys:
        pattern = re.compile(re.escape(orjson.dumps(key)) + rb"\s*:")
        match = pattern.search(data, position)
        if match is None:
            break
        position, found = match.end(), data.count(b"\n", 0, match.start()) + 1
    return found


@dataclass(frozen=True)
class AutoloadEntry:
    """One rule of an `autoload` block: a PSR-4/PSR-0 prefix and its paths, or the classmap or
    files list (prefix `""`)."""

    kind: str
    prefix: str
    paths: tuple[str, ...]


def autoload_entries(block: Any, field: str = "autoload") -> tuple[list[AutoloadEntry], ManifestError | None]:
    """The rules of one autoload block (`psr-4`, `psr-0` by prefix, then `classmap`, `files`) and
    the first value of the wrong type (None when every value is usable).

    The one reader of Composer's autoload format: `check` refuses a manifest on the problem, the
    digest rows read the entries, and lenient readers (installed packages) take the entries and
    ignore the problem; values of the wrong type are never part of the entries.
    """
    entries: list[AutoloadEntry] = []
    problems: list[ManifestError] = []
    if block is None or block == []:
        return entries, None
    if not isinstance(block, dict):
        return entries, ManifestError(f'"{field}" must be an object', keys=(field,))
    for kind in ("psr-4", "psr-0"):
        section = block.get(kind)
        if section is None or section == []:
            continue
        if not isinstance(section, dict):
            problems.append(ManifestError(f'"{field}.{kind}" must be an object', keys=(field, kind)))
            continue
        for prefix in sorted(section):
            value = section[prefix]
            paths = [value] if isinstance(value, str) else value if isinstance(value, list) else []
            if not (isinstance(value, str) or _is_string_list(value)):
                problems.append(
                    ManifestError(
                        f'"{field}.{kind}.{prefix}" must be a string or a list of strings',
                        keys=(field, kind, prefix),
                    )
                )
            entries.append(AutoloadEntry(kind, prefix, tuple(p for p in paths if isinstance(p, str))))
    for kind in ("classmap", "files"):
        value = block.get(kind)
        if value is None:
            continue
        if not _is_string_list(value):
            problems.append(ManifestError(f'"{field}.{kind}" must be a list of strings', keys=(field, kind)))
        listed = tuple(p for p in value if isinstance(p, str)) if isinstance(value, list) else ()
        if listed:
            entries.append(AutoloadEntry(kind, "", listed))
    return entries, (problems[0] if problems else None)


def _check_map(container: Mapping[str, Any], key: str) -> None:
    value = container.get(key)
    if value is None or isinstance(value, dict) or value == []:
        return
    raise ManifestError(f'"{key}" must be an object', keys=(key,))


def _is_string_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def mapping(container: Mapping[str, Any], key: str) -> dict[str, Any]:
    """The object under `key`, `{}` when absent or written as `[]` (checked beforehand)."""
    value = container.get(key)
    return value if isinstance(value, dict) else {}


def text(manifest: Mapping[str, Any], key: str) -> str:
    value = manifest.get(key, "")
    return value if isinstance(value, str) else ""


def is_platform(name: str) -> bool:
    """Platform packages (`php`, `ext-*`, `lib-*`, …) are provided by the runtime, never installed."""
    lowered = name.lower()
    return lowered in PLATFORM_EXACT or lowered.startswith(PLATFORM_PREFIXES)


def dependency_names(manifest: Mapping[str, Any], key: str) -> list[str]:
    """Installable requirements under `key` (`require` / `require-dev`), sorted."""
    return sorted(name for name in mapping(manifest, key) if not is_platform(name))


def namespaces(manifest: Mapping[str, Any]) -> list[str]:
    """PSR-4 and PSR-0 prefixes of `autoload`, sorted; the empty fallback prefix is left out."""
    entries, _ = autoload_entries(manifest.get("autoload"))
    return sorted({e.prefix for e in entries if e.kind in ("psr-4", "psr-0") and e.prefix})


def script_names(manifest: Mapping[str, Any]) -> list[str]:
    return sorted(mapping(manifest, "scripts"))


def valid_name(name: str) -> bool:
    return NAME_PATTERN.fullmatch(name) is not None
