"""`sf init`: register sofia with the user's MCP clients, and `sf init --check` that they can start it.

The entry written runs this very installation (the absolute path of the running `sf`, or the
absolute interpreter with `-m sofia`), so it works whatever PATH the client has. Files are merged
(other servers and comments untouched), written atomically after a backup, and a second run
changes nothing; `--dry-run` shows the exact change; a malformed file is reported and left alone.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sofia import settings
from sofia.cli import configedit
from sofia.cli.clients import CLIENTS, NAMES, Client, Place, Scope, client_named
from sofia.errors import UsageError

SERVER_NAME = "sofia"
BACKUP_SUFFIX = ".sofia-backup"

Row = dict[str, Any]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--client",
        action="append",
        default=[],
        choices=NAMES,
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


@dataclass(frozen=True)
class Entry:
    """The server entry: the command and its arguments."""

    command: str
    args: tuple[str, ...]

    def value(self, typed: bool) -> dict[str, Any]:
        value: dict[str, Any] = {"type": "stdio"} if typed else {}
        value.update(command=self.command, args=list(self.args))
        return value

    def spelled(self) -> str:
        return " ".join([self.command, *self.args])


def own_entry(workers: str | None, tools: str | None) -> Entry:
    """How to start this installation's server, from any directory and any PATH."""
    args = ["mcp"]
    if workers is not None:
        try:
            count = int(workers)
        except ValueError:
            raise UsageError(f"--workers must be a whole number, not {workers!r}") from None
        if not 1 <= count <= settings.MAX_WORKERS:
            raise UsageError(f"--workers must be from 1 to {settings.MAX_WORKERS}, not {count}")
        args += ["--workers", str(count)]
    if tools is not None:
        from sofia.providers.registry import served

        served(wanted=settings.names(tools))  # UsageError naming an unknown tool or group
        args += ["--tools", ",".join(settings.names(tools))]
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name in ("sf", "sofia") and script.is_file():
        return Entry(str(script.resolve()), tuple(args))
    return Entry(str(Path(sys.executable).absolute()), ("-m", "sofia", *args))


def run_init(namespace: argparse.Namespace, project: Path, home: Path) -> tuple[dict[str, Any], int]:
    """The report document and the exit status of `sf init` / `sf init --check`."""
    clients = [client_named(name) for name in dict.fromkeys(namespace.client)]
    chosen = [c for c in clients if c is not None] or [c for c in CLIENTS if c.detect(home)]
    if not chosen:
        raise UsageError(f"no MCP client found on this machine; pass --client NAME ({', '.join(NAMES)})")
    rows: list[Row] = []
    if namespace.check:
        for client in chosen:
            rows.extend(check(client, namespace.scope, project, home, explicit=bool(namespace.client)))
        entry = None
    else:
        entry = own_entry(namespace.workers, namespace.tools)
        for client in chosen:
            rows.append(register(client, namespace.scope, entry, project, home, namespace.dry_run))
    failed = [row for row in rows if row["action"] in ("error", "fail")]
    document: dict[str, Any] = {"entries": rows, "ok": not failed}
    if entry is not None:
        document["command"] = entry.spelled()
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
    note = place.note if wanted is not None or scope == "project" else f"{client.title} has user scope only"
    value = entry.value(place.typed)
    try:
        text = place.file.read_text(encoding="utf-8") if place.file.exists() else ""
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
        write_atomically(place.file, updated)
    except OSError as error:
        return _row(client, scope, place, "error", f"cannot write it: {error.strerror or error}")
    return _row(client, scope, place, action, note)


def _same(current: Any, value: dict[str, Any]) -> bool:
    """An existing entry that starts the same command counts as ours unchanged (extra keys a user
    added, such as `env`, stay)."""
    return (
        isinstance(current, dict)
        and current.get("command") == value["command"]
        and current.get("args") == value["args"]
        and current.get("type", value.get("type")) == value.get("type")
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


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` in one rename, keeping the previous version beside it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = None
    if path.exists():
        mode = path.stat().st_mode & 0o7777
        shutil.copy2(path, path.with_name(path.name + BACKUP_SUFFIX))
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def check(client: Client, wanted: Scope | None, project: Path, home: Path, explicit: bool) -> list[Row]:
    """Each configured entry of `client`, started and greeted as the client would."""
    from sofia.cli.handshake import shake

    places = _places(client, project, home)
    scopes: list[Scope] = [wanted] if wanted is not None else list(places)
    rows: list[Row] = []
    for scope in scopes:
        place = places.get(scope)
        if place is None:
            continue
        try:
            text = place.file.read_text(encoding="utf-8") if place.file.exists() else ""
            current = _read_entry(place, text, project)
        except (OSError, UnicodeDecodeError, configedit.ConfigError) as error:
            rows.append(_row(client, scope, place, "fail", f"cannot read it: {error}"))
            continue
        if current is None:
            continue
        if not isinstance(current, dict) or not isinstance(current.get("command"), str):
            rows.append(_row(client, scope, place, "fail", "the sofia entry has no command"))
            continue
        args = current.get("args", [])
        env = current.get("env") if isinstance(current.get("env"), dict) else None
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            rows.append(
                _row(client, scope, place, "fail", "the sofia entry's args are not a list of strings")
            )
            continue
        outcome = shake(current["command"], args, project, {str(k): str(v) for k, v in (env or {}).items()})
        rows.append(_row(client, scope, place, "ok" if outcome.ok else "fail", outcome.detail))
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
