"""The MCP clients `sf init` knows: where each keeps its server entries, in which shape, per scope.

One record per client, in one list; `sf init`, `sf init --check`, `sf doctor` and the docs read
it. Paths follow what each client documents for the current platform.

Claude Code, Codex and Gemini start servers in the project they run in; Cursor, VS Code, Windsurf
and Claude Desktop start them elsewhere (often `/` or the home directory), so an entry written for
one project names it: as the entry's `cwd` where the client has that key (VS Code), else as
`sf mcp --root DIR` (Cursor, Windsurf and Claude Desktop take `command`, `args` and `env` only).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Scope = Literal["project", "user"]
Workdir = Literal["", "cwd", "root"]
"""How an entry names the project for a client that does not start servers in it: `cwd` (the
entry's own working-directory key), `root` (`sf mcp --root DIR`), or "" (the client starts
servers in the project, or the entry is for every project)."""
Shape = Literal["mcpServers", "servers", "toml", "claude-local"]
"""`mcpServers`: `{"mcpServers": {NAME: {...}}}`; `servers`: VS Code's `{"servers": {NAME: {...}}}`;
`toml`: Codex's `[mcp_servers.NAME]`; `claude-local`: Claude Code's per-project entry in its user
file (`projects[DIR].mcpServers`)."""


@dataclass(frozen=True)
class Place:
    """Where one client keeps the entries of one scope."""

    file: Path
    shape: Shape
    typed: bool = False
    """Entries carry `"type": "stdio"`."""
    note: str = ""
    """What the user should know about entries written here."""
    workdir: Workdir = ""
    """How the entry names the project (see `Workdir`)."""


NAMES_PROJECT = {
    "cwd": "the entry names this project as its cwd: {title} does not start servers in it",
    "root": "the entry names this project (--root): {title} does not start servers in it",
}
IN_PROJECT = "{title} starts servers in the project it runs in"
EVERY_PROJECT = (
    "names no project: the server serves the client's MCP roots, else the directory {title} starts "
    "it in; --scope project names this one"
)


def _place(
    file: Path,
    shape: Shape,
    title: str,
    *,
    workdir: Workdir = "",
    typed: bool = False,
    note: str = "",
    every_project: bool = False,
    in_project: bool = False,
) -> Place:
    """A place, its note saying how the entry finds the project."""
    said = [note] if note else []
    if workdir:
        said.append(NAMES_PROJECT[workdir].format(title=title))
    elif every_project:
        said.append(EVERY_PROJECT.format(title=title))
    elif in_project:
        said.append(IN_PROJECT.format(title=title))
    return Place(file, shape, typed, "; ".join(said), workdir)


@dataclass(frozen=True)
class Client:
    name: str
    title: str
    places: Callable[[Path, Path], dict[Scope, Place]]
    """`places(project, home)`: the file per supported scope."""
    detect: Callable[[Path], bool]
    """`detect(home)`: whether the client seems installed."""
    program: str = ""
    """A command of the client that registers servers itself, used instead of editing a file when
    it is on PATH; `program_places` says where that command keeps what it registers."""
    program_places: Callable[[Path, Path], dict[Scope, Place]] | None = None


PLATFORM = sys.platform
"""The platform whose paths are given (the docs generator pins it)."""


def _platform_config(home: Path, *parts: str) -> Path:
    """The per-user application folder: ~/Library/Application Support on macOS, %APPDATA% on
    Windows, $XDG_CONFIG_HOME or ~/.config elsewhere."""
    if PLATFORM == "darwin":
        return home.joinpath("Library", "Application Support", *parts)
    if PLATFORM == "win32":
        return Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming").joinpath(*parts)
    return Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config").joinpath(*parts)


def claude_user_file(home: Path) -> Path:
    """Claude Code's user file (`$CLAUDE_CONFIG_DIR/.claude.json` when that is set)."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR", "")
    return (Path(configured).expanduser() if configured else home) / ".claude.json"


def _on_path(program: str) -> bool:
    return shutil.which(program) is not None


CLIENTS: tuple[Client, ...] = (
    Client(
        "claude-code",
        "Claude Code",
        lambda project, home: {
            "project": _place(
                project / ".mcp.json",
                "mcpServers",
                "Claude Code",
                typed=True,
                note="Claude Code asks once to approve servers from .mcp.json (claude mcp list shows them)",
                in_project=True,
            ),
            "user": _place(claude_user_file(home), "mcpServers", "Claude Code", typed=True, in_project=True),
        },
        lambda home: _on_path("claude") or (home / ".claude").is_dir() or claude_user_file(home).is_file(),
        program="claude",
        program_places=lambda project, home: {
            "project": Place(
                claude_user_file(home),
                "claude-local",
                typed=True,
                note="Claude's local scope: this directory, you only",
            ),
            "user": Place(claude_user_file(home), "mcpServers", typed=True),
        },
    ),
    Client(
        "cursor",
        "Cursor",
        lambda project, home: {
            "project": _place(project / ".cursor" / "mcp.json", "mcpServers", "Cursor", workdir="root"),
            "user": _place(home / ".cursor" / "mcp.json", "mcpServers", "Cursor", every_project=True),
        },
        lambda home: (home / ".cursor").is_dir() or _on_path("cursor"),
    ),
    Client(
        "vscode",
        "VS Code",
        lambda project, home: {
            "project": _place(
                project / ".vscode" / "mcp.json", "servers", "VS Code", workdir="cwd", typed=True
            ),
            "user": _place(
                _platform_config(home, "Code", "User", "mcp.json"),
                "servers",
                "VS Code",
                typed=True,
                every_project=True,
            ),
        },
        lambda home: _platform_config(home, "Code").is_dir() or _on_path("code"),
    ),
    Client(
        "claude-desktop",
        "Claude Desktop",
        lambda project, home: {
            "user": _place(
                _platform_config(home, "Claude", "claude_desktop_config.json"),
                "mcpServers",
                "Claude Desktop",
                workdir="root",
                note="restart Claude Desktop to load it",
            ),
        },
        lambda home: _platform_config(home, "Claude").is_dir(),
    ),
    Client(
        "codex",
        "Codex CLI",
        lambda project, home: {
            "user": _place(
                Path(os.environ.get("CODEX_HOME") or home / ".codex") / "config.toml",
                "toml",
                "Codex CLI",
                in_project=True,
            )
        },
        lambda home: Path(os.environ.get("CODEX_HOME") or home / ".codex").is_dir() or _on_path("codex"),
    ),
    Client(
        "gemini",
        "Gemini CLI",
        lambda project, home: {
            "project": _place(
                project / ".gemini" / "settings.json", "mcpServers", "Gemini CLI", in_project=True
            ),
            "user": _place(home / ".gemini" / "settings.json", "mcpServers", "Gemini CLI", in_project=True),
        },
        lambda home: (home / ".gemini").is_dir() or _on_path("gemini"),
    ),
    Client(
        "windsurf",
        "Windsurf",
        lambda project, home: {
            "user": _place(
                home / ".codeium" / "windsurf" / "mcp_config.json", "mcpServers", "Windsurf", workdir="root"
            )
        },
        lambda home: (home / ".codeium" / "windsurf").is_dir(),
    ),
)

NAMES = tuple(client.name for client in CLIENTS)


def client_named(name: str) -> Client | None:
    return next((client for client in CLIENTS if client.name == name), None)
