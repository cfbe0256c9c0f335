"""The MCP clients `sf init` knows: where each keeps its server entries, in which shape, per scope.

One record per client, in one list; `sf init`, `sf init --check`, `sf doctor` and the docs read
it. Paths follow what each client documents for the current platform.
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
            "project": Place(
                project / ".mcp.json",
                "mcpServers",
                typed=True,
                note="Claude Code asks once to approve servers from .mcp.json (claude mcp list shows them)",
            ),
            "user": Place(claude_user_file(home), "mcpServers", typed=True),
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
            "project": Place(project / ".cursor" / "mcp.json", "mcpServers"),
            "user": Place(home / ".cursor" / "mcp.json", "mcpServers"),
        },
        lambda home: (home / ".cursor").is_dir() or _on_path("cursor"),
    ),
    Client(
        "vscode",
        "VS Code",
        lambda project, home: {
            "project": Place(project / ".vscode" / "mcp.json", "servers", typed=True),
            "user": Place(_platform_config(home, "Code", "User", "mcp.json"), "servers", typed=True),
        },
        lambda home: _platform_config(home, "Code").is_dir() or _on_path("code"),
    ),
    Client(
        "claude-desktop",
        "Claude Desktop",
        lambda project, home: {
            "user": Place(
                _platform_config(home, "Claude", "claude_desktop_config.json"),
                "mcpServers",
                note="restart Claude Desktop to load it",
            ),
        },
        lambda home: _platform_config(home, "Claude").is_dir(),
    ),
    Client(
        "codex",
        "Codex CLI",
        lambda project, home: {
            "user": Place(Path(os.environ.get("CODEX_HOME") or home / ".codex") / "config.toml", "toml")
        },
        lambda home: Path(os.environ.get("CODEX_HOME") or home / ".codex").is_dir() or _on_path("codex"),
    ),
    Client(
        "gemini",
        "Gemini CLI",
        lambda project, home: {
            "project": Place(project / ".gemini" / "settings.json", "mcpServers"),
            "user": Place(home / ".gemini" / "settings.json", "mcpServers"),
        },
        lambda home: (home / ".gemini").is_dir() or _on_path("gemini"),
    ),
    Client(
        "windsurf",
        "Windsurf",
        lambda project, home: {
            "user": Place(home / ".codeium" / "windsurf" / "mcp_config.json", "mcpServers")
        },
        lambda home: (home / ".codeium" / "windsurf").is_dir(),
    ),
)

NAMES = tuple(client.name for client in CLIENTS)


def client_named(name: str) -> Client | None:
    return next((client for client in CLIENTS if client.name == name), None)
