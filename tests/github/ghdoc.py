"""gh's documented command line, for the commands sofia runs, pinned to one gh version.

Taken from the GitHub CLI manual pages of gh 2.23.0 (the Debian bookworm package: `gh-run-list(1)`,
`gh-run-view(1)`, `gh-api(1)`, identical for these entries to the pages published for 2.22.1 and
2.27.0) and from the field list gh prints for `--json` without a value (`JSON FIELDS` in newer
manual pages). Only what the manual documents is accepted: a flag, an option value or a `--json`
field that is not listed here makes `problem()` name it, and the fake gh refuse the call.

`check_live()` compares the table with the `--help` of an installed gh (SOFIA_TEST_REAL_GH=1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

GH_VERSION = "2.23.0"

RUN_FIELDS = frozenset(
    [
        "conclusion",
        "createdAt",
        "databaseId",
        "displayTitle",
        "event",
        "headBranch",
        "headSha",
        "name",
        "number",
        "startedAt",
        "status",
        "updatedAt",
        "url",
        "workflowDatabaseId",
        "workflowName",
    ]
)
"""`gh run list --json` fields."""


@dataclass(frozen=True)
class Command:
    """One gh command: its flags (long name → short alias, "" without) and which take a value."""

    path: tuple[str, ...]
    flags: dict[str, str]
    valued: frozenset[str]
    positionals: int
    json_fields: frozenset[str] = field(default_factory=frozenset)


COMMANDS = {
    ("run", "list"): Command(
        ("run", "list"),
        flags={
            "--branch": "-b",
            "--jq": "-q",
            "--json": "",
            "--limit": "-L",
            "--template": "-t",
            "--user": "-u",
            "--workflow": "-w",
            "--repo": "-R",
        },
        valued=frozenset(
            {"--branch", "--jq", "--json", "--limit", "--template", "--user", "--workflow", "--repo"}
        ),
        positionals=0,
        json_fields=RUN_FIELDS,
    ),
    ("run", "view"): Command(
        ("run", "view"),
        flags={
            "--exit-status": "",
            "--job": "-j",
            "--jq": "-q",
            "--json": "",
            "--log": "",
            "--log-failed": "",
            "--template": "-t",
            "--verbose": "-v",
            "--web": "-w",
            "--repo": "-R",
        },
        valued=frozenset({"--job", "--jq", "--json", "--template", "--repo"}),
        positionals=1,
        json_fields=RUN_FIELDS | {"jobs"},
    ),
    ("api",): Command(
        ("api",),
        flags={
            "--cache": "",
            "--field": "-F",
            "--header": "-H",
            "--hostname": "",
            "--include": "-i",
            "--input": "",
            "--jq": "-q",
            "--method": "-X",
            "--paginate": "",
            "--preview": "-p",
            "--raw-field": "-f",
            "--silent": "",
            "--template": "-t",
        },
        valued=frozenset(
            {
                "--cache",
                "--field",
                "--header",
                "--hostname",
                "--input",
                "--jq",
                "--method",
                "--preview",
                "--raw-field",
                "--template",
            }
        ),
        positionals=1,
    ),
}

HTTP_METHODS = frozenset({"GET", "POST", "PATCH", "PUT", "DELETE"})


def command_of(argv: Sequence[str]) -> Command | None:
    for size in (2, 1):
        command = COMMANDS.get(tuple(argv[:size]))
        if command is not None:
            return command
    return None


def problem(argv: Sequence[str]) -> str:
    """What in `argv` (gh's arguments, without `gh`) the pinned manual does not document; "" if nothing."""
    command = command_of(argv)
    if command is None:
        return f"undocumented command {' '.join(argv[:2])!r}"
    short_to_long = {short: long for long, short in command.flags.items() if short}
    rest = list(argv[len(command.path) :])
    positionals: list[str] = []
    while rest:
        token = rest.pop(0)
        if not token.startswith("-") or token == "-":
            positionals.append(token)
            continue
        name, has_value, value = token.partition("=")
        name = short_to_long.get(name, name)
        if name not in command.flags:
            return f"undocumented flag {token!r} for gh {' '.join(command.path)}"
        if name in command.valued and not has_value:
            if not rest:
                return f"flag {name} needs a value"
            value = rest.pop(0)
        elif name not in command.valued and has_value:
            return f"flag {name} takes no value"
        trouble = value_problem(command, name, value)
        if trouble:
            return trouble
    if len(positionals) > command.positionals:
        return f"unexpected arguments {positionals[command.positionals :]!r} for gh {' '.join(command.path)}"
    return ""


def value_problem(command: Command, name: str, value: str) -> str:
    if name == "--json":
        unknown = sorted(set(value.split(",")) - command.json_fields)
        return f"undocumented --json fields {unknown!r}" if unknown else ""
    if name == "--limit" and not value.isdigit():
        return f"--limit needs a number, got {value!r}"
    if name in ("--field", "--raw-field") and "=" not in value:
        return f"{name} needs key=value, got {value!r}"
    if name == "--method" and value not in HTTP_METHODS:
        return f"--method {value!r} is not an HTTP method"
    return ""


def check_live(gh: str = "gh") -> list[str]:
    """Differences between this table and the `--help` of the gh at `gh`: entries it lacks."""
    missing: list[str] = []
    for command in COMMANDS.values():
        help_text = _run([gh, *command.path, "--help"])
        for long, short in command.flags.items():
            if long not in help_text or (short and f"{short}, {long}" not in help_text):
                missing.append(f"gh {' '.join(command.path)} {short + ', ' if short else ''}{long}")
        if command.json_fields:
            listed = _run([gh, *command.path, *(["1"] if command.positionals else []), "--json"])
            for name in sorted(command.json_fields):
                if name not in listed.split():
                    missing.append(f"gh {' '.join(command.path)} --json {name}")
    return missing


def _run(args: list[str]) -> str:
    import subprocess

    done = subprocess.run(args, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
    return done.stdout + done.stderr
