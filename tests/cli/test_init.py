"""`sf init` against every client's real file shape: fresh, merged with other servers, idempotent,
dry run, malformed files left untouched, both scopes; and `--check` starting what was written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from sofia.cli.configedit import parse_jsonc
from sofia.providers.registry import served
from tests.helpers import git, run_sf


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
        "XDG_STATE_HOME": str(home / ".local" / "state"),
    }
    return run_sf("init", *args, cwd=project, env=env)


def backups_of(home: Path, path: Path) -> list[Path]:
    """The numbered backups sf init kept of `path`, in order (in sofia's state directory)."""
    folder = home / ".local" / "state" / "sofia" / "init-backups" / path.parent.relative_to("/")
    found = folder.glob(f"{path.name}.*") if folder.is_dir() else []
    return sorted(found, key=lambda backup: int(backup.suffix[1:]))


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
NAMES_THE_PROJECT = {
    ("cursor", "project"): "root",
    ("vscode", "project"): "cwd",
    ("claude-desktop", "user"): "root",
    ("windsurf", "user"): "root",
}
"""The entries that carry the project, and how: the clients that do not start servers in it. Claude
Code, Codex and Gemini start servers in the project; a user-scope entry of Cursor or VS Code is for
every project (the client's MCP roots name it)."""

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
    workdir = NAMES_THE_PROJECT.get((client, scope), "")
    root = ["--root", str(project)] if workdir == "root" else []
    assert entry["command"] == sys.executable
    assert entry["args"] == ["-m", "sofia", "mcp", *root, "--workers", "2"]
    assert entry.get("cwd") == (str(project) if workdir == "cwd" else None)
    assert ("type" in entry) == (client in ("claude-code", "vscode"))
    if workdir:
        assert "names this project" in row["detail"]


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
    assert [backup.read_text() for backup in backups_of(home, path)] == [original]
    assert report(first)["entries"][0]["backup"] == str(backups_of(home, path)[0])
    assert not path.with_name(path.name + ".sofia-backup").exists()
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
    assert not path.with_name("mcp.json.sofia-backup").exists() and not backups_of(home, path)


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
    assert not backups_of(home, path)


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


# -- every backup kept, none in the project -------------------------------------------------------


def test_every_previous_version_is_kept_numbered_and_the_first_is_the_original(
    places: tuple[Path, Path],
) -> None:
    home, project = places
    path = project / ".cursor" / "mcp.json"
    path.parent.mkdir()
    original = '{\n  "mcpServers": {}\n}\n'
    path.write_text(original)
    assert init(home, project, "--client", "cursor").returncode == 0
    first = path.read_text()
    assert init(home, project, "--client", "cursor", "--workers", "2").returncode == 0
    assert init(home, project, "--client", "cursor", "--workers", "3").returncode == 0
    kept = backups_of(home, path)
    assert [backup.name for backup in kept] == ["mcp.json.1", "mcp.json.2", "mcp.json.3"]
    assert kept[0].read_text() == original and kept[1].read_text() == first


def test_a_change_leaves_nothing_in_the_project_s_git_status(places: tuple[Path, Path]) -> None:
    home, project = places
    git(project, "init", "-q")
    path = project / ".vscode" / "mcp.json"
    path.parent.mkdir()
    path.write_text('{\n  "servers": {}\n}\n')
    git(project, "add", ".")
    git(project, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "vscode")
    assert init(home, project, "--client", "vscode").returncode == 0
    assert git(project, "status", "--porcelain", "--untracked-files=all") == " M .vscode/mcp.json\n"


# -- line endings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("client", "scope", "relative", "keys"), SHAPES, ids=[f"{c}-{s}" for c, s, _, _ in SHAPES]
)
def test_a_crlf_file_stays_crlf(
    places: tuple[Path, Path], client: str, scope: str, relative: str, keys: tuple[str, ...]
) -> None:
    home, project = places
    path = _file(home, project, relative)
    path.parent.mkdir(parents=True, exist_ok=True)
    original = EXISTING_TOML if path.suffix == ".toml" else EXISTING_JSON % {"key": keys[0]}
    if path.suffix != ".toml" and client != "vscode":
        original = original.replace("  // a comment the user wrote\n", "")
    path.write_bytes(original.replace("\n", "\r\n").encode())
    done = init(home, project, "--client", client, "--scope", scope, "--json")
    assert done.returncode == 0, done.stderr
    written = path.read_bytes()
    assert written.count(b"\n") == written.count(b"\r\n") > original.count("\n")
    assert written.startswith(original.splitlines()[0].encode() + b"\r\n")
    assert "sofia" in _entries(path, keys) and "other" in _entries(path, keys)
    assert backups_of(home, path)[0].read_bytes() == original.replace("\n", "\r\n").encode()
    assert (
        report(init(home, project, "--client", client, "--scope", scope, "--json"))["entries"][0]["action"]
        == "unchanged"
    )


# -- the project, for the clients that start servers elsewhere --------------------------------------


def test_a_moved_project_updates_the_entry_that_names_it(places: tuple[Path, Path], tmp_path: Path) -> None:
    home, project = places
    assert init(home, project, "--client", "windsurf").returncode == 0
    other = tmp_path / "other"
    other.mkdir()
    done = init(home, other, "--client", "windsurf", "--json")
    assert report(done)["entries"][0]["action"] == "updated"
    entry = _entries(home / ".codeium" / "windsurf" / "mcp_config.json", ("mcpServers",))["sofia"]
    assert entry["args"][3:5] == ["--root", str(other)]


def test_check_starts_an_entry_in_its_cwd(places: tuple[Path, Path], tmp_path: Path) -> None:
    """A command relative to the entry's cwd starts only there."""
    home, project = places
    served_from = tmp_path / "served"
    served_from.mkdir()
    starter = served_from / "start-sofia"
    starter.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sofia "$@"\n')
    starter.chmod(0o755)
    config = home / ".config" / "Code" / "User" / "mcp.json"
    config.parent.mkdir(parents=True)
    entry = {"type": "stdio", "command": "./start-sofia", "args": ["mcp"], "cwd": str(served_from)}
    config.write_text(json.dumps({"servers": {"sofia": entry}}))
    rows = report(init(home, project, "--check", "--json"))["entries"]
    assert [(row["client"], row["scope"], row["action"]) for row in rows] == [("vscode", "user", "ok")]
    entry["cwd"] = str(tmp_path / "gone")
    config.write_text(json.dumps({"servers": {"sofia": entry}}))
    row = report(init(home, project, "--check", "--json"))["entries"][0]
    assert (
        row["action"] == "fail"
        and row["detail"] == f"the sofia entry's cwd is not a directory: {tmp_path / 'gone'}"
    )


# -- --check and doctor see every entry ----------------------------------------------------------


def test_check_finds_the_entry_of_a_client_not_installed_here(places: tuple[Path, Path]) -> None:
    """`sf init --client cursor` in a fresh HOME: Cursor is not detected, its entry is still checked."""
    home, project = places
    assert init(home, project, "--client", "cursor").returncode == 0
    done = init(home, project, "--check", "--json")
    assert done.returncode == 0, done.stderr + done.stdout
    rows = report(done)["entries"]
    assert [(row["client"], row["scope"], row["action"]) for row in rows] == [("cursor", "project", "ok")]
    assert rows[0]["file"] == str(project / ".cursor" / "mcp.json")


def test_check_with_no_entry_anywhere_says_so(places: tuple[Path, Path]) -> None:
    home, project = places
    done = init(home, project, "--check", "--json")
    assert done.returncode == 1
    document = report(done)
    assert document["entries"] == [] and document["ok"] is False
    assert "no sofia entry in any place" in document["summary"]


def test_check_finds_claude_code_s_local_entry_without_claude_on_path(places: tuple[Path, Path]) -> None:
    home, project = places
    local = {"command": sys.executable, "args": ["-m", "sofia", "mcp", "--bogus"]}
    (home / ".claude.json").write_text(
        json.dumps({"projects": {str(project): {"mcpServers": {"sofia": local}}}})
    )
    rows = report(init(home, project, "--check", "--json"))["entries"]
    assert [(row["client"], row["scope"], row["action"]) for row in rows] == [
        ("claude-code", "local", "fail")
    ]


def doctor(home: Path, project: Path) -> tuple[int, dict[str, Any]]:
    tools = os.pathsep.join(
        dict.fromkeys(os.path.dirname(shutil.which(p) or sys.executable) for p in ("git", "rg"))
    )
    env = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "PATH": os.pathsep.join([os.path.dirname(sys.executable), tools]),
        "CODEX_HOME": "",
        "CLAUDE_CONFIG_DIR": "",
        "CC_PROJECTS_DIR": "",
    }
    done = run_sf("doctor", "--json", cwd=project, env=env)
    return done.returncode, json.loads(done.stdout)


def test_doctor_checks_the_entry_init_just_wrote_and_is_not_ok_beside_a_failing_one(
    places: tuple[Path, Path],
) -> None:
    home, project = places
    assert init(home, project, "--client", "cursor").returncode == 0
    _, document = doctor(home, project)
    rows = {row["check"]: row for row in document["checks"]}
    assert rows["cursor (project)"]["status"] == "ok"
    assert rows["cursor (project)"]["detail"].startswith(str(project / ".cursor" / "mcp.json"))
    gemini = project / ".gemini" / "settings.json"
    gemini.parent.mkdir()
    gemini.write_text(json.dumps({"mcpServers": {"sofia": {"command": "/no/such/sf", "args": ["mcp"]}}}))
    status, document = doctor(home, project)
    rows = {row["check"]: row for row in document["checks"]}
    assert rows["gemini (project)"]["status"] == "fail" and rows["gemini (project)"]["required"]
    assert document["ok"] is False and status == 1
    assert "gemini (project)" in document["summary"]


# -- an installation that will not be there tomorrow ----------------------------------------------


def _interpreter_at(place: Path) -> Path:
    """`sys.executable` reachable under another name, as a uv or pipx environment would hold it."""
    place.parent.mkdir(parents=True)
    place.symlink_to(sys.executable)
    return place


@pytest.mark.parametrize(
    ("relative", "said"),
    [
        (".cache/uv/archive-v0/Hk2xq/bin/python", "uv's cache"),
        ("AppData/Local/uv/cache/archive-v0/Hk2xq/bin/python", "uv's cache"),
        ("elsewhere/environments-v2/sofia-1a2b/bin/python", "uv's cache"),  # UV_CACHE_DIR, tagged below
        (".local/share/pipx/.cache/4f1e2d3c4b5a697/bin/python", "pipx's run cache"),
        (".cache/pipx/4f1e2d3c4b5a697/bin/python", "pipx's run cache"),
    ],
)
def test_an_interpreter_in_a_cache_that_is_cleared_is_refused_with_the_fix(
    places: tuple[Path, Path], tmp_path: Path, relative: str, said: str
) -> None:
    home, project = places
    python = _interpreter_at(tmp_path / "caches" / relative)
    if "elsewhere" in relative:
        (tmp_path / "caches" / "elsewhere" / "CACHEDIR.TAG").write_text(
            "Signature: 8a477f597d28d172789f06886806bc55\n"
        )
    done = subprocess.run(
        [str(python), "-m", "sofia", "init", "--client", "cursor"],
        cwd=project,
        env={**os.environ, "HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state")},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and str(python) in done.stderr
    assert "uv tool install sofia-ctx" in done.stderr and "pipx install sofia-ctx" in done.stderr
    assert not (project / ".cursor").exists()


def test_a_virtual_environment_in_a_temporary_directory_is_not_refused(
    places: tuple[Path, Path], tmp_path: Path
) -> None:
    home, project = places
    python = _interpreter_at(tmp_path / "venvs" / "archive" / "bin" / "python")
    done = subprocess.run(
        [str(python), "-m", "sofia", "init", "--client", "cursor", "--json"],
        cwd=project,
        env={**os.environ, "HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state")},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert _entries(project / ".cursor" / "mcp.json", ("mcpServers",))["sofia"]["command"] == str(python)


# -- a mistyped client -------------------------------------------------------------------------


def test_a_mistyped_client_names_the_closest(places: tuple[Path, Path]) -> None:
    home, project = places
    done = init(home, project, "--client", "cursr")
    assert done.returncode == 2
    assert "--client: unknown 'cursr'; did you mean cursor?" in done.stderr


@pytest.mark.parametrize("client", ["cursor", "vscode", "claude-desktop", "windsurf"])
def test_an_entry_never_names_the_home_directory_as_the_project(
    places: tuple[Path, Path], client: str
) -> None:
    home, _ = places
    done = init(home, home, "--client", client, "--json")
    assert done.returncode == 1
    row = report(done)["entries"][0]
    assert row["action"] == "error" and "would name your home directory" in row["detail"]
    assert "run sf init in the project" in row["detail"]


def test_an_entry_for_a_client_that_starts_in_the_project_may_be_written_from_home(
    places: tuple[Path, Path],
) -> None:
    home, _ = places
    done = init(home, home, "--client", "gemini", "--scope", "user", "--json")
    assert done.returncode == 0, done.stdout
