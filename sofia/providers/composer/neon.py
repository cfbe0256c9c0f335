"""The PHPStan level a package configures, read from its NEON file without a NEON parser.

Only the shape PHPStan documents is understood: a top-level `parameters:` block holding
`level: <value>`. A level set only in an included file is not followed (it reads as `""`).
"""

from __future__ import annotations

import re
from pathlib import Path

CONFIG_FILES = ("phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon")

_LEVEL = re.compile(r"level\s*:\s*(?P<value>.*)$")


def phpstan_level(package_dir: Path) -> str:
    """The level from the first of `CONFIG_FILES` that sets one (`9`, `max`), `""` if none does."""
    for name in CONFIG_FILES:
        try:
            text = (package_dir / name).read_text("utf-8", "replace")
        except OSError:
            continue
        level = level_in(text)
        if level:
            return level
    return ""


def level_in(text: str) -> str:
    """`level:` directly under the top-level `parameters:` block, quotes and comments removed."""
    in_parameters = False
    child_indent: int | None = None
    for raw in text.splitlines():
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
            return match.group("value").strip().strip("'\"")
    return ""
