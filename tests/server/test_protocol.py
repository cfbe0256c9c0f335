"""The protocol surface over real pipes: the handshake, results and errors shaped as the MCP
specification says, progress, and a clean stdout whatever providers print."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from sofia import __version__
from tests.helpers import Repo
from tests.server.harness import Connection, command, connect, server_env, text

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Connection]:
    repo = Repo(tmp_path_factory.mktemp("protocol") / "repo")
    repo.write("README.md", "hello\n")
    repo.commit("init")
    async with connect(
        repo.path, "--workers", "2", "--log-level", "info", "--tools", "test,grep"
    ) as connection:
        yield connection


async def test_initialize_names_the_server_and_says_which_tool_answers_what(server: Connection) -> None:
    init = server.session.initialize_result
    assert init is not None
    assert init.server_info.name == "sofia"
    assert init.server_info.version == __version__
    assert init.server_info.title
    assert init.capabilities.tools is not None
    assert init.instructions is not None
    assert len(init.instructions.split()) <= 150
    assert "`grep`" in init.instructions
    assert "`code`" not in init.instructions  # not served here (--tools test,grep)


async def test_unknown_tool_is_a_protocol_error(server: Connection) -> None:
    with pytest.raises(MCPError) as caught:
        await server.call("no_such_tool", {})
    assert caught.value.code == types.INVALID_PARAMS
    assert "no_such_tool" in caught.value.message


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("grep", {"patterns": {"a": 1}, "max_per_pattern": "many"}, ["patterns: ", "max_per_pattern: "]),
        (
            "grep",
            {"patterns": ["x"], "max_per_pattern": True},
            ["max_per_pattern: a whole number, e.g. 30, not the boolean true"],
        ),
        ("grep", {"patterns": ["x"], "colour": True}, ["colour: unknown parameter (known: patterns, root"]),
        ("grep", {}, ["patterns: required"]),
        ("test_sleep", {"seconds": -1}, ["seconds: 0 or more, not -1"]),
    ],
    ids=["wrong-type", "boolean-for-number", "unknown-property", "missing-required", "constraint"],
)
async def test_invalid_arguments_get_one_short_line_per_problem(
    server: Connection, tool: str, arguments: dict[str, object], expected: list[str]
) -> None:
    result = await server.call(tool, arguments)
    assert result.is_error
    lines = text(result).splitlines()
    assert len(lines) == len(expected)
    for line, start in zip(lines, expected, strict=True):
        assert line.startswith(start), line
        assert len(line) < 200
    assert "pydantic" not in text(result) and "http" not in text(result)


async def test_a_scalar_for_a_list_and_a_number_for_a_string_are_accepted(server: Connection) -> None:
    result = await server.call("test_paths", {"files": "README.md", "label": 258})
    assert not result.is_error, text(result)
    echoed = json.loads(text(result))
    assert (echoed["files"], echoed["label"]) == (["README.md"], "258")


async def test_a_list_sent_as_a_json_string_is_accepted(server: Connection) -> None:
    result = await server.call("test_paths", {"files": '["README.md"]'})
    assert not result.is_error, text(result)
    assert '"files":["README.md"]' in text(result)


async def test_provider_error_gives_message_and_hint(server: Connection) -> None:
    result = await server.call("test_fail")
    assert result.is_error
    assert text(result) == "no such widget: gizmo (pass an existing widget)"


async def test_unexpected_exception_names_tool_and_type_with_traceback_on_stderr(server: Connection) -> None:
    result = await server.call("test_boom")
    assert result.is_error
    assert text(result) == "internal error in test_boom: RuntimeError: boom"
    assert 'raise RuntimeError("boom")' in server.log()


async def test_success_is_one_compact_json_text_block_without_structured_content(server: Connection) -> None:
    result = await server.call("test_echo", {"text": "héllo"})
    assert not result.is_error
    assert text(result) == '{"text":"héllo"}'
    assert result.structured_content is None


async def test_payload_over_the_budget_is_refused_with_its_size(server: Connection) -> None:
    result = await server.call("test_big", {"size": 2_000_000})
    assert result.is_error
    message = text(result)
    assert "test_big returned about 500,003 estimated tokens" in message
    assert "over the output budget of 20,000" in message and "narrow the call" in message


async def test_stdout_stays_clean_whatever_providers_print(server: Connection) -> None:
    for tool in ("test_print", "test_noisy"):
        result = await server.call(tool, {"marker": "stray"} if tool == "test_print" else {})
        assert not result.is_error, text(result)
    assert (await server.call("test_echo", {"text": "still fine"})).content
    assert server.faults == []
    log = server.log()
    for channel in ("print", "sys.__stdout__", "os.write", "a subprocess"):
        assert f"stray via {channel}" in log
    for channel in ("print", "os.write", "a subprocess"):
        assert f"noisy import via {channel}" in log


async def test_progress_reaches_the_client_when_it_sends_a_token(server: Connection) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    result = await server.call("test_progress", {"steps": 4}, progress_callback=on_progress)
    assert not result.is_error
    assert seen == [(float(i), 4.0, f"step {i}") for i in range(1, 5)]


async def test_a_flood_of_progress_reports_is_thinned_but_ends_with_the_last(server: Connection) -> None:
    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    result = await server.call("test_progress", {"steps": 500, "pause": 0}, progress_callback=on_progress)
    assert not result.is_error
    assert 1 <= len(seen) < 100
    assert seen[0] == 1.0 and seen[-1] == 500.0 and seen == sorted(seen)


async def test_ping_and_tools_list_are_answered_while_workers_are_busy(server: Connection) -> None:
    import anyio

    async with anyio.create_task_group() as group:
        for _ in range(2):
            group.start_soon(server.call, "test_sleep", {"seconds": 2})
        await anyio.sleep(0.3)
        with anyio.fail_after(1.5):
            await server.session.send_ping()
            assert (await server.session.list_tools()).tools


async def test_one_line_per_call_on_stderr_at_info(server: Connection) -> None:
    await server.call("test_echo", {"text": "logged"})
    lines = [line for line in server.log().splitlines() if " test_echo " in line and "call #" in line]
    assert lines and lines[-1].endswith(" ok")
    assert " ms " in lines[-1] and " B " in lines[-1]


async def test_modern_stateless_protocol_works_too(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "sofia", "mcp", "--workers", "1", "--tools", "test"],
        cwd=tmp_path,
        env=server_env(),
    )
    async with Client(params, mode="auto") as client:
        tools = await client.list_tools()
        assert "test_echo" in {tool.name for tool in tools.tools}
        result = await client.call_tool("test_echo", {"text": "modern"})
    assert not result.is_error
    assert text(result) == '{"text":"modern"}'


def test_doctor_selfcheck_round_trips_over_real_pipes() -> None:
    from sofia.server.selfcheck import roundtrip

    ok, detail = roundtrip(timeout=60)
    assert ok, detail
    assert (
        detail.startswith("initialize ") and " tools listed in " in detail and "changed answered in" in detail
    )


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18"])
def test_older_handshake_versions_are_served(tmp_path: Path, version: str) -> None:
    process = subprocess.Popen(
        command("--workers", "1", "--tools", "test"),
        cwd=tmp_path,
        env=server_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        for message in (
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "test_echo", "arguments": {"text": version}}},
        ):  # fmt: skip
            process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        initialized = json.loads(process.stdout.readline())
        called = json.loads(process.stdout.readline())
    finally:
        process.stdin.close()
        assert process.wait(timeout=30) == 0
    assert initialized["result"]["protocolVersion"] == version
    assert called["result"]["content"][0]["text"] == json.dumps({"text": version}, separators=(",", ":"))
