"""Every example a `--help` shows, run as written in a workspace it makes sense in: none is a usage
error or an internal error, and the ones whose inputs the workspace holds succeed."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from sofia.providers.registry import PROVIDERS
from tests.cc.transcripts import write_ab
from tests.helpers import Repo, run_sf

EXAMPLES = [(p.name, e) for p in PROVIDERS if not p.module.startswith("tests.") for e in p.examples]
NEEDS_GH = ("github_",)
"""gh is not installed here: those examples must end with its clear 'not found' error."""
MAY_FAIL = {
    "sf packagist release enum v1.4.0 --yes": "release refused",  # no origin: refused before any change
    "sf packagist release acme/enum 1.4.0 --dry-run": "release refused",
    "sf composer check": "",  # enum's check fails on purpose: exit 1 with the table
    "sf composer check enum": "",
}
"""Examples that end with status 1 here, and what their stderr says."""

CONTROLLER = """<?php
namespace App\\Controller;

use App\\Service\\UserService;

class UserController
{
    public function __construct(private UserService $users) {}

    public function destroy(int $id): void
    {
        $this->users->deleteUser($id); // -foo
    }
}
"""
SERVICE = "<?php\nnamespace App\\Service;\n\nclass UserService\n{\n    public function deleteUser(int $id): void {}\n}\n"
MODEL = (
    "<?php\nnamespace App\\Models;\n\nclass User\n{\n    public function name(): string { return 'u'; }\n}\n"
)
SERVER = """package server

type Server struct{ routes []string }

func New() *Server { return &Server{} }

func (s *Server) Routes() []string { return s.routes }
"""
ROUTER = "export default [{ path: '/', component: () => import('../views/Home.vue') }]\n"
BADGE = '<template><span>{{ label }}</span></template>\n<script setup lang="ts">\ndefineProps<{ label: string }>()\n</script>\n'


def _package(repo: Repo, directory: str, name: str, check: str) -> None:
    manifest = {
        "name": name,
        "type": "library",
        "require": {"php": ">=8.1"},
        "autoload": {
            "psr-4": {"Acme\\\\" + directory.split("/")[-1].title().replace("-", "") + "\\\\": "src/"}
        },
        "scripts": {"check": check, "lint": "php -r 'exit(0);'"},
    }
    repo.write(f"{directory}/composer.json", json.dumps(manifest, indent=2) + "\n")
    repo.write(f"{directory}/src/Thing.php", "<?php\nnamespace Acme;\n\nfinal class Thing {}\n")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("examples")
    repo = Repo(base / "project")
    repo.write("src/Controller/UserController.php", CONTROLLER)
    repo.write("src/Service/UserService.php", SERVICE)
    repo.write("src/Entity/User.php", MODEL.replace("Models", "Entity"))
    repo.write("src/components/Badge.vue", BADGE)
    repo.write("src/generated/fnx.php", "<?php\nfunction fnx() { return fnx(); }\n")
    repo.write("app/Models/User.php", MODEL)
    repo.write("internal/server/server.go", SERVER)
    repo.write("src/router/index.ts", ROUTER)
    repo.write("apps/admin/src/router/index.ts", ROUTER)
    _package(repo, "packages/array-reader", "acme/array-reader", "php -r 'exit(0);'")
    _package(repo, "packages/http-client", "acme/http-client", "php -r 'exit(0);'")
    _package(
        repo,
        "packages/enum",
        "acme/enum",
        "php -r 'fwrite(STDERR, \"FAILURES! Tests: 3, Failures: 1\"); exit(1);'",
    )
    for step in range(4):
        repo.write("src/history.txt", f"step {step}\n")
        repo.commit(f"step {step}")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("src/Service/UserService.php", SERVICE.replace("{}", "{ unset($id); }"))
    repo.commit("feature")
    repo.git("checkout", "-q", "main")
    repo.write("src/Entity/User.php", MODEL.replace("Models", "Entity").replace("'u'", "'v'"))
    repo.git("add", "src/Entity/User.php")
    repo.write("app/Models/User.php", MODEL.replace("'u'", "'w'"))
    home = base / "home"
    clone = Repo(home / "src" / "packages" / "money")
    _package(clone, ".", "acme/money", "php -r 'exit(0);'")
    clone.commit("money")
    projects = base / "claude-projects"
    write_ab(projects)
    tools = base / "bin"
    tools.mkdir()
    for program in ("git", "php", "composer", "rg"):
        found = subprocess.run(
            ["sh", "-c", f"command -v {program}"], capture_output=True, text=True
        ).stdout.strip()
        if found:
            (tools / program).symlink_to(found)
    env = {
        "HOME": str(home),
        "CC_PROJECTS_DIR": str(projects),
        "PATH": os.pathsep.join([os.path.dirname(sys.executable), str(tools)]),
        "SOFIA_PACKAGIST_URL": "http://127.0.0.1:9",
        "SOFIA_NOW": "1767225600",
    }
    return repo.path, env


@pytest.mark.parametrize(("tool", "example"), EXAMPLES, ids=[e for _, e in EXAMPLES])
def test_every_help_example_runs_as_written(
    workspace: tuple[Path, dict[str, str]], tool: str, example: str
) -> None:
    where, env = workspace
    done = run_sf(*shlex.split(example)[1:], cwd=where, env=env, timeout=120)
    assert done.returncode != 2, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    if tool.startswith(NEEDS_GH):
        assert done.returncode == 1 and "gh" in done.stderr, done.stderr
    elif example in MAY_FAIL:
        assert done.returncode in (0, 1) and MAY_FAIL[example] in done.stderr, done.stderr
    else:
        assert done.returncode == 0, done.stderr


def test_the_grep_example_searches_one_pattern_case_insensitively(
    workspace: tuple[Path, dict[str, str]],
) -> None:
    where, env = workspace
    done = run_sf("grep", "--no-case", "--max-per-pattern", "5", "--json", "--", "-FOO", cwd=where, env=env)
    document = json.loads(done.stdout)
    assert [p["pattern"] for p in document["patterns"]] == ["-FOO"]
    assert document["patterns"][0]["total"] == 1
