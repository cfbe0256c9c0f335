"""Every tool shortens a result over the output budget the same way (sofia/output/budget.py):
`omitted` maps each shortened list to the exact count it left out and is present only when
something was; every note on a shortened list or text is in the toolkit's wording; a cut made by
the budget is never silent; totals do not change.

To cover another tool, add a `Case`: its registry name, a fixture builder that writes a real
workspace under `tmp_path` and returns the workspace root with the call's arguments, a budget
small enough to cut the result (but large enough to fit it after the cuts), the keys whose
values must not change under the budget, and the pytest fixtures the call needs running (the
fake `gh` on PATH, a local Packagist). An `omitted` key that counts items of several lists
(grep's `hits`, every pattern's hits tables; refs' `symbols[0].uses`, a symbol's `exact` and `name`
rows) needs a `shown` function that counts the items the result shows for it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sofia.output import budget
from sofia.output.tokens import estimate
from sofia.providers.registry import by_name
from tests.cc.corpus import write_corpus
from tests.cc.transcripts import Transcript, text, tool_result, tool_use, usage
from tests.composer.conftest import write_package
from tests.composer.workspace import build_workspace
from tests.github.fakegh import FakeGh
from tests.github.helpers import VIEWER, branches_query, github_repo, prs_query, record_api_repo
from tests.helpers import Repo, call
from tests.packagist.server import FakePackagist, local_packagist

Fixture = Callable[[Path], tuple[Path, dict[str, Any]]]
Shown = Callable[[dict[str, Any], str], "int | None"]
NOW = 1772500000.0

NOTE = re.compile(
    r"(?P<what>\S+): showing (?P<shown>\d+) of (?P<total>\d+) [^()]+? \((?P<why>[^)]*)\); (?P<hint>.+)", re.S
)
"""`budget.note`'s wording."""
SHORTENED = re.compile(r"(?P<what>.+?): (?P<change>.+) \(budget \d+ tok\); (?P<hint>.+)", re.S)
"""`budget.shortened_note`'s wording."""


@dataclass(frozen=True)
class Case:
    tool: str
    fixture: Fixture
    budget: int
    exact: tuple[str, ...] = ()
    """Keys whose values the budget must not change (totals, counts of the whole)."""
    label: str = ""
    shown: Shown | None = None
    """Items shown for an `omitted` key that names no one list; None for the keys that do."""
    needs: tuple[str, ...] = ()
    """Fixtures of this module the call needs (`fake_gh`, `packagist`)."""

    @property
    def id(self) -> str:
        return self.label or self.tool


# -- fixtures: real workspaces ----------------------------------------------------------------------


def busy_session(tmp: Path) -> Path:
    """One Claude Code session with more of everything than a tool shows: long prompts, 30 files,
    25 distinct commands, 20 open todos, 20 heavy tool results and a long last answer."""
    t = Transcript("b0b0b0b0-0000-4000-8000-000000000000", "/home/dev/src/busy", "2.0.31")
    stamp = "2026-03-02T10:00:00.000Z"
    for n in range(30):
        t.user(f"p{n}", None, stamp, f"prompt {n + 1}: " + "please look at the retry handling " * 10)
        path = f"/home/dev/src/busy/internal/pkg{n:02}/file.go"
        tool = "Edit" if n % 3 == 0 else "Read"
        t.assistant(
            f"a{n}",
            None,
            stamp,
            f"msg_a{n}",
            [tool_use(f"t{n}", tool, {"file_path": path})],
            usage(1, 0, 0, 1),
        )
        t.user(f"r{n}", None, stamp, [tool_result(f"t{n}", "ok")])
    for n in range(25):
        command = f"go test ./internal/pkg{n:02}/... -run TestRetry{n}"
        for repeat in range(1 + n % 3):
            tid = f"b{n}-{repeat}"
            t.assistant(
                f"c{tid}",
                None,
                stamp,
                f"msg_c{tid}",
                [tool_use(tid, "Bash", {"command": command})],
                usage(1, 0, 0, 1),
            )
            t.user(f"u{tid}", None, stamp, [tool_result(tid, "PASS")])
    todos = [{"content": f"fix the retry budget in pkg{n:02}", "status": "pending"} for n in range(20)]
    t.assistant(
        "todo", None, stamp, "msg_todo", [tool_use("todo", "TodoWrite", {"todos": todos})], usage(1, 0, 0, 1)
    )
    t.user("todo-r", None, stamp, [tool_result("todo", "ok")])
    for n in range(20):
        tid = f"fat{n}"
        t.assistant(
            tid,
            None,
            stamp,
            f"msg_{tid}",
            [tool_use(tid, "Grep", {"pattern": f"retry{n}"})],
            usage(1, 0, 0, 1),
        )
        t.user(f"{tid}-r", None, stamp, [tool_result(tid, f"hit {n} " * (1200 + 10 * n))])
    t.assistant("last", None, stamp, "msg_last", [text("Done with the retries. " * 80)], usage(1, 0, 0, 1))
    path = tmp / "projects" / "-home-dev-src-busy" / f"{t.session_id}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(t.data())
    return path


def session(**arguments: Any) -> Fixture:
    def build(tmp: Path) -> tuple[Path, dict[str, Any]]:
        return tmp, {"session": str(busy_session(tmp)), **arguments}

    return build


def corpus(**arguments: Any) -> Fixture:
    def build(tmp: Path) -> tuple[Path, dict[str, Any]]:
        write_corpus(tmp / "projects", sessions=30, total=2 * 1024 * 1024, seed=3)
        return tmp, {"projects_dir": str(tmp / "projects"), **arguments}

    return build


def changed_tree(tmp: Path) -> tuple[Path, dict[str, Any]]:
    """A repository with 30 docs and 30 modules changed in the working tree, six functions each."""
    repo = Repo(tmp / "repo")
    repo.write("README.md", "start\n")
    repo.commit("start")
    for i in range(30):
        repo.write(f"docs/page{i:02}.md", "text\n" * 3)
        repo.write(f"src/mod{i:02}.py", "".join(f"def f{i}_{j}():\n    return {j}\n\n" for j in range(6)))
    return repo.path, {}


def go_service(index: int, methods: int = 8) -> str:
    body = "".join(f'\tlog.Printf("step %d", {i})\n' for i in range(30))
    funcs = "".join(
        f"// Handle{m} handles kind {m}.\nfunc (s *Service{index}) Handle{m}(ctx context.Context, id int) error {{\n{body}\treturn nil\n}}\n\n"
        for m in range(methods)
    )
    return f'package svc\n\nimport (\n\t"context"\n\t"log"\n)\n\n// Service{index} serves.\ntype Service{index} struct{{}}\n\n{funcs}'


def go_files(tmp: Path) -> tuple[Path, dict[str, Any]]:
    (tmp / "svc").mkdir()
    for index in range(12):
        (tmp / "svc" / f"s{index:02}.go").write_text(go_service(index))
    return tmp, {"files": ["svc"]}


def go_big(tmp: Path) -> tuple[Path, dict[str, Any]]:
    (tmp / "big.go").write_text(go_service(1, methods=200))
    return tmp, {"files": ["big.go"]}


def go_slices(tmp: Path) -> tuple[Path, dict[str, Any]]:
    (tmp / "big.go").write_text(go_service(1, methods=40))
    return tmp, {"files": ["big.go"], "symbols": [f"Handle{m}" for m in range(40)]}


def plain_text(tmp: Path) -> tuple[Path, dict[str, Any]]:
    (tmp / "notes.txt").write_text("".join(f"line {n}: nothing to summarise here\n" for n in range(3000)))
    return tmp, {"files": ["notes.txt"]}


def grep_tree(**arguments: Any) -> Fixture:
    """Three patterns over 40 files of 10 hits each (and one file with few)."""

    def build(tmp: Path) -> tuple[Path, dict[str, Any]]:
        for i in range(40):
            lines = "".join(f"    alpha(beta, {n}) # gamma {i}\n" for n in range(10))
            (tmp / "pkg" / f"m{i:02}.py").parent.mkdir(exist_ok=True)
            (tmp / "pkg" / f"m{i:02}.py").write_text(f"def f{i}():\n{lines}")
        (tmp / "pkg" / "zeta.txt").write_text("delta\n" * 3)
        return tmp, {"patterns": ["alpha", "beta", "delta"], "root": "pkg", **arguments}

    return build


def grep_hits(result: dict[str, Any], key: str) -> int | None:
    """`hits`: the hit rows of every pattern's table."""
    if key != "hits":
        return None
    return sum(len(rows) for pattern in result["patterns"] for rows in pattern["hits"].values())


def refs_tree(definitions: int = 1, **arguments: Any) -> Fixture:
    """`target` defined in `definitions` modules and called 12 times in each of 30 others."""

    def build(tmp: Path) -> tuple[Path, dict[str, Any]]:
        for index in range(definitions):
            (tmp / f"lib{index:02}.py").write_text(f"def target(x):\n    return x + {index}\n")
        for index in range(30):
            calls = "".join(f"    target({n})\n" for n in range(12))
            (tmp / f"m{index:03}.py").write_text(f"from lib00 import target\n\n\ndef f():\n{calls}")
        return tmp, {"symbols": ["target", "lib00.target"], **arguments}

    return build


def refs_uses(result: dict[str, Any], key: str) -> int | None:
    """`symbols[i].uses`: the `exact` and `name` uses of that symbol, grouped under their files."""
    match = re.fullmatch(r"symbols\[(\d+)\]\.uses", key)
    if match is None:
        return None
    entry = result["symbols"][int(match[1])]
    return sum(len(rows) for group in ("exact", "name") for rows in entry.get(group, {}).values())


def vue_router(tmp: Path) -> tuple[Path, dict[str, Any]]:
    entries = ",\n".join(f"  {{ path: '/page{i}', name: 'page-{i}' }}" for i in range(400))
    (tmp / "app" / "src" / "router").mkdir(parents=True)
    (tmp / "app" / "src" / "router" / "index.ts").write_text(f"export default [\n{entries}\n]\n")
    return tmp, {"root": "app"}


def composer_tree(tmp: Path) -> tuple[Path, dict[str, Any]]:
    """The PHP workspace: eight packages in three repositories, one manifest broken."""
    return build_workspace(tmp / "workspace").root, {}


def big_package(tmp: Path) -> tuple[Path, dict[str, Any]]:
    """One package with long scripts, 40 locked requirements and 30 autoload rows."""
    requires = {f"acme/dep{n:02}": "^1.0" for n in range(40)}
    manifest = {
        "name": "acme/big",
        "require": {"php": "^8.2", **requires},
        "autoload": {"psr-4": {f"Acme\\Big\\Part{n:02}\\": f"src/Part{n:02}/" for n in range(20)}},
        "autoload-dev": {
            "psr-4": {f"Acme\\Big\\Tests\\Part{n:02}\\": f"tests/Part{n:02}/" for n in range(10)}
        },
        "scripts": {
            "check": ["@lint", "@test", "@analyse"],
            "lint": "php-cs-fixer fix --dry-run --diff --config=.php-cs-fixer.dist.php " + "src/Part00 " * 30,
            "test": "phpunit --colors=never --do-not-cache-result " + "--testsuite unit " * 20,
        },
    }
    packages = [{"name": name, "version": "1.4.2"} for name in requires]
    write_package(
        tmp / "big",
        manifest,
        {"composer.lock": json.dumps({"content-hash": "0" * 32, "packages": packages, "packages-dev": []})},
    )
    return tmp / "big", {"package": "acme/big"}


def checks(tmp: Path) -> tuple[Path, dict[str, Any]]:
    """Eight packages whose check passes and one whose check fails with a long first line."""
    for index in range(8):
        write_package(
            tmp / f"ok{index}", {"name": f"acme/ok{index}", "scripts": {"check": "php -r 'exit(0);'"}}
        )
    long_line = "Error: " + "the fixture is missing " * 20
    write_package(
        tmp / "bad", {"name": "acme/bad", "scripts": {"check": f"php -r 'echo \"{long_line}\"; exit(2);'"}}
    )
    return tmp, {"jobs": 4}


GH = "fake-gh"
"""Where (below the test's tmp_path) the fake gh reads its cases; the `fake_gh` fixture puts it on PATH."""


def ci_runs(tmp: Path) -> tuple[Path, dict[str, Any]]:
    """A repository with five recorded runs, two failed steps and their logs."""
    repo = github_repo(tmp / "api")
    record_api_repo(FakeGh(tmp / GH), repo.path)
    return repo.path, {"log_lines": 100}


def open_prs(tmp: Path) -> tuple[Path, dict[str, Any]]:
    """The recorded five pull requests."""
    fake = FakeGh(tmp / GH)
    fake.add(VIEWER, stdout="dev\n")
    fake.add(prs_query(), stdout_file="graphql_prs.json")
    return tmp, {}


def own_branches(tmp: Path) -> tuple[Path, dict[str, Any]]:
    """The recorded branches of the user's repositories."""
    fake = FakeGh(tmp / GH)
    fake.add(VIEWER, stdout="dev\n")
    fake.add(branches_query(), stdout_file="graphql_branches.json")
    return tmp, {}


CASES = [
    Case("cc_ls", corpus(limit=0), 500, ("matched", "stats")),
    Case("cc_candidates", corpus(min_count=1, limit=0), 600, ("scanned_sessions", "heavy_tools")),
    Case("cc_show", session(), 1200, ("prompts_total", "tokens", "tools", "bash")),
    Case("cc_resume", session(), 600, ("goal", "messages")),
    Case("cc_prompts", session(), 800, ("total", "offset")),
    Case("cc_bash", session(limit=0), 500, ("summary", "unique_total")),
    Case("changed", changed_tree, 1200, ("spec", "totals", "by_category")),
    Case("code", go_files, 4000, ("stats",), "code files"),
    Case("code", go_big, 1500, ("stats",), "code one summary"),
    Case("code", plain_text, 2000, ("stats",), "code raw content"),
    Case("code", go_slices, 2000, (), "code slices"),
    Case("grep", grep_tree(max_per_pattern=0), 1500, ("root", "empty"), "grep budget", grep_hits),
    Case("grep", grep_tree(max_per_pattern=40), 1000, ("root", "empty"), "grep cap then budget", grep_hits),
    Case("refs", refs_tree(max_per_symbol=0), 2000, ("root", "stats"), "refs uses", refs_uses),
    Case("refs", refs_tree(definitions=30), 600, ("root", "stats"), "refs definitions", refs_uses),
    Case("vue_routes", vue_router, 1000, ("files", "stats")),
    Case("composer_ls", composer_tree, 300, ("root",)),
    Case("composer_show", big_package, 900, ("name", "require", "require_dev")),
    Case("composer_check", checks, 300, ("summary",)),
    Case("packagist_status", composer_tree, 300, ("summary",), needs=("packagist",)),
    Case("github_ci", ci_runs, 300, ("summary", "redactions"), needs=("fake_gh",)),
    Case("github_ci", ci_runs, 600, ("summary", "redactions"), "github_ci log tails", needs=("fake_gh",)),
    Case("github_pr", open_prs, 180, ("summary", "viewer"), needs=("fake_gh",)),
    Case("github_branches", own_branches, 220, ("summary", "owner"), needs=("fake_gh",)),
]


# -- the one shape ----------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOFIA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SOFIA_CODE_RAW_BELOW", raising=False)


@pytest.fixture
def fake_gh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test suite's fake gh first on PATH, reading the cases a builder records under `GH`."""
    for key, value in FakeGh(tmp_path / GH).env().items():
        monkeypatch.setenv(key, value)


@pytest.fixture
def packagist(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakePackagist]:
    """A local Packagist that has published nothing."""
    with local_packagist(monkeypatch) as fake:
        yield fake


def run_tool(
    tool: str, root: Path, arguments: dict[str, Any], limit: int | None
) -> tuple[dict[str, Any], str | None]:
    """The tool as the MCP server calls it: the result and, for a tool answering in text, its text."""
    provider = by_name(tool)
    assert provider is not None, tool
    result = call(tool, arguments, root, limit, clock=lambda: NOW)
    assert isinstance(result, dict)
    return result, provider.as_text(result)


def untimed(value: Any) -> Any:
    """`value` without its wall-clock timings (`wall_ms`, `duration_ms`), which differ run to run."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if not k.endswith("_ms")}
    if isinstance(value, list):
        return [untimed(item) for item in value]
    return value


def resolve(result: dict[str, Any], key: str) -> Any:
    """The value an `omitted` key names: `files`, `subagents.tasks`, `files[0].functions`."""
    value: Any = result
    for part in re.findall(r"\[\d+\]|[^.\[\]]+", key):
        value = value[int(part[1:-1])] if part.startswith("[") else value[part]
    return value


def shown_items(case: Case, result: dict[str, Any], key: str) -> int:
    """How many items the result shows for an `omitted` key."""
    counted = case.shown(result, key) if case.shown else None
    if counted is not None:
        return counted
    value = resolve(result, key)
    assert isinstance(value, list), key
    return len(value)


def resolve_or_none(result: dict[str, Any], key: str) -> Any:
    try:
        return resolve(result, key)
    except (KeyError, IndexError, TypeError):
        return None


def shortened_lists(case: Case, result: dict[str, Any]) -> dict[str, int]:
    assert result.get("omitted", True), "an empty omitted must be left out"
    omitted = result.get("omitted", {})
    assert isinstance(omitted, dict)
    for key, count in omitted.items():
        assert type(count) is int and count > 0, (key, count)
        shown_items(case, result, key)
    return omitted


def check_notes(case: Case, result: dict[str, Any], limit: int | None) -> dict[str, re.Match[str]]:
    """Every note about the budget in one of the toolkit's wordings; those on shortened lists
    count exactly what `omitted` says. Returns the list notes by key."""
    omitted = shortened_lists(case, result)
    by_key: dict[str, re.Match[str]] = {}
    for line in result["notes"]:
        listed = NOTE.fullmatch(line)
        if listed is None:
            assert not re.match(r"\S+: showing \d", line), line
            if "budget" in line:
                assert line == budget.floor_note(limit) or SHORTENED.fullmatch(line), line
            continue
        key = listed["what"]
        assert key not in by_key, f"two notes on {key}"
        assert case.shown is not None or isinstance(resolve_or_none(result, key), list), (
            f"`showing X of Y` names a list: {line}"
        )
        by_key[key] = listed
        shown, total = int(listed["shown"]), int(listed["total"])
        assert shown == shown_items(case, result, key), line
        assert total - shown == omitted.get(key, 0) > 0, line
    return by_key


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_over_budget_results_have_the_one_shape(
    case: Case, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    for fixture in case.needs:
        request.getfixturevalue(fixture)
    root, arguments = case.fixture(tmp_path)
    whole, _ = run_tool(case.tool, root, arguments, None)
    small, as_text = run_tool(case.tool, root, arguments, case.budget)
    assert untimed(run_tool(case.tool, root, arguments, case.budget)[0]) == untimed(small), (
        "not deterministic"
    )

    assert budget.cost(whole) > case.budget, "the fixture must be over the budget"
    assert budget.cost(small) <= case.budget
    assert as_text is None or estimate(as_text) <= case.budget
    assert budget.floor_note(case.budget) not in small["notes"]

    check_notes(case, whole, None)
    noted = check_notes(case, small, case.budget)
    cut_here = {**whole.get("omitted", {}), **small.get("omitted", {})}
    assert small.get("omitted") or any(SHORTENED.fullmatch(n) for n in small["notes"]), "nothing was cut"
    for key in cut_here:
        before = shown_items(case, whole, key) + whole.get("omitted", {}).get(key, 0)
        after = shown_items(case, small, key) + small.get("omitted", {}).get(key, 0)
        assert after == before, f"{key}: the count of the whole changed"
        if small.get("omitted", {}).get(key, 0) > whole.get("omitted", {}).get(key, 0):
            assert key in noted and f"budget {case.budget} tok" in noted[key]["why"], f"{key}: cut silently"
    for key in case.exact:
        assert small[key] == whole[key], key


def test_the_cases_cover_the_tools_of_the_shared_shape() -> None:
    tools = {case.tool for case in CASES}
    for tool in tools:
        assert by_name(tool) is not None, tool
    assert {
        "cc_ls",
        "cc_show",
        "cc_resume",
        "cc_prompts",
        "cc_bash",
        "cc_candidates",
        "changed",
        "code",
        "grep",
        "refs",
        "vue_routes",
        "composer_ls",
        "composer_show",
        "composer_check",
        "packagist_status",
        "github_ci",
        "github_pr",
        "github_branches",
    } <= tools


FLOORED = [
    Case("grep", grep_tree(max_per_pattern=0), 60, label="grep", shown=grep_hits),
    Case("refs", refs_tree(definitions=30), 60, label="refs", shown=refs_uses),
    Case("vue_routes", vue_router, 20),
]


@pytest.mark.parametrize("case", FLOORED, ids=lambda case: case.id)
def test_the_floor_note_when_not_even_the_shortest_form_fits(case: Case, tmp_path: Path) -> None:
    root, arguments = case.fixture(tmp_path)
    whole, _ = run_tool(case.tool, root, arguments, None)
    small, _ = run_tool(case.tool, root, arguments, case.budget)
    assert small["notes"][-1] == budget.floor_note(case.budget)
    assert small["notes"].count(budget.floor_note(case.budget)) == 1
    check_notes(case, small, case.budget)
    for key, count in small["omitted"].items():
        whole_count = shown_items(case, whole, key) + whole.get("omitted", {}).get(key, 0)
        assert shown_items(case, small, key) + count == whole_count, key
