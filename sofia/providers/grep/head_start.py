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

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sofia.providers.grep import prestarted
from sofia.runtime import proc

_VALUE_FLAGS = {"--root", "--ext", "--ignore-dir", "--max-per-pattern", "--format", "--max-output-tokens"}
_LISTS = {"--ext": "exts", "--ignore-dir": "ignore_dirs"}
_SWITCHES = {"--regex": "regex", "-E": "regex", "--word": "word", "-w": "word"}


def start(args: Sequence[str], workspace: Path, *, per_pattern: bool = False) -> None:
    """Start the runs `sf grep ARGS` will need, if `args` are plain enough to read here; with
    `per_pattern`, one count run per pattern (what `refs` runs) instead of grep's first runs."""
    from sofia import settings

    if not settings.get("SOFIA_HEAD_START"):  # `off` compares timings, or rules head starts out
        return
    options = _read(args)
    if options is None:
        return
    from sofia.providers.contract import Context, ProviderError
    from sofia.providers.grep.request import build
    from sofia.providers.grep.ripgrep import Ripgrep

    try:
        request = build(workspace=workspace, **options)
        ripgrep = Ripgrep(request, Context(root=workspace, budget=None))
        commands = (
            [ripgrep.count_command(pattern) for pattern in request.patterns]
            if per_pattern
            else ripgrep.first_commands()
        )
        for command in commands:
            prestarted.offer(command, request.cwd, proc.Background(command, cwd=request.cwd))
    except (ProviderError, OSError):
        discard()


def discard() -> None:
    """Kill every run nobody claimed (the call failed validation or asked for something else)."""
    prestarted.discard()


def _read(args: Sequence[str]) -> dict[str, Any] | None:
    """`sf grep` arguments as `request.build` keywords, or None when they are not plain enough to
    be sure (output options are read past: they do not change the search)."""
    options: dict[str, Any] = {"patterns": [], "exts": [], "ignore_dirs": []}
    words = iter(args)
    for word in words:
        name, eq, inline = word.partition("=")
        if not word.startswith("-") or word == "-":
            options["patterns"].append(word)
        elif name in _VALUE_FLAGS:
            value = inline if eq else next(words, None)
            if value is None:
                return None
            if name == "--root":
                options["root"] = value
            elif name in _LISTS:
                options[_LISTS[name]].extend(part.strip() for part in value.split(",") if part.strip())
        elif word in _SWITCHES:
            options[_SWITCHES[word]] = True
        elif word in {"--case", "--no-case", "-i"}:
            options["case"] = word == "--case"
        elif word not in {"--json", "--md"}:
            return None  # `--`, `-h`, an abbreviation, a typo: leave it to argparse
    return options if options["patterns"] else None
