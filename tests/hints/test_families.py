"""Each tool's own hints, through the real `sf` and the real `sf mcp`: the CLI shows the flag, MCP
the parameter, and no answer of any tool carries a reference mark.

One workspace serves every tool: a git repository with Python sources and changes, Claude Code
transcripts, a Composer package, an empty directory, and the fake `gh` first on PATH.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sofia.errors import CLOSE, OPEN, SEPARATOR, TOOL
from sofia.providers.registry import served
from tests.cc.transcripts import write_ab, write_extras
from tests.github.fakegh import FakeGh
from tests.github.helpers import VIEWER, branches_query, prs_query
from tests.helpers import Repo, run_sf
from tests.served import Case, cases
from tests.server.harness import connect, server_env, text

MARKS = (OPEN, SEPARATOR, CLOSE, TOOL)

NEEDLE = "def needle():\n    return 1\n\n\ndef a():\n    return needle()\n\n\ndef b():\n    return needle() + needle()\n"


CASES = cases()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hints") / "ws"
    repo = Repo(root / "repo")
    repo.write("src/a.py", NEEDLE)
    repo.commit("one")
    repo.write("README.md", "two\n")
    repo.commit("two")
    for index in range(40):
        repo.write(f"docs/page{index}.txt", f"page {index}\n")
    write_ab(root / "claude")
    write_extras(root / "claude")
    package = Repo(root / "lib" / "acme-lib")
    package.write("composer.json", '{"name": "acme/lib", "scripts": {"check": "true"}}\n')
    package.commit("package")
    (root / "plain").mkdir()
    return root


@pytest.fixture(scope="module")
def gh_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    fake = FakeGh(tmp_path_factory.mktemp("fake-gh"))
    fake.add(VIEWER, stdout="dev\n")
    fake.add(prs_query(limit=1), stdout_file="graphql_prs.json")
    fake.add(branches_query(refs=1), stdout_file="graphql_branches.json")
    yield fake.env()


def unmarked(shown: str) -> None:
    assert not any(mark in shown for mark in MARKS), repr(shown)


def test_every_served_tool_has_a_case() -> None:
    assert {provider.name for provider in served()} <= {case.tool for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case.tool}-{case.argv[-1]}")
def test_the_cli_shows_the_flag(case: Case, workspace: Path, gh_env: dict[str, str]) -> None:
    budget = ["--max-output-tokens", str(case.budget)] if case.budget else []
    done = run_sf(*case.argv, *budget, "--json", cwd=workspace, env=gh_env)
    unmarked(done.stdout + done.stderr)
    assert (done.returncode in (1, 2)) == case.error, done.stderr  # 2: a refusal of the arguments
    shown = done.stderr if case.error else " ".join(json.loads(done.stdout).get("notes", []))
    assert case.cli in shown
    if case.cli != case.mcp:
        assert case.mcp not in shown


@pytest.mark.anyio
@pytest.mark.parametrize("budget", sorted({case.budget or 0 for case in CASES}))
async def test_mcp_shows_the_parameter(budget: int, workspace: Path, gh_env: dict[str, str]) -> None:
    args = ["--max-output-tokens", str(budget)] if budget else []
    env = server_env(test_providers=False, **gh_env)
    missing = []
    async with connect(workspace, *args, env=env) as server:
        for case in [case for case in CASES if (case.budget or 0) == budget]:
            result = await server.call(case.tool, case.arguments)
            shown = text(result)
            unmarked(shown)
            if result.is_error != case.error:
                missing.append(f"{case.tool} {case.arguments}: is_error={result.is_error}: {shown}")
                continue
            said = shown if case.error else " ".join(json.loads(shown).get("notes", []))
            if case.mcp not in said or (case.cli != case.mcp and case.cli in said):
                missing.append(f"{case.tool} {case.arguments}: {said}")
    assert missing == []


def test_help_spells_a_description_s_reference_as_the_flag() -> None:
    done = run_sf("grep", "--help")
    assert done.returncode == 0
    unmarked(done.stdout)
    assert "literal unless --regex" in " ".join(done.stdout.split())
