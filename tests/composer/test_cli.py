"""`sf composer …` end to end through the real command line."""

from __future__ import annotations

import json

from sofia.providers.composer import ls
from tests.composer.conftest import context
from tests.composer.workspace import Workspace
from tests.helpers import run_sf


def test_ls_toon_and_json(workspace: Workspace) -> None:
    toon = run_sf("composer", "ls", "--root", "monorepo", cwd=workspace.root)
    assert toon.returncode == 0, toon.stderr
    assert "packages[6]{name,dir,version,type,php,phpstan,namespaces,scripts,deps,dev_deps}:" in toon.stdout
    assert "errors[1]{dir,error}:" in toon.stdout
    as_json = run_sf("composer", "ls", "--root", "monorepo", "--json", cwd=workspace.root)
    assert json.loads(as_json.stdout) == ls.run(ls.Params(root="monorepo"), context(workspace.root))


def test_ls_markdown(workspace: Workspace) -> None:
    done = run_sf("composer", "ls", "--md", cwd=workspace.standalone)
    assert done.returncode == 0, done.stderr
    assert "| acme/slugger | . | v2.0.0 | library |" in done.stdout


def test_show(workspace: Workspace) -> None:
    done = run_sf("composer", "show", "enum", "--root", "monorepo", "--json", cwd=workspace.root)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["name"], result["version"], result["phpstan"]) == ("acme/enum", "v1.1.0", "max")


def test_show_errors(workspace: Workspace) -> None:
    unknown = run_sf("composer", "show", "nope", cwd=workspace.root)
    assert unknown.returncode == 1
    assert 'no package matching "nope" under .; known packages: ' in unknown.stderr
    missing = run_sf("composer", "show", cwd=workspace.root)
    assert missing.returncode == 2


def test_check(workspace: Workspace) -> None:
    done = run_sf(
        "composer",
        "check",
        "enum",
        "--root",
        "monorepo",
        "--jobs",
        "1",
        "--timeout",
        "60",
        "--json",
        cwd=workspace.root,
    )
    assert done.returncode == 0, done.stderr
    [row] = json.loads(done.stdout)["results"]
    assert (row["package"], row["status"], row["exit_code"]) == ("acme/enum", "fail", 1)


def test_check_budget_flag(workspace: Workspace) -> None:
    done = run_sf("composer", "check", "slugger", "--budget", "60", "--json", cwd=workspace.root)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["ok"] == 1
