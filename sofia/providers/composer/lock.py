"""Whether `composer.lock` still matches its manifest, computed exactly as Composer computes it.

Composer stores `content-hash` = MD5 of PHP's `json_encode` (flags 0) of the manifest's relevant keys,
sorted. Reproducing that byte for byte means mimicking PHP: `/` escaped, non-ASCII as lowercase
`\\uXXXX`, an empty object as `[]` (PHP decodes both to an empty array), an object keyed exactly
`"0"…"n-1"` as a list, and floats in PHP's shortest form (`1.0` → `1`, `1e20` → `1.0e+20`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson

HASHED_KEYS = (
    "name",
    "version",
    "require",
    "require-dev",
    "conflict",
    "replace",
    "provide",
    "minimum-stability",
    "prefer-stable",
    "repositories",
    "extra",
)

_SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "/": "\\/",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}
_NEEDS_ESCAPE = re.compile(r'["\\/\x00-\x1f\x7f-\U0010ffff]')
_INT64 = (-(2**63), 2**63 - 1)


def content_hash(manifest: Mapping[str, Any]) -> str:
    """Composer's `content-hash` of a parsed manifest."""
    relevant: dict[str, Any] = {key: manifest[key] for key in HASHED_KEYS if key in manifest}
    config = manifest.get("config")
    if isinstance(config, dict) and config.get("platform") is not None:
        relevant["config"] = {"platform": config["platform"]}
    ordered = {key: relevant[key] for key in sorted(relevant)}
    return hashlib.md5(php_json_encode(ordered).encode("ascii")).hexdigest()


def legacy_hash(manifest_bytes: bytes) -> str:
    """The pre-`content-hash` lock `hash`: MD5 of the manifest file as written."""
    return hashlib.md5(manifest_bytes).hexdigest()


def php_json_encode(value: Any) -> str:
    """PHP's `json_encode($value)` (no flags) of a value PHP's `json_decode(…, true)` would produce."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value) if _INT64[0] <= value <= _INT64[1] else _php_float(float(value))
    if isinstance(value, float):
        return _php_float(value)
    if isinstance(value, str):
        return _php_string(value)
    if isinstance(value, list):
        return "[" + ",".join(php_json_encode(item) for item in value) + "]"
    if isinstance(value, dict):
        if _is_php_list(value):
            return "[" + ",".join(php_json_encode(item) for item in value.values()) + "]"
        return "{" + ",".join(f"{_php_string(str(k))}:{php_json_encode(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot encode {type(value).__name__}")


def _is_php_list(value: dict[str, Any]) -> bool:
    """PHP turns an object keyed `"0"`, `"1"`, … in order into a list (and `{}` into `[]`)."""
    return all(key == str(index) for index, key in enumerate(value))


def _php_string(text: str) -> str:
    return '"' + _NEEDS_ESCAPE.sub(_escape, text) + '"'


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    if char in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[char]
    code = ord(char)
    if code == 0x7F:
        return char
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _php_float(number: float) -> str:
    """PHP's shortest round-trip form with `serialize_precision = -1` (precision 17 for the layout)."""
    if number == 0:
        return "-0" if str(number).startswith("-") else "0"
    sign, digit_tuple, exponent = Decimal(repr(number)).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0") or "0"
    assert isinstance(exponent, int)
    point = len("".join(map(str, digit_tuple))) + exponent  # value = 0.DIGITS × 10^point
    prefix = "-" if sign else ""
    if point < -3 or point > 17:
        mantissa = digits[0] + "." + (digits[1:] or "0")
        power = point - 1
        return f"{prefix}{mantissa}e{'+' if power >= 0 else '-'}{abs(power)}"
    if point <= 0:
        return f"{prefix}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return prefix + digits + "0" * (point - len(digits))
    return f"{prefix}{digits[:point]}.{digits[point:]}"


@dataclass(frozen=True)
class Unreadable:
    """Why a lock file could not be used, and the 1-based line where known (0 otherwise)."""

    reason: str
    line: int = 0


def read(lock_path: Path) -> tuple[dict[str, Any] | None, Unreadable]:
    """The parsed lock file, or None and why it could not be used."""
    try:
        data = orjson.loads(lock_path.read_bytes())
    except OSError as exc:
        return None, Unreadable(f"cannot read: {exc.strerror or exc}")
    except orjson.JSONDecodeError as exc:
        return None, Unreadable(f"invalid JSON: {exc.msg}", exc.lineno)
    if not isinstance(data, dict):
        return None, Unreadable("not a JSON object", 1)
    return data, Unreadable("")


def locked_packages(lock: Mapping[str, Any]) -> tuple[dict[str, tuple[str, bool]], list[str]]:
    """`{name: (version, dev)}` of every package in the lock (`packages` and `packages-dev`), and
    what could not be read there (a list that is not one, entries without a name)."""
    found: dict[str, tuple[str, bool]] = {}
    problems: list[str] = []
    for key, dev in (("packages", False), ("packages-dev", True)):
        entries = lock.get(key)
        if entries is None:
            continue
        if not isinstance(entries, list):
            problems.append(f'"{key}" not a list')
            continue
        nameless = 0
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                version = entry.get("version")
                found.setdefault(entry["name"].lower(), (version if isinstance(version, str) else "", dev))
            else:
                nameless += 1
        if nameless:
            problems.append(f'{nameless} nameless "{key}" entries')
    return found, problems
