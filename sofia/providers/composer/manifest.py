"""Reading one `composer.json`: parsing with orjson and checking the type of every field a tool reads.

A manifest Composer itself would reject for a wrong type is reported, never half-read: `check`
returns the first problem as one message (`"require" must be an object`). Composer's habit of
writing an empty map as `[]` is accepted everywhere a map is expected.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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
    """The manifest cannot be used; the message says where and why."""


def load(path: Path) -> dict[str, Any]:
    """The parsed manifest at `path`, or ManifestError naming the first problem."""
    try:
        data = files.read_regular(path)
    except OSError as exc:
        raise ManifestError(f"cannot read composer.json: {exc.strerror or exc}") from None
    return parse(data)


def parse(data: bytes) -> dict[str, Any]:
    try:
        manifest = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ManifestError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    if not isinstance(manifest, dict):
        raise ManifestError("composer.json must hold a JSON object")
    check(manifest)
    return manifest


def check(manifest: Mapping[str, Any]) -> None:
    """Raise ManifestError for the first field whose type the tools cannot use."""
    for key in _STRING_FIELDS:
        if key in manifest and not isinstance(manifest[key], str):
            raise ManifestError(f'"{key}" must be a string')
    license_value = manifest.get("license", "")
    if not (isinstance(license_value, str) or _is_string_list(license_value)):
        raise ManifestError('"license" must be a string or a list of strings')
    for key in _MAP_FIELDS:
        _check_map(manifest, key)
    for key in ("require", "require-dev"):
        for name, constraint in mapping(manifest, key).items():
            if not isinstance(constraint, str):
                raise ManifestError(f'"{key}.{name}" must be a string')
    for key in _AUTOLOAD_FIELDS:
        _check_map(manifest, key)
        section = mapping(manifest, key)
        for kind in ("psr-4", "psr-0"):
            _check_map(section, kind, prefix=f"{key}.")
            for namespace, paths in mapping(section, kind).items():
                if not (isinstance(paths, str) or _is_string_list(paths)):
                    raise ManifestError(f'"{key}.{kind}.{namespace}" must be a string or a list of strings')
        for kind in ("classmap", "files"):
            if kind in section and not _is_string_list(section[kind]):
                raise ManifestError(f'"{key}.{kind}" must be a list of strings')


def _check_map(container: Mapping[str, Any], key: str, prefix: str = "") -> None:
    value = container.get(key)
    if value is None or isinstance(value, dict) or value == []:
        return
    raise ManifestError(f'"{prefix}{key}" must be an object')


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
    section = mapping(manifest, "autoload")
    found = {ns for kind in ("psr-4", "psr-0") for ns in mapping(section, kind) if ns}
    return sorted(found)


def script_names(manifest: Mapping[str, Any]) -> list[str]:
    return sorted(mapping(manifest, "scripts"))


def valid_name(name: str) -> bool:
    return NAME_PATTERN.fullmatch(name) is not None
