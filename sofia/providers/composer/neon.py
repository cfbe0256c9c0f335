"""The PHPStan level a package configures, read from its NEON file without a NEON parser.

Only the shape PHPStan documents is understood: a top-level `parameters:` block holding
`level: <value>`, the value a number or `max`. Anything else that may set the level — an
`includes:` list (included files are not followed), a `level` written another way (an inline
`parameters:` mapping, a key outside the block, a value that is not a level) or a file that
cannot be read — is returned as not followed, so the tools can say the level is unknown rather
than absent.
"""

from __future__ import annotations

import re
from pathlib import Path

from sofia.providers.composer.unfollowed import Unfollowed

CONFIG_FILES = ("phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon")

_LEVEL = re.compile(r"level\s*:\s*(?P<value>.*)$")
_ANY_LEVEL = re.compile(r"(?<![\w.-])level\s*:")
_VALID_LEVEL = re.compile(r"\d+|max")


def phpstan_level(package_dir: Path) -> tuple[str, list[Unfollowed]]:
    """The level from the first of `CONFIG_FILES` that sets one (`9`, `max`), `""` if none does,
    and the places that may set it but were not read (only when no level was found)."""
    unread: list[Unfollowed] = []
    for name in CONFIG_FILES:
        path = package_dir / name
        try:
            text = path.read_text("utf-8", "replace")
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            unread.append(Unfollowed("phpstan", path, 0, f"cannot read: {exc.strerror or exc}"))
            continue
        level, line = level_in(text)
        if level and _VALID_LEVEL.fullmatch(level):
            return level, []
        if level:
            unread.append(Unfollowed("phpstan", path, line, f"level {level} is not a number or max"))
        else:
            unread.extend(Unfollowed("phpstan", path, at, why) for at, why in _unread_places(text))
    return "", unread


def level_in(text: str) -> tuple[str, int]:
    """`level:` directly under the top-level `parameters:` block, quotes and comments removed,
    and its 1-based line; `("", 0)` when there is none."""
    in_parameters = False
    child_indent: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        if indent == 0:
            in_parameters = line.strip() == "parameters:"
            child_indent = None
            continue
        if not in_parameters:
            continue
        if child_indent is None:
            child_indent = indent
        if indent != child_indent:
            continue
        match = _LEVEL.fullmatch(line.strip())
        if match:
            return match.group("value").strip().strip("'\""), number
    return "", 0


def _unread_places(text: str) -> list[tuple[int, str]]:
    """Top-level lines of a file without a readable level that may still set one: `includes:`,
    a `parameters:` block written inline, and a `level:` outside `parameters:`."""
    found: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if not line or line[0].isspace():
            continue
        if line == "includes:":
            found.append((number, "includes are not followed"))
        elif line.startswith("parameters:") and _ANY_LEVEL.search(line):
            found.append((number, "level written inline, not read"))
        elif _ANY_LEVEL.match(line):
            found.append((number, "level outside the parameters block"))
    return found
