"""`sf init` against every client's real file shape: fresh, merged with other servers, idempotent,
dry run, malformed files left untouched, both scopes; and `--check` starting what was written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from sofia.cli.configedit import parse_jsonc
from sofia.providers.registry import served
from tests.helpers import run_sf


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    return home, project


def init(home: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`sf init` with a private HOME and a PATH without any client program (files are edited)."""
    env = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "PATH": os.path.dirname(sys.executable),
        "CODEX_HOME": "",
        "CLAUDE_CONFIG_DIR": "",
    }
    return run_sf("init", *args, cwd=project, env=env)


def report(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(done.stdout)
    return document


# client, scope, file (relative to home or project), how the entry is read back
SHAPES = [
    ("claude-code", "project", "project/.mcp.json", ("mcpServers",)),
    ("claude-code", "user", "home/.claude.json", ("mcpServers",)),
    ("cursor", "project", "project/.cursor/mcp.json", ("mcpServers",)),
    ("cursor", "user", "home/.cursor/mcp.json", ("mcpServers",)),
    ("vscode", "project", "project/.vscode/mcp.json", ("servers",)),
    ("vscode", "user", "home/.config/Code/User/mcp.json", ("servers",)),
    ("claude-desktop", "user", "home/.config/Claude/claude_desktop_config.json", ("mcpServers",)),
    ("codex", "user", "home/.codex/config.toml", ("mcp_servers",)),
    ("gemini", "project", "project/.gemini/settings.json", ("mcpServers",)),
    ("gemini", "user", "home/.gemini/settings.json", ("mcpServers",)),
    ("windsurf", "user", "home/.codeium/windsurf/mcp_config.json", ("mcpServers",)),
]

EXISTING_JSON = """{
  // a comment the user wrote
  "%(key)s": {
    "other": { "command": "other-server", "args": ["--flag"] }
  },
  "theme": "dark"
}
"""
EXISTING_TOML = """# my codex settings
model = "o3"

[mcp_servers.other]
command = "other-server"
args = ["--flag"]
"""


def _file(home: Path, project: Path, relative: str) -> Path:
    base, _, rest = relative.partition("/")
    return (home if base == "home" else project) / rest


def _entries(path: Path, keys: tuple[str, ...]) -> dict[str, Any]:
    text = path.read_text()
    document = tomllib.loads(text) if path.suffix == ".toml" else parse_jsonc(text)
    for key in keys:
        document = document[key]
    return dict(document)


@pytest.mark.parametrize(
    ("client", "scope", "relative", "keys"), SHAPES, ids=[f"{c}-{s}" for c, s, _, _ in SHAPES]
)
def test_a_fresh_file_gets_an_entry_that_starts_this_installation(
    places: tuple[Path, Path], client: str, scope: str, relative: str, keys: tuple[str, ...]
) -> None:
    home, project = places
    done = init(home, project, "--client", client, "--scope", scope, "--workers", "2", "--json")
    assert done.returncode == 0, done.stderr
    row = report(done)["entries"][0]
    assert (row["client"], row["scope"], row["action"]) == (client, scope, "created")
    path = _file(home, project, relative)
    assert row["file"] == str(path)
    entry = _entries(path, keys)["sofia"]
    assert Path(entry["command"]).is_absolute()
    assert entry["command"] == sys.executable and entry["args"] == ["-m", "sofia", "mcp", "--workers", "2"]
    assert ("type" in entry) == (client in ("claude-code", "vscode"))


@pytest.mark.parametrize(
    ("client", "scope", "relative", "keys"), SHAPES, ids=[f"{c}-{s}" for c, s, _, _ in SHAPES]
)
def test_an_existing_file_is_merged_backed_up_and_a_second_run_changes_nothing(
    places: tuple[Path, Path], client: str, scope: str, relative: str, keys: tuple[str, ...]
) -> None:
    home, project = places
    path = _file(home, project, relative)
    path.parent.mkdir(parents=True, exist_ok=True)
    comments = client == "vscode"  # the one JSON dialect here that keeps comments
    if path.suffix == ".toml":
        original = EXISTING_TOML
    else:
        original = EXISTING_JSON % {"key": keys[0]}
        if not comments:
            original = original.replace("  // a comment the user wrote\n", "")
    path.write_text(original)
    first = init(home, project, "--client", client, "--scope", scope, "--json")
    assert first.returncode == 0, first.stderr
    assert report(first)["entries"][0]["action"] == "updated"
    merged = path.read_text()
    entries = _entries(path, keys)
    assert entries["other"]["command"] == "other-server" and "sofia" in entries
    assert original.splitlines()[0] in merged
    if comments:
        assert "// a comment the user wrote" in merged
    if path.suffix == ".toml":
        assert merged.startswith(EXISTING_TOML)
    assert path.with_name(path.name + ".sofia-backup").read_text() == original
    second = init(home, project, "--client", client, "--scope", scope, "--json")
    assert report(second)["entries"][0]["action"] == "unchanged"
    assert path.read_text() == merged


def test_dry_run_prints_the_exact_change_and_writes_nothing(places: tuple[Path, Path]) -> None:
    home, project = places
    path = project / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_text('{\n  "mcpServers": {}\n}\n')
    done = init(home, project, "--client", "cursor", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert path.read_text() == '{\n  "mcpServers": {}\n}\n'
    assert f"--- {path}" in done.stdout and '+    "sofia": {' in done.stdout
    assert "would be updated" in done.stdout
    assert not path.with_name("mcp.json.sofia-backup").exists()


@pytest.mark.parametrize(
    ("client", "relative", "content"),
    [
        ("cursor", "project/.cursor/mcp.json", '{"mcpServers": {"other": '),
        ("gemini", "project/.gemini/settings.json", '["not", "an", "object"]'),
        ("codex", "home/.codex/config.toml", "[mcp_servers.other\ncommand = 1\n"),
        ("vscode", "project/.vscode/mcp.json", '{"servers": "not an object"}'),
    ],
)
def test_a_malformed_file_is_reported_and_left_untouched(
    places: tuple[Path, Path], client: str, relative: str, content: str
) -> None:
    home, project = places
    path = _file(home, project, relative)
    path.parent.mkdir(parents=True)
    path.write_text(content)
    done = init(home, project, "--client", client, "--json")
    assert done.returncode == 1
    row = report(done)["entries"][0]
    assert row["action"] == "error" and "left untouched" in row["detail"]
    assert path.read_text() == content
    assert not path.with_name(path.name + ".sofia-backup").exists()


def test_a_scope_a_client_lacks_is_an_error_naming_the_one_it_has(places: tuple[Path, Path]) -> None:
    home, project = places
    done = init(home, project, "--client", "codex", "--scope", "project", "--json")
    assert done.returncode == 1
    assert report(done)["entries"][0]["detail"] == "Codex CLI has no project scope; use --scope user"


def test_without_clients_named_the_detected_ones_are_set_up(places: tuple[Path, Path]) -> None:
    home, project = places
    (home / ".gemini").mkdir()
    (home / ".codeium" / "windsurf").mkdir(parents=True)
    done = init(home, project, "--json")
    assert done.returncode == 0, done.stderr
    assert [row["client"] for row in report(done)["entries"]] == ["gemini", "windsurf"]


def test_nothing_detected_and_nothing_named_is_a_usage_error(places: tuple[Path, Path]) -> None:
    home, project = places
    done = init(home, project)
    assert done.returncode == 2 and "pass --client NAME" in done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tools", "code,nope"], "--tools: unknown nope"),
        (["--workers", "500"], "--workers must be from 1 to 64"),
    ],
)
def test_bad_server_options_are_usage_errors(
    places: tuple[Path, Path], args: list[str], message: str
) -> None:
    home, project = places
    done = init(home, project, "--client", "cursor", *args)
    assert done.returncode == 2 and message in done.stderr
    assert not (project / ".cursor").exists()


def test_tools_are_carried_into_the_command(places: tuple[Path, Path]) -> None:
    home, project = places
    assert init(home, project, "--client", "cursor", "--tools", "code, grep").returncode == 0
    entry = _entries(project / ".cursor" / "mcp.json", ("mcpServers",))["sofia"]
    assert entry["args"][-2:] == ["--tools", "code,grep"]


def test_check_greets_a_working_entry_and_names_a_broken_one(places: tuple[Path, Path]) -> None:
    home, project = places
    assert init(home, project, "--client", "cursor", "--scope", "user").returncode == 0
    broken = project / ".cursor" / "mcp.json"
    broken.parent.mkdir()
    broken.write_text(
        json.dumps(
            {"mcpServers": {"sofia": {"command": sys.executable, "args": ["-m", "sofia", "mcp", "--bogus"]}}}
        )
    )
    done = init(home, project, "--client", "cursor", "--check", "--json")
    assert done.returncode == 1
    rows = {row["scope"]: row for row in report(done)["entries"]}
    assert rows["user"]["action"] == "ok" and rows["user"]["detail"].startswith(
        f"{len(served())} tools from sofia"
    )
    assert rows["project"]["action"] == "fail"
    assert "unrecognized arguments: --bogus" in rows["project"]["detail"]


def test_check_names_a_command_that_does_not_exist(places: tuple[Path, Path]) -> None:
    home, project = places
    config = home / ".gemini" / "settings.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"mcpServers": {"sofia": {"command": "/no/such/sf", "args": ["mcp"]}}}))
    done = init(home, project, "--client", "gemini", "--check", "--json")
    assert done.returncode == 1
    assert report(done)["entries"][0]["detail"] == "command not found: /no/such/sf"


def test_check_without_any_entry_says_to_run_init(places: tuple[Path, Path]) -> None:
    home, project = places
    done = init(home, project, "--client", "windsurf", "--check", "--json")
    assert done.returncode == 1
    assert report(done)["entries"][0]["detail"] == "no sofia entry configured; run sf init"
