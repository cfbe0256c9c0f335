"""Adding a tool as docs/adding-a-tool.md says, literally: on a copy of the project the scaffold adds
a tool of its own and a command of an existing group, the doc's regeneration steps run, and then
`ruff check`, `ruff format --check`, `mypy` and every test that covers every tool pass with no
hand edit. The scaffold touches exactly the files the doc lists and nothing in server/, workers/
or cli/; the new tool is listed, validated, confined and on the CLI."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.server.harness import Connection, connect, text

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "adding-a-tool.md"
TOOL = ("gauges", "List the entries of a directory, one row each. Use to see what a directory holds.")
GROUPED = ("tally", "cc", "Entries of a directory beside Claude Code's tools, one row each, by name.")
EVERY_TOOL = [
    "tests/house/test_registry.py",
    "tests/house/test_docs.py",
    "tests/house/test_answer_shapes.py",
    "tests/house/test_layers.py",
    "tests/server/test_tools_list.py",
    "tests/server/test_calls.py",
    "tests/hints/test_families.py",
    "tests/cli/test_examples.py",
]
"""The tests that hold every tool to the house's rules, besides the new tools' own."""


def _digests(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and ".mypy_cache" not in path.parts
    }


def _env(checkout: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "SOFIA_TEST_PROVIDERS"}
    env["PYTHONPATH"] = str(checkout)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _run(checkout: Path, *argv: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(argv),
        cwd=checkout,
        env=_env(checkout),
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def _doc_commands(section: str) -> list[str]:
    """The commands of one numbered section's code block of docs/adding-a-tool.md."""
    body = DOC.read_text().split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    block = body.split("```\n", 2)[1]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project (the package, scripts, docs and tests as they are, every other tracked
    file), with mypy's cache so that only what changed is checked again."""
    root = tmp_path_factory.mktemp("checkout")
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache")
    for part in ("sofia", "scripts", "docs", "tests"):
        shutil.copytree(REPO / part, root / part, ignore=ignore)
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if (
            name
            and name.split("/")[0] not in ("sofia", "scripts", "docs", "tests")
            and (REPO / name).is_file()
        ):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(REPO / name, root / name)
    if (REPO / ".mypy_cache").is_dir():
        shutil.copytree(REPO / ".mypy_cache", root / ".mypy_cache")
    return root


@pytest.fixture(scope="module")
def scaffolded(checkout: Path) -> dict[str, set[str]]:
    """Both scaffold commands of the doc's step 1, with this test's names and descriptions."""
    before = _digests(checkout)
    name, description = TOOL
    grouped, group, grouped_description = GROUPED
    for argv in (
        [name, "--description", description, "--path-param", "target"],
        [grouped, "--group", group, "--description", grouped_description],
    ):
        done = _run(checkout, sys.executable, "scripts/new_tool.py", *argv, "--root", str(checkout))
        assert done.returncode == 0, done.stderr
    after = _digests(checkout)
    return {
        "added": set(after) - set(before),
        "changed": {path for path in set(after) & set(before) if after[path] != before[path]},
    }


@pytest.fixture(scope="module")
def regenerated(checkout: Path, scaffolded: dict[str, set[str]]) -> Path:
    """Step 4's regeneration commands, as the doc writes them."""
    for command in _doc_commands("4. Regenerate and test"):
        if command.startswith("python "):
            done = _run(checkout, sys.executable, *command.split()[1:])
            assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    return checkout


def test_the_doc_names_no_tool_this_test_scaffolds() -> None:
    scaffold = " ".join(_doc_commands("1. Scaffold it"))
    assert TOOL[0] not in scaffold and f"{GROUPED[0]} --group {GROUPED[1]}" not in scaffold


def test_the_scaffold_touches_what_the_doc_lists_and_nothing_else(scaffolded: dict[str, set[str]]) -> None:
    name, grouped, group = TOOL[0], GROUPED[0], GROUPED[1]
    assert scaffolded["added"] == {
        f"sofia/providers/{name}/__init__.py",
        f"sofia/providers/shapes/{name}.py",
        f"sofia/providers/shapes/{group}_{grouped}.py",
        f"tests/{name}/__init__.py",
        f"tests/{name}/test_{name}.py",
        f"tests/{name}/served.py",
        f"docs/{name}.md",
        f"sofia/providers/{group}/{grouped}.py",
        f"tests/{group}/test_{grouped}.py",
    }
    assert scaffolded["changed"] == {
        "sofia/providers/registry.py",
        f"tests/{group}/served.py",
        "docs/README.md",
    }
    listed = DOC.read_text().split("## 1. Scaffold it", 1)[1].split("\n## ", 1)[0]
    for pattern in ("sofia/providers/todos/__init__.py", "sofia/providers/cc/stats.py", "registry.py",
                    "sofia/providers/shapes/todos.py",
                    "tests/todos/test_todos.py", "tests/cc/test_stats.py", "served.py", "docs/todos.md",
                    "docs/README.md"):  # fmt: skip
        assert pattern in listed, pattern


def test_the_record_sits_beside_its_group_and_a_grouped_tool_has_no_guide_of_its_own(
    scaffolded: dict[str, set[str]], checkout: Path
) -> None:
    registry = (checkout / "sofia" / "providers" / "registry.py").read_text()
    names = re.findall(r'\n        name="([a-z_]+)"', registry)
    grouped = f"{GROUPED[1]}_{GROUPED[0]}"
    at = names.index(grouped)
    assert names[at - 1].startswith(f"{GROUPED[1]}_") and not names[at + 1].startswith(f"{GROUPED[1]}_")
    record = registry.split(f'name="{grouped}"', 1)[1].split("\n    ),\n", 1)[0]
    assert "guide=" not in record
    assert names[-1] == TOOL[0]


def test_what_the_scaffold_wrote_is_linted_formatted_and_typed(
    regenerated: Path, scaffolded: dict[str, set[str]]
) -> None:
    written = sorted(path for path in scaffolded["added"] | scaffolded["changed"] if path.endswith(".py"))
    for argv in (
        ["ruff", "check", *written],
        ["ruff", "format", "--check", *written],
        ["mypy", "sofia", "scripts"],
    ):
        done = _run(regenerated, sys.executable, "-m", *argv)
        assert done.returncode == 0, f"{' '.join(argv)}:\n{done.stdout}{done.stderr}"


def _case_of(node: str, name: str, words: str) -> bool:
    """Whether a parametrized test's case is tool `name`'s: its id is the name (`[grep]`), starts
    with it (`[grep---regex]`) or is one of its examples (`[sf cc ls --limit 0]`)."""
    case = node.partition("[")[2][:-1]
    return case == name or case.startswith(f"{name}-") or f"{case} ".startswith(f"sf {words} ")


def _for_the_new_tools(checkout: Path, files: list[str]) -> list[str]:
    """The tests of `files` less the cases of the tools that were there before: a case of a new
    tool, and every test over the whole list (the snapshot, the docs, the budget), run as they are."""
    listed = _run(
        checkout, sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider", *files
    )
    assert listed.returncode == 0, listed.stdout[-3000:] + listed.stderr[-2000:]
    from sofia.providers.registry import PROVIDERS

    old = [(p.name, " ".join(p.cli)) for p in PROVIDERS]
    nodes = [line for line in listed.stdout.splitlines() if "::" in line]
    return [node for node in nodes if not any(_case_of(node, name, words) for name, words in old)]


@pytest.mark.timeout(1200)
def test_the_new_tools_and_every_every_tool_test_pass(regenerated: Path) -> None:
    name, grouped, group = TOOL[0], GROUPED[0], GROUPED[1]
    own = [f"tests/{name}", f"tests/{group}/test_{grouped}.py"]
    nodes = _for_the_new_tools(regenerated, EVERY_TOOL)
    for tool in (name, f"{group}_{grouped}"):
        assert any(_case_of(node, tool, "") for node in nodes), f"no case of {tool} among {nodes}"
    done = _run(regenerated, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *own, *nodes)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_the_new_tool_is_on_the_cli(regenerated: Path, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text("a\n")
    done = subprocess.run(
        [sys.executable, "-m", "sofia", TOOL[0], "--target", "src", "--json"],
        cwd=tmp_path, env=_env(regenerated), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rows"] == [{"path": "src/a.txt"}]
    helped = subprocess.run(
        [sys.executable, "-m", "sofia", "--help"],
        cwd=tmp_path, env=_env(regenerated), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert TOOL[0] in helped.stdout


@pytest.fixture
async def server(regenerated: Path, tmp_path: Path) -> AsyncIterator[Connection]:
    workspace = tmp_path / "workspace"
    (workspace / "src").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    async with connect(workspace, "--workers", "1", "--tools", TOOL[0], env=_env(regenerated)) as connection:
        yield connection


@pytest.mark.anyio
async def test_the_new_tool_is_listed_validated_and_confined(server: Connection) -> None:
    listed = (await server.session.list_tools()).tools
    assert [tool.name for tool in listed] == [TOOL[0]]
    assert listed[0].description == TOOL[1]
    assert set(listed[0].input_schema["properties"]) == {"target", "limit"}
    answered = await server.call(TOOL[0], {"target": "src"})
    assert not answered.is_error and json.loads(text(answered))["rows"] == []
    invalid = await server.call(TOOL[0], {"limit": "many"})
    assert invalid.is_error and text(invalid).startswith("limit: ")
    refused = await server.call(TOOL[0], {"target": "../outside"})
    assert (
        refused.is_error
        and text(refused).startswith("target=")
        and "outside the allowed roots" in text(refused)
    )
