"""A second, independent client: MCP Inspector's CLI mode (TypeScript SDK) lists the tools and
calls `changed`, spawning `sf mcp` exactly as a user's configuration would."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from tests.helpers import Repo
from tests.server.harness import server_env
from tests.server.snapshot import registered

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"


def inspector(repo: Repo, *method: str) -> object:
    assert shutil.which("npx"), "MCP Inspector runs on Node.js: install nodejs and npm (.ci/run does)"
    done = subprocess.run(
        ["npx", "-y", INSPECTOR, "--cli", sys.executable, "-m", "sofia", "mcp", "--workers", "1", *method],
        cwd=repo.path,
        env=server_env(test_providers=False),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_inspector_lists_the_tools_and_calls_changed(repo: Repo) -> None:
    repo.write("app.py", "def main():\n    return 1\n")
    repo.commit("app")
    repo.write("app.py", "def main():\n    return 2\n")
    listed = inspector(repo, "--method", "tools/list")
    assert isinstance(listed, dict)
    assert [tool["name"] for tool in listed["tools"]] == [p.name for p in registered()]
    called = inspector(repo, "--method", "tools/call", "--tool-name", "changed")
    assert isinstance(called, dict) and not called.get("isError")
    payload = json.loads(called["content"][0]["text"])
    assert [(f["status"], f["path"], f["symbols"]) for f in payload["files"]] == [("M", "app.py", "main")]
