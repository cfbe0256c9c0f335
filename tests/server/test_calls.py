"""Every registered tool, called over MCP on real fixtures, in both payload formats: one compact JSON
object per call, or with `--payload toon` its TOON form (decoding to that very object) unless that
would cost more tokens; `code` slices are source text in both. Each tool's row is in its test
folder's `served.py` (tests/served.py); a tool without one fails."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import toon_format

from sofia.output.shape import mismatches
from sofia.output.tokens import estimate
from sofia.providers.registry import by_name
from sofia.providers.shapes import shape_of
from tests.cc.transcripts import write_ab
from tests.composer.workspace import build_workspace
from tests.github.fakegh import FakeGh
from tests.github.helpers import VIEWER, branches_query, github_repo, prs_query, record_api_repo
from tests.helpers import Repo
from tests.packagist.server import FakePackagist
from tests.served import Row, rows
from tests.server.harness import TABULAR, Connection, connect, server_env, text
from tests.server.snapshot import registered

pytestmark = pytest.mark.anyio

WIDGET = """<?php
namespace App\\Models;

final class Widget
{
    public function __construct(private string $label) {}

    public function label(): string
    {
        return $this->label;
    }
}
"""
ROUTER = """import { createRouter, createWebHistory } from 'vue-router'

export default createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/', name: 'home', component: () => import('../views/Home.vue') },
    { path: '/widgets/:id', name: 'widget', component: () => import('../views/Widget.vue') },
  ],
})
"""


ROWS = rows()
SLICE = Row(
    {"files": ["app/src/Models/Widget.php"], "symbols": ["Widget::caption"]},
    (),
    lambda p: "return $this->caption;" in p,
)


@dataclass(frozen=True)
class World:
    workspace: Path
    env: dict[str, str]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One workspace holding what every tool reads, with the fakes the remote tools talk to."""
    base = tmp_path_factory.mktemp("calls")
    workspace = base / "workspace"
    workspace.mkdir()
    app = Repo(workspace / "app")
    app.write("src/Models/Widget.php", WIDGET)
    app.write("resources/js/router/index.ts", ROUTER)
    app.commit("Widget and router")
    app.write("src/Models/Widget.php", WIDGET.replace("label", "caption"))
    build_workspace(workspace / "php")
    projects = base / "claude-projects"
    write_ab(projects)
    gh = FakeGh(base / "fake-gh")
    record_api_repo(gh, github_repo(workspace / "api").path)
    gh.add(VIEWER, stdout="dev\n")
    gh.add(prs_query(), stdout_file="graphql_prs.json")
    gh.add(branches_query(), stdout_file="graphql_branches.json")
    packagist = FakePackagist().start()
    packagist.publish("acme/array-reader", "dev-main", "v1.1.0", "v1.0.0")
    env = server_env(
        test_providers=False,
        CC_PROJECTS_DIR=str(projects),
        SOFIA_PACKAGIST_URL=packagist.url,
        SOFIA_PACKAGIST_API_URL=packagist.url,
        **gh.env(),
    )
    try:
        yield World(workspace, env)
    finally:
        packagist.stop()


@pytest.fixture(scope="module")
async def everything(world: World) -> AsyncIterator[Connection]:
    """A server over the world with the default payload, JSON."""
    async with connect(world.workspace, "--workers", "2", env=world.env) as connection:
        yield connection


@pytest.fixture(scope="module")
async def toon(world: World) -> AsyncIterator[Connection]:
    """A server over the same world sending TOON payloads (chosen through the environment)."""
    env = {**world.env, "SOFIA_PAYLOAD": "toon"}
    async with connect(world.workspace, "--workers", "2", env=env) as connection:
        yield connection


def test_every_registered_tool_has_a_row() -> None:
    assert [p.name for p in registered() if p.name not in ROWS] == []


@pytest.mark.parametrize("tool", list(ROWS))
async def test_tool_returns_one_compact_json_object(everything: Connection, tool: str) -> None:
    if tool not in {p.name for p in registered()}:
        pytest.fail(f"{tool} has a row but is not registered: drop the row")
    row = ROWS[tool]
    result = await everything.call(tool, row.arguments)
    payload = text(result)
    assert not result.is_error, payload
    decoded = json.loads(payload)
    assert isinstance(decoded, dict)
    assert payload == json.dumps(decoded, separators=(",", ":"), ensure_ascii=False)
    assert set(row.keys) <= set(decoded), list(decoded)
    assert row.check(payload), payload[:500]


@pytest.mark.parametrize("tool", list(ROWS))
async def test_tool_answers_in_the_shape_its_reference_page_documents(
    everything: Connection, tool: str
) -> None:
    """Keys, types and nesting as declared in `sofia/providers/shapes/` (docs/reference prints it)."""
    declared = shape_of(tool)
    assert declared is not None, f"{tool} declares no answer shape in sofia/providers/shapes/"
    result = await everything.call(tool, fresh(tool, ROWS[tool].arguments))
    assert not result.is_error, text(result)
    assert list(mismatches(json.loads(text(result)), declared)) == []


async def test_code_slices_are_source_text(everything: Connection) -> None:
    result = await everything.call("code", SLICE.arguments)
    payload = text(result)
    assert not result.is_error, payload
    assert SLICE.check(payload)
    assert payload.startswith("// --- ")


def fresh(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """`arguments` bypassing the repeat-call stub (the other tests make the same calls)."""
    provider = by_name(tool)
    assert provider is not None
    return {**arguments, provider.dedup_bypass: True} if provider.dedup_bypass else arguments


def untimed(value: Any) -> Any:
    """`value` without its wall-clock timings (`wall_ms`, `duration_ms`): two runs of one call
    differ only in those."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if not k.endswith("_ms")}
    if isinstance(value, list):
        return [untimed(item) for item in value]
    return value


def as_json(document: Any) -> str:
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("tool", list(ROWS))
async def test_tool_over_a_toon_payload_decodes_to_its_json_document(
    everything: Connection, toon: Connection, tool: str
) -> None:
    row = ROWS[tool]
    arguments = fresh(tool, row.arguments)
    reference = text(await everything.call(tool, arguments))
    document = json.loads(reference)
    result = await toon.call(tool, arguments)
    payload = text(result)
    assert not result.is_error, payload
    if estimate(toon_format.dumps(document)) > estimate(reference):
        assert tool not in TABULAR
        assert payload == reference  # TOON would cost more: the call falls back to JSON
    else:
        assert not payload.startswith("{"), payload[:200]
        decoded = toon_format.loads(payload)
        assert untimed(decoded) == untimed(document)
        assert estimate(payload) <= estimate(reference)
        assert payload == toon_format.dumps(decoded)  # the generic encoding, nothing added
    assert row.check(as_json(document)), payload[:500]


async def test_code_slices_are_the_same_source_text_in_both_formats(
    everything: Connection, toon: Connection
) -> None:
    arguments = fresh("code", SLICE.arguments)
    reference = text(await everything.call("code", arguments))
    result = await toon.call("code", arguments)
    assert not result.is_error and text(result) == reference
