"""Starting grep's count phase before the CLI has even imported pydantic.

On a large tree the count run is most of a search's wall time, and a new `sf` process spends a
few hundred milliseconds importing pydantic and building the input model before it could start
it. The CLI therefore reads the common argument shapes itself (`start`), builds the request the
provider would build and starts the count runs at once; the provider later `claim`s a run only
when it would have started exactly the same command in the same directory. Anything unusual
(an unknown or abbreviated option, `--`, an invalid value) simply means no head start: the
provider then validates and runs as always, so results never depend on this module.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from sofia.runtime import proc

DISABLE_ENV = "SOFIA_HEAD_START"
"""`off` turns head starts off (to compare timings, or to rule them out)."""

_VALUE_FLAGS = {"--root", "--ext", "--ignore-dir", "--max-per-pattern", "--format", "--max-output-tokens"}
_SWITCHES = {"--regex", "--word", "--case", "--no-case", "--json", "--md"}

_started: dict[tuple[tuple[str, ...], str], proc.Background] = {}


def start(args: Sequence[str], workspace: Path) -> None:
    """Start the count runs `sf grep ARGS` will need, if `args` are plain enough to read here."""
    if os.environ.get(DISABLE_ENV, "").lower() in {"off", "0", "false", "no"}:
        return
    options = _read(args)
    if options is None:
        return
    from sofia.providers.contract import Context, ProviderError
    from sofia.providers.grep.request import build
    from sofia.providers.grep.ripgrep import MAX_PROCESSES, Ripgrep

    try:
        request = build(workspace=workspace, **options)  # type: ignore[arg-type]
        ripgrep = Ripgrep(request, Context(root=workspace, budget=None))
        for pattern in request.patterns[:MAX_PROCESSES]:  # the ones the provider counts first
            command = ripgrep.count_command(pattern)
            _started[(tuple(command), str(request.cwd))] = proc.Background(command, cwd=request.cwd)
    except (ProviderError, OSError):
        discard()


def claim(command: Sequence[str], cwd: Path) -> proc.Background | None:
    """The run started early for exactly `command` in `cwd`, handed over once; None otherwise."""
    return _started.pop((tuple(command), str(cwd)), None)


def discard() -> None:
    """Kill every run nobody claimed (the call failed validation or asked for something else)."""
    while _started:
        _, run = _started.popitem()
        run.kill()


def _read(args: Sequence[str]) -> dict[str, object] | None:
    """`sf grep` arguments as request fields, or None when they are not plain enough to be sure."""
    patterns: list[str] = []
    fields: dict[str, object] = {"exts": [], "ignore_dirs": []}
    words = list(args)
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, inline = word.partition("=")
        if not word.startswith("-") or word == "-":
            patterns.append(word)
        elif name in _VALUE_FLAGS:
            if eq:
                value = inline
            elif i + 1 < len(words):
                i += 1
                value = words[i]
            else:
                return None
            _take_value(fields, name, value)
        elif word in _SWITCHES:
            _take_switch(fields, word)
        else:
            return None  # `--`, `-h`, an abbreviation, a typo: leave it to argparse
        i += 1
    return {"patterns": patterns, **fields} if patterns else None


def _take_value(fields: dict[str, object], name: str, value: str) -> None:
    if name == "--root":
        fields["root"] = value
    elif name in {"--ext", "--ignore-dir"}:
        key = "exts" if name == "--ext" else "ignore_dirs"
        listed = fields[key]
        assert isinstance(listed, list)
        listed.extend(part.strip() for part in value.split(",") if part.strip())


def _take_switch(fields: dict[str, object], word: str) -> None:
    if word in {"--regex", "--word"}:
        fields[word[2:]] = True
    elif word in {"--case", "--no-case"}:
        fields["case"] = word == "--case"
