"""Parameter and tool references (`sofia.errors.param`, `tool`) spelled as the command line spells them.

The spelling comes from the `FieldArg` records the command's parser was built from, so a hint can
never name a flag the parser does not have: `param("max_per_pattern", 5)` is `--max-per-pattern 5`,
`param("regex", True)` is `--regex`, `param("case", False)` is `--no-case`, a positional is its
metavar (`FILE`), a list after `--` is `-- PATH...`; `tool("cc_ls")` is `sf cc ls`. A name the
command or the registry does not have keeps the plain spelling (`sofia.errors.PARAMETERS`).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from sofia.cli.arguments import FieldArg
from sofia.errors import MENTION, Spelling, as_parameter


class CommandLine(Spelling):
    """The spelling of one command whose arguments are `specs`."""

    def __init__(self, specs: Sequence[FieldArg]) -> None:
        self._specs = {spec.name: spec for spec in specs}

    def parameter(self, name: str, value: Any) -> str:
        spec = self._specs.get(name)
        if spec is None:
            return as_parameter(name, value)
        return _flag(spec, value)

    def tool(self, name: str) -> str:
        from sofia.providers.registry import by_name

        provider = by_name(name)
        return "sf " + " ".join(provider.cli) if provider is not None else name


def _flag(spec: FieldArg, value: Any) -> str:
    some = value is Ellipsis or (isinstance(value, list) and value[:1] == [Ellipsis])
    if spec.cli.after_dashdash:
        if value is MENTION or some:
            return spec.display
        return "-- " + _words(value)
    if spec.cli.positional:
        if value is MENTION or value is Ellipsis:
            return spec.metavar
        if some:
            return f"{spec.metavar}..."
        return _words(value)
    if spec.kind == "bool":
        if value is False:
            return spec.negative or as_parameter(spec.name, value)
        return spec.display
    if value is MENTION:
        return spec.display
    if some:
        return f"{spec.display} {spec.metavar}"
    if isinstance(value, list):
        if spec.cli.split:
            return f"{spec.display} {shlex.quote(','.join(map(str, value)))}"
        return " ".join(f"{spec.display} {_word(item)}" for item in value)
    return f"{spec.display} {_word(value)}"


def _words(value: Any) -> str:
    items = value if isinstance(value, list) else [value]
    return " ".join(_word(item) for item in items)


def _word(value: Any) -> str:
    """One argument as a shell user types it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return shlex.quote(str(value))
