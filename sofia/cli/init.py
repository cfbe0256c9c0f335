"""`sf init`: register sofia with the user's MCP clients, and `sf init --check` that they can start it.

The entry written runs this very installation (`sofia.cli.installation`), and names the project
for a client that does not start servers in it (`sofia.cli.clients`). Files are merged (other
servers, comments and line endings untouched), replaced atomically after a numbered backup kept in
sofia's state directory (`sofia.cli.backups`), and a second run changes nothing; `--dry-run` shows
the exact change; a malformed file is reported and left alone. `--check` starts every sofia entry
found in any client's places, whether or not the client seems installed.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from sofia.cli import configedit
from sofia.cli.backups import replace_file
from sofia.cli.clients import CLIENTS, NAMES, Client, Place, Scope, client_named
from sofia.cli.installation import Entry, own_entry
from sofia.errors import UsageError, unknown_choice

SERVER_NAME = "sofia"

Row = dict[str, Any]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--client",
        action="append",
        default=[],
        metavar="NAME",
        help=f"client to set up, repeatable: {', '.join(NAMES)} (default: every client found on this machine)",
    )
    parser.add_argument(
        "--scope",
        choices=("project", "user"),
        default=None,
        help="project: this directory only; user: every project (default: project where the client has it)",
    )
    parser.add_argument("--workers", metavar="N", help="worker processes of the server (default: its own)")
    parser.add_argument("--tools", metavar="LIST", help="only these tools or groups, e.g. code,grep,cc")
    parser.add_argument("--dry-run", action="store_true", help="print the exact change and write nothing")
    parser.add_argument(
        "--check",
        action="store_true",
        help="start each configured entry as its client would and do the MCP handshake; change nothing",
    )


def entry_value(entry: Entry, place: Place, project: Path) -> dict[str, Any]:
    """The entry as `place` holds it: typed where the client wants it, naming the project where
    the client does not start servers in it (`cwd`, or `--root` right after `mcp`)."""
    value: dict[str, Any] = {"type": "stdio"} if place.typed else {}
    args = list(entry.args)
    if place.workdir == "root":
        at = args.index("mcp") + 1
        args[at:at] = ["--root", str(project)]
    value.update(command=entry.command, args=args)
    if place.workdir == "cwd":
        value["cwd"] = str(project)
    return value


def client_names(given: list[str]) -> list[str]:
    """The `--client` values, each a client `sf init` knows; a mistyped one is a usage error
    naming the closest."""
    for name in given:
        if client_named(name) is None:
            raise UsageError(unknown_choice("--client", name, NAMES))
    return list(dict.fromkeys(given))


def run_init(namespace: argparse.Namespace, project: Path, home: Path) -> tuple[dict[str, Any], int]:
    """The report document and the exit status of `sf init` / `sf init --check`."""
    clients = [client_named(name) for name in client_names(namespace.client)]
    named = [c for c in clients if c is not None]
    rows: list[Row] = []
    if namespace.check:
        for client in named or CLIENTS:
            rows.extend(check(client, namespace.scope, project, home, explicit=bool(named)))
        document: dict[str, Any] = {"entries": rows, "ok": bool(rows)}
        if not rows:
            document["summary"] = (
                "no sofia entry in any place an MCP client keeps one (docs/reference/clients.md); run sf init"
            )
            return document, 1
        failed = [row for row in rows if row["action"] == "fail"]
        document["ok"] = not failed
        return document, 1 if failed else 0
    chosen = named or [c for c in CLIENTS if c.detect(home)]
    if not chosen:
        raise UsageError(f"no MCP client found on this machine; pass --client NAME ({', '.join(NAMES)})")
    entry = own_entry(namespace.workers, namespace.tools)
    for client in chosen:
        rows.append(register(client, namespace.scope, entry, project, home, namespace.dry_run))
    failed = [row for row in rows if row["action"] in ("error", "fail")]
    document = {"entries": rows, "ok": not failed, "command": entry.spelled()}
    return document, 1 if failed else 0


def _scope_for(client: Client, wanted: Scope | None, places: dict[Scope, Place]) -> Scope | None:
    if wanted is not None:
        return wanted if wanted in places else None
    return "project" if "project" in places else "user"


def _uses_program(client: Client) -> bool:
    return (
        bool(client.program)
        and client.program_places is not None
        and shutil.which(client.program) is not None
    )


def _places(client: Client, project: Path, home: Path) -> dict[Scope, Place]:
    if _uses_program(client) and client.program_places is not None:
        return client.program_places(project, home)
    return client.places(project, home)


def _row(client: Client, scope: str, place: Place | None, action: str, detail: str = "", **extra: Any) -> Row:
    row: Row = {
        "client": client.name,
        "scope": scope,
        "file": str(place.file) if place else "",
        "action": action,
        "detail": detail,
    }
    row.update(extra)
    return row


def register(
    client: Client, wanted: Scope | None, entry: Entry, project: Path, home: Path, dry_run: bool
) -> Row:
    places = _places(client, project, home)
    scope = _scope_for(client, wanted, places)
    if scope is None:
        return _row(
            client, wanted or "", None, "error", f"{client.title} has no {wanted} scope; use --scope user"
        )
    place = places[scope]
    note = place.note
    if wanted is None and scope == "user" and "project" not in places:
        note = "; ".join(filter(None, [f"{client.title} has user scope only", place.note]))
    at_home = os.path.realpath(project) == os.path.realpath(home)
    if place.workdir and (at_home or project == Path(project.anchor)):
        where = "your home directory" if at_home else "the file system root"
        return _row(
            client,
            scope,
            place,
            "error",
            f"the entry would name {where} ({project}) as the project, and {client.title}'s agent "
            "would walk all of it; run sf init in the project",
        )
    value = entry_value(entry, place, project)
    try:
        text, newline = configedit.read_text(place.file)
        current = _read_entry(place, text, project)
    except (OSError, UnicodeDecodeError, configedit.ConfigError) as error:
        return _row(client, scope, place, "error", f"cannot read it, left untouched: {error}")
    if current == value or (current is not None and _same(current, value)):
        return _row(client, scope, place, "unchanged", note)
    if _uses_program(client):
        return _register_with_program(client, scope, place, entry, value, current, project, dry_run, note)
    try:
        updated = _write_entry(place, text, value, project)
    except configedit.ConfigError as error:
        return _row(client, scope, place, "error", f"cannot read it, left untouched: {error}")
    action = "updated" if text else "created"
    if dry_run:
        diff = "".join(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                updated.splitlines(keepends=True),
                str(place.file),
                str(place.file),
            )
        )
        return _row(client, scope, place, f"would be {action}", note, change=diff)
    try:
        backup = replace_file(place.file, configedit.encode(updated, newline))
    except OSError as error:
        return _row(client, scope, place, "error", f"cannot write it: {error.strerror or error}")
    return _row(client, scope, place, action, note, **({"backup": str(backup)} if backup else {}))


def _same(current: Any, value: dict[str, Any]) -> bool:
    """An existing entry that starts the same command counts as ours unchanged (extra keys a user
    added, such as `env`, stay)."""
    return (
        isinstance(current, dict)
        and current.get("command") == value["command"]
        and current.get("args") == value["args"]
        and current.get("type", value.get("type")) == value.get("type")
        and current.get("cwd") == value.get("cwd")
    )


def _read_entry(place: Place, text: str, project: Path) -> Any:
    if place.shape == "toml":
        return configedit.get_toml_entry(text, f"mcp_servers.{SERVER_NAME}")
    if place.shape == "claude-local":
        return configedit.get_json_entry(text, ("projects", str(project), "mcpServers"), SERVER_NAME)
    key = "servers" if place.shape == "servers" else "mcpServers"
    return configedit.get_json_entry(text, (key,), SERVER_NAME)


def _write_entry(place: Place, text: str, value: dict[str, Any], project: Path) -> str:
    if place.shape == "toml":
        return configedit.set_toml_entry(text, f"mcp_servers.{SERVER_NAME}", value)
    if place.shape == "claude-local":
        return configedit.set_json_entry(text, ("projects", str(project), "mcpServers"), SERVER_NAME, value)
    key = "servers" if place.shape == "servers" else "mcpServers"
    return configedit.set_json_entry(text, (key,), SERVER_NAME, value)


def _register_with_program(
    client: Client,
    scope: Scope,
    place: Place,
    entry: Entry,
    value: dict[str, Any],
    current: Any,
    project: Path,
    dry_run: bool,
    note: str,
) -> Row:
    """Claude Code registers servers itself: `claude mcp add-json` (after a remove when replacing)."""
    program_scope = "local" if scope == "project" else "user"
    commands = []
    if current is not None:
        commands.append([client.program, "mcp", "remove", "--scope", program_scope, SERVER_NAME])
    commands.append(
        [client.program, "mcp", "add-json", "--scope", program_scope, SERVER_NAME, json.dumps(value)]
    )
    action = "updated" if current is not None else "created"
    if dry_run:
        shown = "\n".join(" ".join(_shell_word(word) for word in command) for command in commands)
        return _row(client, scope, place, f"would be {action}", note, change=shown)
    for command in commands:
        try:
            done = subprocess.run(
                command, cwd=project, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return _row(client, scope, place, "error", f"{' '.join(command[:3])} failed: {error}")
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip()).splitlines()
            reason = said[-1] if said else f"exit status {done.returncode}"
            return _row(client, scope, place, "error", f"{' '.join(command[:3])} failed: {reason}")
    return _row(client, scope, place, action, note)


def _shell_word(word: str) -> str:
    import shlex

    return shlex.quote(word)


def every_place(client: Client, project: Path, home: Path) -> list[tuple[str, Scope, Place]]:
    """Every place `client` may hold a sofia entry in, whatever `sf init` would write today: the
    files it edits and the ones its own program writes (Claude Code's local scope), each once,
    labelled by scope (`local` for Claude's per-project entry in its user file)."""
    found: list[tuple[str, Scope, Place]] = []
    seen: set[tuple[Path, str]] = set()
    sources = [client.places(project, home)]
    if client.program_places is not None:
        sources.append(client.program_places(project, home))
    for places in sources:
        for scope, place in places.items():
            if (place.file, place.shape) in seen:
                continue
            seen.add((place.file, place.shape))
            found.append(("local" if place.shape == "claude-local" else scope, scope, place))
    return found


def check(client: Client, wanted: Scope | None, project: Path, home: Path, explicit: bool) -> list[Row]:
    """Each sofia entry `client` holds in any of its places, started and greeted as the client would
    (in the entry's `cwd`, else in the project)."""
    from sofia.cli.handshake import shake

    rows: list[Row] = []
    for label, scope, place in every_place(client, project, home):
        if wanted is not None and scope != wanted:
            continue
        try:
            text, _ = configedit.read_text(place.file)
            current = _read_entry(place, text, project)
        except (OSError, UnicodeDecodeError, configedit.ConfigError) as error:
            rows.append(_row(client, label, place, "fail", f"cannot read it: {error}"))
            continue
        if current is None:
            continue
        if not isinstance(current, dict) or not isinstance(current.get("command"), str):
            rows.append(_row(client, label, place, "fail", "the sofia entry has no command"))
            continue
        args = current.get("args", [])
        env = current.get("env") if isinstance(current.get("env"), dict) else None
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            rows.append(
                _row(client, label, place, "fail", "the sofia entry's args are not a list of strings")
            )
            continue
        cwd = Path(current["cwd"]) if isinstance(current.get("cwd"), str) else project
        if not cwd.is_dir():
            rows.append(
                _row(client, label, place, "fail", f"the sofia entry's cwd is not a directory: {cwd}")
            )
            continue
        outcome = shake(current["command"], args, cwd, {str(k): str(v) for k, v in (env or {}).items()})
        rows.append(_row(client, label, place, "ok" if outcome.ok else "fail", outcome.detail))
    if not rows and explicit:
        rows.append(_row(client, wanted or "", None, "fail", "no sofia entry configured; run sf init"))
    return rows


def render(document: dict[str, Any], fmt: str) -> str | None:
    """Changes a dry run would make come first, as unified diffs or commands, then the table."""
    if fmt == "json":
        return None
    from sofia.output import render as renderers

    changes = [row.pop("change") for row in document["entries"] if "change" in row]
    table = renderers.render(document, fmt)
    return "".join(change if change.endswith("\n") else change + "\n" for change in changes) + table
