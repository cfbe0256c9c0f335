"""MCP payload tokens: `sf mcp --payload toon` against the default `--payload json`, per tool, on the
same inputs (the real corpora and recordings of the other benchmarks), both servers running side by
side and answering the very same calls. What is counted is the text each server sends.

Targets: ≥ 30 % fewer tokens on the median over the tools with tabular results (grep, cc_ls,
cc_bash, composer_ls, changed, vue_routes, github_*); never more tokens than JSON for any tool.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import bench_cc
import bench_changed
import bench_composer
import bench_github
import bench_grep
from harness import CACHE, ROOT, estimate, mcp_session, median_seconds, npm_package, section, table
from mcp import ClientSession

from sofia.output.jsonfmt import compact
from sofia.output.toon import payload
from tests.github.fakegh import FakeGh
from tests.github.helpers import VIEWER, branches_query, prs_query, record_api_repo
from tests.packagist.server import FakePackagist, Reply, p2_document
from tests.server.harness import TABULAR

TARGET = 0.30
"""Median share of tokens TOON saves over the tabular tools."""
WORK = CACHE / "payload"
COMMAND = "python bench/bench_payload.py"


@dataclass(frozen=True)
class Call:
    tool: str
    label: str
    arguments: dict[str, Any]


@dataclass
class Setting:
    """Calls that share a working directory and an environment (a corpus, a fake service)."""

    cwd: Path
    env: dict[str, str]
    calls: list[Call]


@dataclass
class Measured:
    call: Call
    json_tok: int
    sent_tok: int
    sent_as: str
    document: Any
    """The JSON payload's document (to time the encodings on)."""
    notes: list[str] = field(default_factory=list)

    @property
    def saved(self) -> float:
        return 1 - self.sent_tok / self.json_tok


# -- the inputs -----------------------------------------------------------------------------------


def php_setting() -> Setting:
    corpus = bench_grep.php_corpus()
    classes = [
        "Illuminate/Database/Connection.php",
        "Illuminate/Http/Request.php",
        "Symfony/Component/HttpFoundation/Request.php",
    ]
    return Setting(
        corpus,
        {},
        [
            Call("grep", "getConnection, Laravel + Symfony", {"patterns": ["getConnection"]}),
            Call(
                "grep",
                f"{len(bench_grep.PHP_QUERIES)} patterns at once",
                {"patterns": list(bench_grep.PHP_QUERIES)},
            ),
            Call("code", "3 PHP classes (summaries)", {"files": classes}),
        ],
    )


def changed_setting() -> Setting:
    repo = bench_changed.history("flask==2.2.5", "flask==3.0.3")
    return Setting(repo, {}, [Call("changed", "flask 2.2.5 → 3.0.3", {"range": "old..new"})])


def vue_setting() -> Setting:
    app = npm_package("vue-element-admin@3.9.3")
    files = [
        "src/components/Tinymce/index.vue",
        "src/views/layout/components/TagsView.vue",
        "src/router/index.js",
    ]
    return Setting(
        app,
        {},
        [
            Call("vue_routes", "vue-element-admin", {}),
            Call("code", "2 Vue components + a store module", {"files": files}),
        ],
    )


def cc_setting() -> Setting:
    projects, _, _ = bench_cc.corpus()
    return Setting(
        WORK,
        {"CC_PROJECTS_DIR": str(projects), "SOFIA_CACHE_DIR": str(WORK / "cc-cache")},
        [
            Call("cc_ls", "300 sessions, default limit", {}),
            Call("cc_show", "the newest session", {}),
            Call("cc_resume", "the newest session", {}),
            Call("cc_prompts", "the newest session", {}),
            Call("cc_bash", "the newest session", {}),
            Call("cc_candidates", "300 sessions", {}),
        ],
    )


@contextmanager
def composer_settings() -> Iterator[list[Setting]]:
    """The composer benchmark's nine packages: their manifests (`ls`, `show`), their replayed QA runs
    (`check`) and, pushed to origins and published on a fake Packagist, their release state."""
    listed = WORK / "packages"
    bench_composer.package_tree(listed)
    checked = WORK / "checks-qa"
    bench_composer.qa_tree(checked)
    released = WORK / "released"
    bench_composer.package_tree(released, with_origins=True)
    fake = FakePackagist().start()
    try:
        for index, (name, _, releases) in enumerate(bench_composer.PACKAGES):
            published = list(reversed(bench_composer.release_tags(releases - (index % 3 == 1))))
            fake.serve(f"acme/{name}", Reply(200, p2_document(f"acme/{name}", ["dev-main", *published])))
        yield [
            Setting(
                listed,
                {},
                [
                    Call("composer_ls", "9 packages", {}),
                    Call("composer_show", "one package", {"package": "acme/http-client"}),
                ],
            ),
            Setting(checked, {}, [Call("composer_check", "9 packages, 3 failing", {"jobs": 4})]),
            Setting(
                released, {"SOFIA_PACKAGIST_URL": fake.url}, [Call("packagist_status", "9 packages", {})]
            ),
        ]
    finally:
        fake.stop()


def github_setting() -> Setting:
    """The GitHub benchmark's recordings, all answered by one fake `gh`."""
    work = bench_github.WORK
    work.mkdir(parents=True, exist_ok=True)
    repo = work / "api"
    if not (repo / ".git").exists():
        repo.mkdir(exist_ok=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
    fake = FakeGh(work / "payload")
    fake.add(VIEWER, stdout="dev\n")
    fake.add(prs_query(), stdout_file="graphql_prs.json")
    fake.add(branches_query(), stdout_file="graphql_branches.json")
    record_api_repo(fake, repo)
    return Setting(
        work,
        bench_github.fake_env(fake),
        [
            Call("github_ci", "5 runs, 2 failed steps", {"root": str(repo)}),
            Call("github_pr", "five-PR fixture", {}),
            Call("github_branches", "branch fixture", {}),
        ],
    )


# -- measuring ------------------------------------------------------------------------------------


@asynccontextmanager
async def server(setting: Setting, payload: str) -> AsyncIterator[ClientSession]:
    """`sf mcp --payload PAYLOAD` over the setting's directory, every path allowed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **setting.env}
    env.pop("SOFIA_PAYLOAD", None)
    async with mcp_session(
        setting.cwd, "--workers", "1", "--root", "/", "--payload", payload, env=env
    ) as session:
        yield session


def text_of(result: Any, call: Call) -> str:
    if result.is_error:
        raise SystemExit(f"{call.tool} ({call.label}) failed: {result.content[0].text[:500]}")
    (block,) = result.content
    return str(block.text)


async def measure(setting: Setting) -> list[Measured]:
    """Every call of the setting on a JSON and a TOON server, started side by side."""
    measured = []
    async with server(setting, "json") as plain, server(setting, "toon") as toon:
        for call in setting.calls:
            reference = text_of(
                await plain.call_tool(call.tool, call.arguments, read_timeout_seconds=600), call
            )
            sent = text_of(await toon.call_tool(call.tool, call.arguments, read_timeout_seconds=600), call)
            document = json.loads(reference)
            sent_as = "JSON" if sent == reference else "TOON"
            omitted = document.get("omitted") if isinstance(document, dict) else None
            notes = [f"omitted {omitted}"] if omitted else []
            measured.append(Measured(call, estimate(reference), estimate(sent), sent_as, document, notes))
    return measured


def encoding_cost(largest: Measured) -> str:
    """What the TOON form costs the worker on the largest payload: compact JSON alone against JSON
    then TOON (the worker always encodes JSON first), timed side by side in process."""
    document = largest.document
    json_s = median_seconds(lambda: compact(document), repeat=21)
    toon_s = median_seconds(lambda: payload(compact(document)), repeat=21)
    return (
        f"Encoding in the worker, on the largest payload (`{largest.call.tool}`, {largest.call.label}, "
        f"{largest.json_tok:,} JSON tokens): compact JSON {json_s * 1000:.2f} ms, JSON then its TOON form "
        f"{toon_s * 1000:.1f} ms (median of 21 in process): TOON adds {(toon_s - json_s) * 1000:.1f} ms to "
        "such a call."
    )


def main() -> None:
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    results: list[Measured] = []
    with composer_settings() as composer:
        settings = [
            php_setting(),
            changed_setting(),
            vue_setting(),
            cc_setting(),
            *composer,
            github_setting(),
        ]
        for setting in settings:
            results += anyio.run(measure, setting)
    rows = [
        (
            f"`{m.call.tool}`" + (" (table)" if m.call.tool in TABULAR else ""),
            m.call.label,
            m.json_tok,
            m.sent_tok,
            f"{m.saved * 100:.0f} %",
            m.sent_as,
            "; ".join(m.notes),
        )
        for m in results
    ]
    by_tool: dict[str, list[float]] = {}
    for m in results:
        by_tool.setdefault(m.call.tool, []).append(m.saved)
    tabular = [statistics.median(by_tool[tool]) for tool in TABULAR]
    median = statistics.median(tabular)
    larger = [m for m in results if m.sent_tok > m.json_tok]
    body = table(("tool", "input", "JSON tok", "TOON payload tok", "saved", "sent as", "note"), rows)
    body += (
        f"\n\nMedian saving over the tabular tools ({', '.join(TABULAR)}): **{median * 100:.0f} %** "
        f"(target ≥ {TARGET * 100:.0f} %). Calls where the TOON server sent more tokens than JSON: "
        f"**{len(larger)}** (target 0)."
    )
    body += "\n\n" + encoding_cost(max(results, key=lambda m: m.json_tok))
    section("TOON payload", body, COMMAND)
    if larger:
        raise SystemExit(f"TOON payload larger than JSON: {[m.call.tool for m in larger]}")


if __name__ == "__main__":
    main()
