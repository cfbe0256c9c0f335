"""Starting refs' ripgrep count runs before the CLI has imported pydantic, as grep does: the
arguments are read here in their plain shapes, turned into the grep search refs will make (a
word search on each name's last segment over every file type, or the extensions given), and handed to grep's
head start, whose runs the engine then claims. Anything unusual means no head start."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sofia.providers import grep

_VALUE_FLAGS = {
    "--root",
    "--ext",
    "--ignore-dir",
    "--kind",
    "--max-per-symbol",
    "--format",
    "--max-output-tokens",
}
_PLAIN_FLAGS = {"--json", "--md", "--definitions", "--no-definitions"}


def default_exts() -> list[str]:
    """The extensions refs searches when none are given (every supported source extension)."""
    from sofia.syntax.parse import EXTENSIONS

    return sorted({ext.lstrip(".") for ext in EXTENSIONS})


def start(args: Sequence[str], workspace: Path) -> None:
    grep_args = _translate(args)
    if grep_args is not None:
        grep.start_head_start(grep_args, workspace, per_pattern=True)


def discard() -> None:
    grep.discard_head_start()


def _translate(args: Sequence[str]) -> list[str] | None:
    from sofia.syntax.lookup import BadName, parse_query

    names: list[str] = []
    exts: list[str] = []
    passed: list[str] = []
    words = iter(args)
    for word in words:
        name, eq, inline = word.partition("=")
        if not word.startswith("-"):
            try:
                names.append(parse_query(word).name)
            except BadName:
                return None
        elif name in _VALUE_FLAGS:
            value = inline if eq else next(words, None)
            if value is None:
                return None
            if name == "--ext":
                exts.extend(part.strip() for part in value.split(",") if part.strip())
            elif name in ("--root", "--ignore-dir"):
                passed += [name, value]
        elif word not in _PLAIN_FLAGS:
            return None
    if not names or any(n.startswith("-") for n in names):
        return None
    chosen = ["--ext", ",".join(exts)] if exts else []  # none: every file type (`engine.plan`)
    return [*dict.fromkeys(names), "--word", *chosen, *passed]
