"""Deriving argparse arguments from a provider's pydantic input model, and back.

Defaults stay in the model: every argument defaults to `argparse.SUPPRESS`, so only what the user
typed reaches `model_validate` and the CLI can never disagree with the MCP defaults.
"""

from __future__ import annotations

import argparse
import types
import typing
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from sofia.errors import UsageError
from sofia.providers.contract import Cli


@dataclass(frozen=True)
class FieldArg:
    """How one model field appears on the command line."""

    name: str
    kind: str  # "bool", "int", "float", "str", "list"
    cli: Cli
    display: str  # what the user sees in messages: "--max-per-pattern" or "PATTERN"
    mode: str = ""
    """The CLI-only mode (its flag's field name) this option belongs to; "" for the command's own."""
    metavar: str = ""
    """The placeholder of its value as `--help` shows it (`DIR`, `N`, `{workspace,repo}`)."""
    negative: str = ""
    """A bool option that is on by default: the flag that turns it off (`--no-case`)."""


def _kind(annotation: Any) -> tuple[str, tuple[Any, ...]]:
    """Classify a field's type; the second item holds Literal choices."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return "str", typing.get_args(annotation)
    if origin in (list, tuple, set):
        return "list", ()
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(inner) == 1:
            return _kind(inner[0])
    if annotation is bool:
        return "bool", ()
    if annotation is int:
        return "int", ()
    if annotation is float:
        return "float", ()
    return "str", ()


def _cli_of(metadata: list[Any]) -> Cli:
    for item in metadata:
        if isinstance(item, Cli):
            return item
    return Cli()


def _default_text(default: Any) -> str:
    if default in (None, "", False, [], ()) or default is Ellipsis:
        return ""
    if isinstance(default, bool):
        return "on"
    return str(default)


def add_mode_arguments(
    parser: argparse.ArgumentParser, model: Any, flag: str, existing: list[FieldArg]
) -> list[FieldArg]:
    """The options a CLI-only mode adds to its command (`--watch`, `--timeout`), in their own group."""
    group = parser.add_argument_group(f"CLI-only mode --{flag.replace('_', '-')}")
    known = {spec.name for spec in existing}
    return add_model_arguments(group, model, skip=known, mode=flag)


def choose_mode(entries: Sequence[Any], values: dict[str, Any], specs: list[FieldArg]) -> Any:
    """The record to run: a CLI-only mode when its flag is given, else the command's own; an option
    of a mode given without the mode's flag is a usage error."""
    displays = {spec.name: spec.display for spec in specs}
    chosen = [entry for entry in entries[1:] if values.get(entry.mode_flag) is True]
    if len(chosen) > 1:
        raise UsageError(" and ".join(displays[entry.mode_flag] for entry in chosen) + " cannot be combined")
    entry = chosen[0] if chosen else entries[0]
    for spec in specs:
        if spec.mode and spec.mode != entry.mode_flag and spec.name in values:
            raise UsageError(f"{spec.display} only works with {displays.get(spec.mode, spec.mode)}")
    return entry


Parser = argparse.ArgumentParser | argparse._ArgumentGroup


@dataclass(frozen=True)
class _Field:
    """What the command line needs of one model field, read once from the model."""

    name: str
    kind: str
    choices: tuple[Any, ...]
    required: bool
    default: Any
    help: str
    cli: Cli

    @property
    def metavar(self) -> str:
        return self.cli.metavar or self.name.upper()


def _read_field(name: str, field: Any) -> _Field:
    from pydantic_core import PydanticUndefined

    kind, choices = _kind(field.annotation)
    default = None if field.default is PydanticUndefined else field.default
    if field.default_factory is not None:
        default = field.default_factory()
    help_text = (field.description or "").rstrip(".")
    shown = _default_text(default)
    if shown and kind != "bool":
        help_text += f" (default: {shown})"
    return _Field(name, kind, choices, field.is_required(), default, help_text, _cli_of(field.metadata))


def add_model_arguments(
    parser: Parser,
    model: Any,
    skip: Collection[str] = (),
    mode: str = "",
) -> list[FieldArg]:
    """Add one argument per field of `model` (but those in `skip`) to `parser`; return how each
    field is spelled: after a bare `--`, a positional, or an option."""
    specs: list[FieldArg] = []
    for name, model_field in model.model_fields.items():
        if name in skip:
            continue
        field = _read_field(name, model_field)
        if field.cli.after_dashdash:
            specs.append(FieldArg(name, field.kind, field.cli, f"-- {field.metavar}...", mode, field.metavar))
        elif field.cli.positional:
            _add_positional(parser, field)
            specs.append(FieldArg(name, field.kind, field.cli, field.metavar, mode, field.metavar))
        else:
            specs.append(_add_option(parser, field, mode))
    return specs


def _add_positional(parser: Parser, field: _Field) -> None:
    nargs: str | None
    if field.kind == "list":
        nargs = "+" if field.required else "*"
    else:
        nargs = None if field.required else "?"
    kwargs: dict[str, Any] = {"help": field.help, "metavar": field.metavar, "default": argparse.SUPPRESS}
    if nargs:
        kwargs["nargs"] = nargs
    if field.choices:
        kwargs["choices"] = field.choices
    parser.add_argument(field.name, **kwargs)


def _add_option(parser: Parser, field: _Field, mode: str) -> FieldArg:
    """`--flag` (and its short form): a switch, a repeatable list, or one value."""
    cli, name = field.cli, field.name
    flag = cli.flag or "--" + name.replace("_", "-")
    flags = [flag, *([cli.short] if cli.short else [])]
    shown_metavar, negative = "", ""
    if field.kind == "bool":
        if field.default is True:
            negative = "--no-" + flag.removeprefix("--")
            parser.add_argument(
                *flags,
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=argparse.SUPPRESS,
                help=field.help + " (default: on)",
            )
            if cli.off_short:
                parser.add_argument(
                    cli.off_short,
                    dest=name,
                    action="store_false",
                    default=argparse.SUPPRESS,
                    help=f"same as {negative}",
                )
        else:
            parser.add_argument(
                *flags, dest=name, action="store_true", default=argparse.SUPPRESS, help=field.help
            )
    elif field.kind == "list":
        shown_metavar = cli.metavar or "VALUE"
        repeat = " (repeatable; comma-separated values allowed)" if cli.split else " (repeatable)"
        parser.add_argument(
            *flags,
            dest=name,
            action="append",
            default=argparse.SUPPRESS,
            metavar=shown_metavar,
            help=field.help + repeat,
        )
    else:
        kwargs: dict[str, Any] = {"dest": name, "default": argparse.SUPPRESS, "help": field.help}
        if field.choices:
            kwargs["choices"] = field.choices
            shown_metavar = "{" + ",".join(map(str, field.choices)) + "}"
        else:
            kwargs["metavar"] = shown_metavar = cli.metavar or ("VALUE" if field.kind == "str" else "N")
        parser.add_argument(*flags, **kwargs)
    return FieldArg(name, field.kind, cli, flag, mode, shown_metavar, negative)


def collect(
    namespace: argparse.Namespace, specs: list[FieldArg], after_dashdash: list[str]
) -> dict[str, Any]:
    """The values the user gave, keyed by field name, ready for `model_validate`."""
    values: dict[str, Any] = {}
    for spec in specs:
        if spec.cli.after_dashdash:
            if after_dashdash:
                values[spec.name] = list(after_dashdash)
            continue
        if not hasattr(namespace, spec.name):
            continue
        value = getattr(namespace, spec.name)
        if spec.kind == "list":
            items = list(value or [])
            if spec.cli.split:
                items = [part.strip() for item in items for part in item.split(",") if part.strip()]
            if spec.cli.positional and not items:
                continue
            value = items
        values[spec.name] = value
    return values


def has_after_dashdash(specs: list[FieldArg]) -> bool:
    return any(spec.cli.after_dashdash for spec in specs)
