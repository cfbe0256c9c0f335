"""Each tool's own hints, through the real `sf` and the real `sf mcp`: the CLI shows the flag, MCP
the parameter, and no answer of any tool carries a reference mark.

One workspace serves every tool: a git repository with Python sources and changes, Claude Code
transcripts, a Composer package, an empty directory, and the fake `gh` first on PATH.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sofia.errors import CLOSE, OPEN, SEPARATOR, TOOL
from sofia.providers.registry import served
from tests.cc.transcripts import write_ab, write_extras
from tests.github.fakegh import FakeGh
from tests.github.helpers import VIEWER, branches_query, prs_query
from tests.helpers import Repo, run_sf
from tests.server.harness import connect, server_env, text

MARKS = (OPEN, SEPARATOR, CLOSE, TOOL)
SMALL = 200
"""The output budget of the cases that are about a list the budget shortened."""

NEEDLE = "def needle():\n    return 1\n\n\ndef a():\n    return needle()\n\n\ndef b():\n    return needle() + needle()\n"


@dataclass(frozen=True)
class Case:
    tool: str
    arguments: dict[str, Any]
    argv: list[str]
    mcp: str
    """What the MCP answer says (the parameter spelling)."""
    cli: str
    """What `sf` says instead (the flag spelling), on stdout or stderr."""
    budget: int | None = None
    error: bool = False
    extra: list[str] = field(default_factory=list)


CASES = [
    Case(
        "grep",
        {"patterns": ["("], "regex": True},
        ["grep", "(", "--regex"],
        "(regex=true uses ripgrep syntax; look-around and backreferences are unsupported; drop regex=true",
        "(--regex uses ripgrep syntax; look-around and backreferences are unsupported; drop --regex",
        error=True,
    ),
    Case(
        "grep",
        {"patterns": ["needle"], "max_per_pattern": 1, "root": "repo"},
        ["grep", "needle", "--max-per-pattern", "1", "--root", "repo"],
        "narrow with exts, root or word=true, or raise max_per_pattern",
        "narrow with --ext, --root or --word, or raise --max-per-pattern",
    ),
    Case(
        "grep",
        {"patterns": ["x"], "ignore_dirs": ["a/b"]},
        ["grep", "x", "--ignore-dir", "a/b"],
        "ignore_dirs takes directory names, not paths or globs",
        "--ignore-dir takes directory names, not paths or globs",
        error=True,
    ),
    Case(
        "refs",
        {"symbols": ["needle"], "max_per_symbol": 1, "root": "repo"},
        ["refs", "needle", "--max-per-symbol", "1", "--root", "repo"],
        "showing 1 of 3 uses (max_per_symbol=1); needle: raise max_per_symbol or narrow with root, exts, kinds",
        "showing 1 of 3 uses (--max-per-symbol 1); needle: raise --max-per-symbol or narrow with --root, --ext, --kind",
    ),
    Case(
        "code",
        {"files": ["repo/src/a.py"], "api": True},
        ["code", "repo/src/a.py", "--api"],
        "api applies to PHP classes; other files are summarised as with exported=true",
        "--api applies to PHP classes; other files are summarised as with --exported",
    ),
    Case(
        "code",
        {"files": ["repo/src/a.py"], "symbols": [" "]},
        ["code", "repo/src/a.py", "--symbol", " "],
        "or leave symbols out for summaries",
        "or leave --symbol out for summaries",
        error=True,
    ),
    Case(
        "changed",
        {"range": "HEAD~1..HEAD", "staged": True, "root": "repo"},
        ["changed", "HEAD~1..HEAD", "--staged", "--root", "repo"],
        "staged cannot be combined with the range HEAD~1..HEAD (use staged with no range",
        "--staged cannot be combined with the range HEAD~1..HEAD (use --staged with no range",
        error=True,
    ),
    Case(
        "changed",
        {"root": "plain"},
        ["changed", "--root", "plain"],
        "(run inside a repository or pass root=…, a directory inside one)",
        "(run inside a repository or pass --root DIR, a directory inside one)",
        error=True,
    ),
    Case(
        "changed",
        {"root": "repo"},
        ["changed", "--root", "repo"],
        "; narrow with paths=[…]",
        "; narrow with -- PATH...",
        budget=SMALL,
    ),
    Case(
        "vue_routes",
        {},
        ["vue", "routes"],
        "pass file=… (src/router.ts, say)",
        "pass FILE (src/router.ts, say)",
        error=True,
    ),
    Case(
        "cc_ls",
        {"projects_dir": "claude", "limit": 1},
        ["cc", "ls", "--projects-dir", "claude", "--limit", "1"],
        "sessions: showing 1 of 3 sessions (limit=1); pass limit=0 for all",
        "sessions: showing 1 of 3 sessions (--limit 1); pass --limit 0 for all",
    ),
    Case(
        "cc_show",
        {"session": "nomatch", "projects_dir": "claude"},
        ["cc", "show", "nomatch", "--projects-dir", "claude"],
        "a project name or a .jsonl path; cc_ls lists sessions)",
        "a project name or a .jsonl path; sf cc ls lists sessions)",
        error=True,
    ),
    Case(
        "cc_resume",
        {"session": "nomatch", "projects_dir": "claude"},
        ["cc", "resume", "nomatch", "--projects-dir", "claude"],
        "; cc_ls lists sessions)",
        "; sf cc ls lists sessions)",
        error=True,
    ),
    Case(
        "cc_prompts",
        {"session": "last", "projects_dir": "claude"},
        ["cc", "prompts", "last", "--projects-dir", "claude"],
        "prompts 3–11 follow; call again with offset=2",
        "prompts 3–11 follow; call again with --offset 2",
        budget=150,
    ),
    Case(
        "cc_bash",
        {"session": "last", "projects_dir": "claude", "limit": 1},
        ["cc", "bash", "last", "--projects-dir", "claude", "--limit", "1"],
        "(limit=1); pass limit=0 for all",
        "(--limit 1); pass --limit 0 for all",
    ),
    Case(
        "cc_candidates",
        {"projects_dir": "claude", "limit": 1, "min_count": 1},
        ["cc", "candidates", "--projects-dir", "claude", "--limit", "1", "--min-count", "1"],
        "repeated_reads: showing 1 of 3 reads (limit=1); pass limit=0 for all",
        "repeated_reads: showing 1 of 3 reads (--limit 1); pass --limit 0 for all",
    ),
    Case(
        "cc_ls",
        {"projects_dir": "claude", "limit": 1},
        ["cc", "ls", "--projects-dir", "claude", "--limit", "1"],
        "(limit=1); pass limit=0 for all",
        "(--limit 1); pass --limit 0 for all",
    ),
    Case(
        "composer_ls",
        {"root": "nope"},
        ["composer", "ls", "--root", "nope"],
        "(pass an existing directory (or a composer.json) as root)",
        "(pass an existing directory (or a composer.json) as --root)",
        error=True,
    ),
    Case(
        "composer_show",
        {"package": "zzz", "root": "lib"},
        ["composer", "show", "zzz", "--root", "lib"],
        "a directory name or a path (composer_ls lists them)",
        "a directory name or a path (sf composer ls lists them)",
        error=True,
    ),
    Case(
        "composer_check",
        {"root": "lib", "script": "nosuch"},
        ["composer", "check", "--root", "lib", "--script", "nosuch"],
        "no package defines a 'nosuch' script; pick another with script",
        "no package defines a 'nosuch' script; pick another with --script",
    ),
    Case(
        "packagist_status",
        {"root": "lib", "offline": True},
        ["packagist", "status", "--root", "lib", "--offline"],
        "nor Packagist was asked; drop offline to compare",
        "nor Packagist was asked; drop --offline to compare",
    ),
    Case(
        "github_ci",
        {"root": "plain"},
        ["github", "ci", "--root", "plain"],
        "or a tree holding cloned packages as root)",
        "or a tree holding cloned packages as --root)",
        error=True,
    ),
    Case(
        "github_pr",
        {"limit": 1},
        ["github", "pr", "--limit", "1"],
        "authored: 3 open PRs, the first 1 shown; raise limit to see more",
        "authored: 3 open PRs, the first 1 shown; raise --limit to see more",
    ),
    Case(
        "github_branches",
        {"refs": 1},
        ["github", "branches", "--refs", "1"],
        "pass owner or lower refs",
        "pass --owner or lower --refs",
        budget=SMALL,
    ),
]


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
