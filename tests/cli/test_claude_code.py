"""The real Claude Code CLI (from npm; `.ci/run` installs it) connects to what `sf init` registers,
lists sofia's tools without an API key, and `sf init --check` names what is wrong with a broken entry."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sofia.providers.registry import PROVIDERS
from tests.helpers import git, run_sf

MCP_TOOLS = sorted(f"mcp__sofia__{p.name}" for p in PROVIDERS if p.mcp and not p.module.startswith("tests."))


@pytest.fixture
def claude() -> str:
    found = shutil.which("claude")
    if found is None:
        pytest.fail(
            "the Claude Code CLI is not on PATH: npm install -g @anthropic-ai/claude-code (.ci/run does)"
        )
    return found


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    git(project, "init", "-q")
    env = {
        "HOME": str(home),
        "PATH": os.environ["PATH"],
        "CLAUDE_CONFIG_DIR": "",
        "MCP_CONNECTION_NONBLOCKING": "false",
        # Claude Code's waits for a server (ms). In print mode it snapshots the tools after
        # MCP_CONNECT_TIMEOUT_MS (5 s by default) and never refreshes them: on a loaded machine
        # sofia was still "pending" then. The test is about the entry, not the machine's speed.
        "MCP_TIMEOUT": "120000",
        "MCP_CONNECT_TIMEOUT_MS": "60000",
        "DISABLE_AUTOUPDATER": "1",
        "ANTHROPIC_API_KEY": "",
    }
    return project, env


def _claude(claude: str, project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    full = {key: value for key, value in os.environ.items() if not key.startswith(("ANTHROPIC", "CLAUDE"))}
    full.update(env)
    return subprocess.run(
        [claude, *args],
        cwd=project,
        env=full,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )


def test_claude_code_connects_to_what_sf_init_registers(
    claude: str, project: tuple[Path, dict[str, str]]
) -> None:
    where, env = project
    done = run_sf("init", "--client", "claude-code", "--json", cwd=where, env=env)
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout)["entries"][0]
    assert row["action"] == "created" and row["file"].endswith(".claude.json")

    listed = _claude(claude, where, env, "mcp", "list")
    assert listed.returncode == 0, listed.stderr
    line = next(line for line in listed.stdout.splitlines() if line.startswith("sofia:"))
    assert f"{sys.executable} -m sofia mcp" in line and "Connected" in line and "Failed" not in line

    session = _claude(claude, where, env, "-p", "--output-format", "stream-json", "--verbose", "hi")
    first = json.loads(session.stdout.splitlines()[0])
    assert (first["type"], first["subtype"]) == ("system", "init")
    assert sorted(t for t in first["tools"] if t.startswith("mcp__sofia__")) == MCP_TOOLS
    assert {"name": "sofia", "status": "connected"} in first["mcp_servers"]

    again = run_sf("init", "--client", "claude-code", "--json", cwd=where, env=env)
    assert json.loads(again.stdout)["entries"][0]["action"] == "unchanged"


def test_a_broken_entry_is_named_by_sf_init_check(claude: str, project: tuple[Path, dict[str, str]]) -> None:
    where, env = project
    broken = json.dumps(
        {"type": "stdio", "command": sys.executable, "args": ["-m", "sofia", "mcp", "--bogus"]}
    )
    assert _claude(claude, where, env, "mcp", "add-json", "--scope", "local", "sofia", broken).returncode == 0
    listed = _claude(claude, where, env, "mcp", "list")
    assert "Failed to connect" in next(
        line for line in listed.stdout.splitlines() if line.startswith("sofia:")
    )

    done = run_sf("init", "--check", "--client", "claude-code", "--json", cwd=where, env=env)
    assert done.returncode == 1
    row = json.loads(done.stdout)["entries"][0]
    assert row["action"] == "fail" and "unrecognized arguments: --bogus" in row["detail"]

    fixed = run_sf("init", "--client", "claude-code", "--json", cwd=where, env=env)
    assert json.loads(fixed.stdout)["entries"][0]["action"] == "updated"
    assert "Connected" in _claude(claude, where, env, "mcp", "list").stdout
