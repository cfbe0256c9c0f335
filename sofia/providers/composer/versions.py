"""Composer's version rules, as far as tags and Packagist versions need them.

A version is an optional `v`, one to four numeric parts and an optional stability suffix
(`-beta2`, `RC1`, `-patch1`, `-dev`). `dev-*` names and `*.x-dev` aliases are branches, not
versions. Order: the numeric parts (missing ones are 0), then `dev < alpha < beta < RC < stable <
patch`, then the suffix number. Stable means no suffix or `patch`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_STABILITY_RANK = {"dev": 0, "alpha": 1, "beta": 2, "rc": 3, "stable": 4, "patch": 5}
_SUFFIX_NAMES = {"a": "alpha", "alpha": "alpha", "b": "beta", "beta": "beta", "rc": "rc"}
_SUFFIX_NAMES.update({"p": "patch", "pl": "patch", "patch": "patch"})

_VERSION = re.compile(
    r"""
    [vV]?
    (?P<numbers>\d+(?:\.\d+){0,3})
    (?:
        -?(?P<suffix>alpha|beta|patch|rc|pl|a|b|p)
        (?:[.-]?(?P<number>\d+))?
    )?
    (?P<dev>-dev)?
    """,
    re.VERBOSE | re.IGNORECASE,
)


@dataclass(frozen=True, order=True)
class Version:
    """A parsed version; instances compare the way Composer orders versions."""

    numbers: tuple[int, int, int, int]
    stability: int
    suffix_number: int

    @property
    def stable(self) -> bool:
        return self.stability >= _STABILITY_RANK["stable"]


def parse(text: str) -> Version | None:
    """The version `text` spells, or None for branch names and anything that is not a version."""
    match = _VERSION.fullmatch(text.strip())
    if match is None:
        return None
    parts = [int(p) for p in match.group("numbers").split(".")]
    numbers = (*parts, 0, 0, 0)[:4]
    suffix = (match.group("suffix") or "").lower()
    stability = _STABILITY_RANK[_SUFFIX_NAMES[suffix]] if suffix else _STABILITY_RANK["stable"]
    if match.group("dev"):
        stability = _STABILITY_RANK["dev"]
    number = int(match.group("number") or 0)
    return Version((numbers[0], numbers[1], numbers[2], numbers[3]), stability, number)


def compare(left: str, right: str) -> int:
    """-1, 0 or 1 as `left` orders before, equal to or after `right`; unparsable sorts lowest."""
    a, b = parse(left), parse(right)
    if a == b:
        return 0
    if a is None:
        return -1
    if b is None:
        return 1
    return -1 if a < b else 1


def highest_stable(candidates: Iterable[str]) -> str:
    """The highest stable version among `candidates`, verbatim; among equal spellings the first seen.

    `""` when none is a stable version (branches, pre-releases and other names are ignored).
    """
    best_text = ""
    best: Version | None = None
    for text in candidates:
        version = parse(text)
        if version is None or not version.stable:
            continue
        if best is None or version > best:
            best, best_text = version, text
    return best_text
