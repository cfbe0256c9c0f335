"""`tools/list`: exactly the registered tools, honest annotations, flat schemas, a small footprint,
and a reviewed snapshot of everything the agent sees."""

from __future__ import annotations

import json
import subprocess
from collections.abc import AsyncIterator
from typing import Any

import pytest

from sofia.output.tokens import estimate
from sofia.providers.registry import LOCAL, PROVIDERS, REMOTE, RUNS_PROJECT_CODE
from tests.helpers import Repo
from tests.server.harness import Connection, command, connect, server_env
from tests.server.snapshot import SNAPSHOT, current, registered, render

pytestmark = pytest.mark.anyio

HONEST = (LOCAL, REMOTE, RUNS_PROJECT_CODE)
"""What a served tool may do: read the workspace, read a remote service, or run the project's own
code. The reviewed contract of which tool does which is the snapshot (`tools.snapshot.json`)."""
MAX_LIST_TOKENS = 6000
"""The whole `tools/list`, paid in every agent turn. The records' `list_tokens` ceilings share it,
so a new tool's cost is written in its record, and the room left is the budget less their sum."""


@pytest.fixture(scope="module")
async def listed(
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[tuple[Connection, list[dict[str, Any]]]]:
    repo = Repo(tmp_path_factory.mktemp("tools") / "repo")
    async with connect(repo.path, "--workers", "1", env=server_env(test_providers=False)) as connection:
        result = await connection.session.list_tools()
        tools = [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in result.tools]
        yield connection, tools


def _walk(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        return [node, *(n for value in node.values() for n in _walk(value))]
    if isinstance(node, list):
        return [n for item in node for n in _walk(item)]
    return []


async def test_exactly_the_registered_mcp_tools_in_registry_order(
    listed: tuple[Connection, list[Any]],
) -> None:
    _, tools = listed
    names = [tool["name"] for tool in tools]
    assert names == [p.name for p in registered()]
    cli_only = {p.name for p in PROVIDERS if not p.mcp}
    assert cli_only and not cli_only & set(names)
    assert all(not p.mcp for p in PROVIDERS if p.annotations.destructive), (
        "a tool that changes the world is served"
    )


async def test_annotations_are_honest(listed: tuple[Connection, list[Any]]) -> None:
    _, tools = listed
    records = {p.name: p for p in registered()}
    for tool in tools:
        expected = records[tool["name"]].annotations
        assert expected in HONEST, tool["name"]
        assert tool["annotations"] == {
            "readOnlyHint": expected.read_only,
            "destructiveHint": expected.destructive,
            "idempotentHint": expected.idempotent,
            "openWorldHint": expected.open_world,
        }, tool["name"]


async def test_schemas_are_flat_described_and_show_their_defaults(
    listed: tuple[Connection, list[Any]],
) -> None:
    _, tools = listed
    for tool in tools:
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and schema["additionalProperties"] is False, tool["name"]
        for node in _walk(schema):
            assert not {"title", "$ref", "$defs", "anyOf"} & set(node), (tool["name"], node)
        required = set(schema.get("required", []))
        model = {p.name: p for p in registered()}[tool["name"]].params
        for prop, spec in schema["properties"].items():
            assert spec.get("description"), (tool["name"], prop)
            assert isinstance(spec["type"], str), (tool["name"], prop)  # one type: every client dialect
            # A default is shown unless it is "not given" (None): leaving the field out means that.
            unset = model.model_fields[prop].default is None
            assert prop in required or "default" in spec or unset, (tool["name"], prop)


async def test_the_whole_list_stays_under_its_token_budget(listed: tuple[Connection, list[Any]]) -> None:
    _, tools = listed
    wire = json.dumps({"tools": tools}, separators=(",", ":"), ensure_ascii=False)
    costs = {
        tool["name"]: estimate(json.dumps(tool, separators=(",", ":"), ensure_ascii=False)) for tool in tools
    }
    assert estimate(wire) < MAX_LIST_TOKENS, f"tools/list costs {estimate(wire)} tokens: {costs}"
    ceilings = {p.name: p.list_tokens for p in registered()}
    over = {name: (cost, ceilings[name]) for name, cost in costs.items() if cost > ceilings[name]}
    assert over == {}, "(cost, the record's list_tokens) of each tool over its ceiling"
    assert sum(ceilings.values()) <= MAX_LIST_TOKENS, (
        f"the records' list_tokens add up to {sum(ceilings.values())}, over the list's {MAX_LIST_TOKENS}"
    )


async def test_what_the_agent_sees_matches_the_reviewed_snapshot(
    listed: tuple[Connection, list[Any]],
) -> None:
    _, tools = listed
    built = current()
    assert [dict(tool) for tool in tools] == list(built.values())
    snapshot = json.loads(SNAPSHOT.read_text()) if SNAPSHOT.exists() else {}
    assert render(snapshot) == render(built), (
        "a tool definition changed (or a tool was added or removed): review the difference, then "
        "regenerate the snapshot with `python -m tests.server.snapshot`"
    )


async def test_instructions_point_at_the_tools_served(listed: tuple[Connection, list[Any]]) -> None:
    connection, _ = listed
    init = connection.session.initialize_result
    assert init is not None and init.instructions
    assert len(init.instructions.split()) <= 150
    assert "`code`" in init.instructions and "one call" in init.instructions


async def test_tools_option_serves_only_the_named_tools_and_groups(repo: Repo) -> None:
    env = server_env(test_providers=False)
    async with connect(repo.path, "--tools", "grep,cc", env=env) as connection:
        names = [tool.name for tool in (await connection.session.list_tools()).tools]
        init = connection.session.initialize_result
    assert names == [p.name for p in registered() if p.name == "grep" or p.cli[0] == "cc"]
    assert init is not None and init.instructions and "`code`" not in init.instructions


def test_unknown_tool_in_tools_option_is_a_usage_error(repo: Repo) -> None:
    done = subprocess.run(
        command("--tools", "grep,nonsense"),
        cwd=repo.path,
        env=server_env(test_providers=False),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "unknown nonsense" in done.stderr and "groups: " in done.stderr
    assert done.stdout == ""
