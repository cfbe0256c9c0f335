"""The `sf` command line, generated from the provider registry.

Only the command that runs has its provider module imported (to build its arguments from the
input model); `sf --help` imports nothing heavier than the registry, and `mcp`/`loky` are
imported by `sf mcp` alone.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sofia import __version__, settings
from sofia.errors import UsageError
from sofia.providers.registry import PROVIDERS, Provider, command_entries, group_named
from sofia.settings import DEFAULT_BUDGET

if TYPE_CHECKING:
    from sofia.cli.spelling import CommandLine
    from sofia.providers.contract import Context

DESCRIPTION = (
    "sofia: compact, structured, read-only context about a workspace for LLM coding agents.\n"
    "Every command prints TOON by default; --json and --md switch the format."
)

BUILTINS = {
    "mcp": "run the MCP stdio server (sf mcp --help for its options)",
    "init": "register sofia with your MCP clients (Claude Code, Cursor, VS Code, ...); --check tests them",
    "doctor": "check what sofia needs (git, rg, gh, composer, php, Claude Code data, the MCP server)",
}

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    # sofia uses no pydantic plugins; not scanning entry points for them saves ~40 ms per start.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        return _dispatch(args)
    except UsageError as exc:  # a bad setting met outside a command's own checks
        print(f"sf: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("sf: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`sf grep x | head`): nothing left to say, and nothing to report.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


def _command_path(args: list[str]) -> tuple[str, ...]:
    """The leading words of `args` that name a command (`("cc", "show")`), as far as they match."""
    words = [a for a in args[:2]]
    if not words or words[0].startswith("-"):
        return ()
    first = words[0]
    if first in BUILTINS:
        return (first,)
    for provider in PROVIDERS:
        if provider.cli[0] != first:
            continue
        if len(provider.cli) == 1:
            return provider.cli
        if len(words) > 1 and provider.cli[1] == words[1]:
            return provider.cli
    return (first,)


def _first_sentence(text: str) -> str:
    """The short help of a command: its description up to the first colon or full stop."""
    head = text.split(". ")[0].split(": ")[0].rstrip(".")
    return head[:1].lower() + head[1:]


class _Parser(argparse.ArgumentParser):
    """argparse whose refusal of a value outside an option's choices names the closest ones."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is None or value in choices or not isinstance(value, str):
            super()._check_value(action, value)
            return
        from sofia.errors import not_a_choice

        raise argparse.ArgumentError(action, not_a_choice(value, [str(choice) for choice in choices]))


def _build_parser() -> tuple[argparse.ArgumentParser, dict[tuple[str, ...], argparse.ArgumentParser]]:
    """The whole command tree; only leaves get their arguments (filled in later for the selected one)."""
    parser = _Parser(prog="sf", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"sf {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    leaves: dict[tuple[str, ...], argparse.ArgumentParser] = {}
    subcommands: dict[str, Any] = {}
    for path in _command_paths():
        entries = command_entries(path)
        own = entries[0]
        options: dict[str, Any] = {
            "help": _first_sentence(own.description),
            "description": own.description,
            "epilog": _examples(entries),
            "formatter_class": argparse.RawDescriptionHelpFormatter,
        }
        if len(path) == 1:
            leaves[path] = commands.add_parser(path[0], **options)
            continue
        head = path[0]
        if head not in subcommands:
            group = group_named(head)
            text = group.help if group is not None else head
            holder = commands.add_parser(head, help=text, description=text)
            subcommands[head] = holder.add_subparsers(
                dest="subcommand", metavar="SUBCOMMAND", title="subcommands"
            )
            holder.set_defaults(_group=holder)
        leaves[path] = subcommands[head].add_parser(path[1], **options)
    for name, text in BUILTINS.items():
        leaves[(name,)] = commands.add_parser(name, help=text, description=text, add_help=name != "mcp")
    return parser, leaves


def _command_paths() -> list[tuple[str, ...]]:
    """Every CLI command once, in registry order (a command and its CLI-only modes share one)."""
    return list(dict.fromkeys(provider.cli for provider in PROVIDERS))


def _examples(entries: Sequence[Provider]) -> str:
    examples = [example for entry in entries for example in entry.examples]
    if not examples:
        return ""
    return "examples:\n" + "\n".join(f"  {example}" for example in examples)


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    out = parser.add_argument_group("output")
    out.add_argument(
        "--format", choices=("toon", "json", "md"), default="toon", help="output format (default: toon)"
    )
    out.add_argument(
        "--json", dest="format", action="store_const", const="json", help="same as --format json"
    )
    out.add_argument("--md", dest="format", action="store_const", const="md", help="same as --format md")
    out.add_argument(
        "--max-output-tokens",
        dest="max_output_tokens",
        default=None,
        metavar="TOKENS",
        help=f"output budget in estimated tokens; 0 = unlimited (default: $SOFIA_MAX_OUTPUT_TOKENS or {DEFAULT_BUDGET})",
    )


def _dispatch(args: list[str]) -> int:
    selected = _command_path(args)
    entries = command_entries(selected)
    early = entries[0].start_early(args[len(selected) :], Path.cwd()) if entries else None
    try:
        return _parse_and_run(args, selected, entries)
    finally:
        if early is not None:
            early.discard()


def _parse_and_run(args: list[str], selected: tuple[str, ...], entries: list[Provider]) -> int:
    if selected == ("mcp",):
        from sofia.server import main as server_main

        return server_main(args[1:])
    parser, leaves = _build_parser()
    if selected in (("doctor",), ("init",)):
        if selected == ("init",):
            from sofia.cli import init

            init.add_arguments(leaves[selected])
        _add_output_options(leaves[selected])
    specs: list[Any] = []
    after: list[str] = []
    if entries:
        from sofia.cli import arguments

        specs = arguments.add_model_arguments(leaves[selected], entries[0].cli_params)
        for mode in entries[1:]:
            specs += arguments.add_mode_arguments(leaves[selected], mode.cli_params, mode.mode_flag, specs)
        _spell_help(leaves[selected], specs)
        _add_output_options(leaves[selected])
        if arguments.has_after_dashdash(specs) and "--" in args:
            cut = args.index("--")
            args, after = args[:cut], args[cut + 1 :]
    unknown = _unknown_command(args)
    if unknown:
        print(unknown, file=sys.stderr)
        return EXIT_USAGE
    namespace, extras = parser.parse_known_args(args)
    if extras:
        leaf = leaves.get(selected, parser)
        familiar = entries[0].familiar if entries else {}
        print(
            f"{leaf.prog}: error: {_unrecognized(extras, leaf, familiar)}\n(see {leaf.prog} --help)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if getattr(namespace, "command", None) is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if hasattr(namespace, "_group") and getattr(namespace, "subcommand", None) is None:
        namespace._group.print_help(sys.stderr)
        return EXIT_USAGE
    if selected == ("doctor",):
        from sofia.cli.doctor import run_doctor
        from sofia.runtime import proc

        with proc.children_end_on_interrupt():
            return run_doctor(namespace.format)
    if selected == ("init",):
        from sofia.runtime import proc

        with proc.children_end_on_interrupt():
            return _run_init(namespace)
    return _run_provider(entries, namespace, specs, after)


def _spell_help(leaf: argparse.ArgumentParser, specs: list[Any]) -> None:
    """Parameter references in the field descriptions, spelled as this command's flags."""
    from sofia.cli.spelling import CommandLine
    from sofia.errors import render

    spell = CommandLine(specs)
    for action in leaf._actions:
        if action.help:
            action.help = render(action.help, spell)


def _unknown_command(args: list[str]) -> str:
    """The error for a mistyped command or subcommand, with the closest names; "" when it is known."""
    import difflib

    words = [word for word in args[:2]]
    if not words or words[0].startswith("-"):
        return ""
    paths = _command_paths()
    heads = list(dict.fromkeys([path[0] for path in paths] + list(BUILTINS)))
    if words[0] not in heads:
        close = difflib.get_close_matches(words[0], heads, n=3, cutoff=0.5)
        hint = f"; did you mean {' or '.join(close)}?" if close else f"; commands: {', '.join(heads)}"
        return f"sf: error: unknown command {words[0]!r}{hint}\n(see sf --help)"
    subcommands = [path[1] for path in paths if path[0] == words[0] and len(path) == 2]
    if subcommands and len(words) > 1 and not words[1].startswith("-") and words[1] not in subcommands:
        close = difflib.get_close_matches(words[1], subcommands, n=3, cutoff=0.5)
        hint = (
            f"; did you mean {' or '.join(close)}?" if close else f"; subcommands: {', '.join(subcommands)}"
        )
        return f"sf {words[0]}: error: unknown subcommand {words[1]!r}{hint}\n(see sf {words[0]} --help)"
    return ""


def _unrecognized(extras: list[str], leaf: argparse.ArgumentParser, familiar: Mapping[str, str]) -> str:
    """`unrecognized arguments: --max-per-patern (did you mean --max-per-pattern?)`; a familiar
    short flag sofia does not take (`grep -rn`) is told why and what to do instead."""
    import difflib

    options = [option for action in leaf._actions for option in action.option_strings]
    named = []
    for extra in extras:
        told = _familiar(extra, familiar)
        close = (
            difflib.get_close_matches(extra.split("=")[0], options, n=1, cutoff=0.6)
            if extra.startswith("-") and not told
            else []
        )
        if told:
            named.append(f"{extra} [{told}]")
        else:
            named.append(f"{extra} (did you mean {close[0]}?)" if close else extra)
    return "unrecognized arguments: " + " ".join(named)


def _familiar(extra: str, familiar: Mapping[str, str]) -> str:
    """What the familiar flags in `extra` (`-n`, or bundled: `-rn`) mean here; "" for none."""
    if not familiar or not extra.startswith("-") or extra.startswith("--"):
        return ""
    letters = extra[1:].partition("=")[0]
    said = [
        f"-{letter}: {familiar[f'-{letter}']}"
        for letter in dict.fromkeys(letters)
        if f"-{letter}" in familiar
    ]
    return "; ".join(said)


def _run_init(namespace: argparse.Namespace) -> int:
    from sofia.cli import init
    from sofia.output import render

    try:
        document, status = init.run_init(namespace, Path.cwd(), Path.home())
    except UsageError as exc:
        print(f"sf init: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(render.render(document, namespace.format, init.render))
    return status


def _budget(namespace: argparse.Namespace) -> int | None:
    value: int = settings.get("SOFIA_MAX_OUTPUT_TOKENS", namespace.max_output_tokens)
    return value or None


def _run_provider(
    entries: list[Provider], namespace: argparse.Namespace, specs: list[Any], after: list[str]
) -> int:
    from sofia.cli import interact
    from sofia.cli.spelling import CommandLine
    from sofia.providers.contract import Context, Outcome

    command = "sf " + " ".join(entries[0].cli)
    spell = CommandLine(specs)
    try:
        provider, params, budget = _chosen(entries, namespace, specs, after)
    except UsageError as exc:
        print(f"{command}: error: {exc}", file=sys.stderr)
        print(f"(see {command} --help)", file=sys.stderr)
        return EXIT_USAGE
    ctx = Context(root=Path.cwd(), budget=budget, progress=interact.progress(), confirm=interact.confirm)
    failed, result = _call(provider, params, ctx, command, spell)
    if failed is not None:
        return failed
    exit_code = EXIT_OK
    if isinstance(result, Outcome):
        exit_code, result = result.exit_code, result.result
    _print_result(result, provider, namespace.format, spell)
    return exit_code


def _chosen(
    entries: list[Provider], namespace: argparse.Namespace, specs: list[Any], after: list[str]
) -> tuple[Provider, Any, int | None]:
    """The record the arguments select (a CLI-only mode by its flag), its validated input and
    the budget; every problem with them is a `UsageError`, raised before anything runs."""
    from pydantic import ValidationError

    from sofia.cli import arguments

    budget = _budget(namespace)
    for name in ("SOFIA_FOOTER", "SOFIA_DEBUG"):
        settings.get(name)  # a bad value is reported before the command runs, not after
    values = arguments.collect(namespace, specs, after)
    provider = arguments.choose_mode(entries, values, specs)
    try:
        params = provider.cli_params.model_validate(values)
    except ValidationError as exc:
        raise UsageError(_validation_message(exc, specs, provider.cli_params)) from None
    return provider, params, budget


def _call(
    provider: Provider, params: Any, ctx: Context, command: str, spell: CommandLine
) -> tuple[int | None, Any]:
    """(None, the result), or (the exit status, None) once the error is printed: a usage error
    for arguments the provider found wrong, an error the caller can fix, or an internal one."""
    from sofia.cli import interact
    from sofia.errors import ArgumentError
    from sofia.providers.contract import ProviderError
    from sofia.runtime import proc

    try:
        with proc.children_end_on_interrupt():
            prepare = provider.prepare
            if prepare is not None:
                params = prepare(params, ctx)
            return None, provider.run(params, ctx)
    except ArgumentError as exc:  # the arguments alone are wrong: a usage error, as the model's
        print(f"{command}: error: {exc.text(spell)}", file=sys.stderr)
        print(f"(see {command} --help)", file=sys.stderr)
        return EXIT_USAGE, None
    except ProviderError as exc:
        print(f"{command}: error: {exc.text(spell)}", file=sys.stderr)
        return EXIT_ERROR, None
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as exc:
        print(f"{command}: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        if settings.get("SOFIA_DEBUG"):
            import traceback

            traceback.print_exc()
        else:
            print("(set SOFIA_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_ERROR, None
    finally:
        interact.clear_progress()


def _print_result(result: Any, provider: Provider, fmt: str, spell: CommandLine) -> None:
    """The result in `fmt` on stdout, parameters spelt as flags; the token footer on stderr."""
    from sofia import errors
    from sofia.output import render

    result = errors.render_all(result, spell)
    text = errors.render(render.render(result, fmt, provider.render), spell)
    sys.stdout.write(text)
    sys.stdout.flush()
    if fmt != "json":
        line = render.footer(text, result)
        if line:
            print(line, file=sys.stderr)


def _validation_message(exc: Any, specs: list[Any], model: Any) -> str:
    """One short line per problem, naming the option as the user typed it, in sofia's words
    (`sofia.providers.params.problem`), never pydantic's."""
    from sofia.cli.spelling import CommandLine
    from sofia.errors import render
    from sofia.providers.params import problem

    names = {spec.name: spec.display for spec in specs}
    spell = CommandLine(specs)
    problems: list[str] = []
    for error in exc.errors(include_url=False):
        location: tuple[Any, ...] = tuple(error.get("loc") or ())
        field = str(location[0]) if location else ""
        where = names.get(field, field)
        if len(location) > 1 and isinstance(location[1], int):
            where += f" (value {location[1] + 1})"
        text = render(problem(model, error, _as_typed), spell)
        line = f"{where}: {text}" if where else text
        if line not in problems:
            problems.append(line)
    return "; ".join(problems)


def _as_typed(value: Any) -> str:
    """A value from the command line as the user typed it: a number bare, other text quoted."""
    from sofia.errors import quote

    text = str(value)
    try:
        float(text)
    except ValueError:
        return repr(quote(text, 40))
    return text
