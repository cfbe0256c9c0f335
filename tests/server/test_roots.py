"""The client's own workspace: MCP roots asked for, followed when they change, and no walk of a
whole disk nobody chose — against the real server, with the SDK's own client over real pipes."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.client.session import ClientRequestContext

from tests.server.harness import command, server_env, text

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.filterwarnings("ignore:The roots capability is deprecated"),
    # Roots built with model_construct (any URI, as editors send them) serialise with a warning.
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning"),
]

TOOLS = ("--workers", "1", "--tools", "test,grep,code")


@dataclass
class Editor:
    """A client the way an editor is one: it names its open folders as roots and says when they change."""

    session: ClientSession
    stderr: Path
    roots: list[str]
    asked: int = 0
    answered: anyio.Event = field(default_factory=anyio.Event)
    """Set after each answer to `roots/list` (replaced by `change`)."""

    async def call(self, tool: str, arguments: dict[str, Any] | None = None) -> types.CallToolResult:
        return await self.session.call_tool(tool, arguments or {}, read_timeout_seconds=60)

    async def where(self, **arguments: Any) -> dict[str, Any]:
        result = await self.call("test_where", arguments)
        assert not result.is_error, text(result)
        answer: dict[str, Any] = json.loads(text(result))
        return answer

    async def change(self, roots: list[str]) -> None:
        """Open other folders: say so, and wait until the server has asked for them again."""
        self.roots = roots
        self.answered = anyio.Event()
        await self.session.send_roots_list_changed()
        with anyio.fail_after(30):
            await self.answered.wait()

    def log(self) -> str:
        return self.stderr.read_text(errors="replace")


Answer = Callable[[Editor], Any]


@asynccontextmanager
async def editor(
    cwd: Path,
    roots: list[str] | None,
    *args: str,
    home: Path | None = None,
    before_answer: Answer | None = None,
    log: Path,
) -> AsyncIterator[Editor]:
    """`sf mcp ARGS` started in `cwd` by a client naming `roots` (None: a client without roots)."""
    env = server_env(SOFIA_TEST_PROVIDERS="tests.server.where")
    if home is not None:
        env["HOME"] = str(home)
    params = StdioServerParameters(command=sys.executable, args=command(*TOOLS, *args)[1:], cwd=cwd, env=env)
    holder: list[Editor] = []

    async def list_roots(context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
        client = holder[0]
        client.asked += 1
        if before_answer is not None:
            refusal = await before_answer(client)
            if isinstance(refusal, types.ErrorData):
                return refusal
        # model_construct: an editor may name roots the SDK's own model refuses (not file://).
        named: list[Any] = list(client.roots)
        answer = types.ListRootsResult(roots=[types.Root.model_construct(uri=uri) for uri in named])
        client.answered.set()
        return answer

    with log.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(
                read, write, list_roots_callback=list_roots if roots is not None else None
            ) as session,
        ):
            holder.append(Editor(session, log, list(roots or [])))
            await session.initialize()
            yield holder[0]


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    """Two projects an editor has open, each with a file holding the same word, and a third place."""
    made = {}
    for name in ("alpha", "beta", "elsewhere"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{name}.py").write_text(f"needle = '{name}'\n")
        made[name] = folder.resolve()
    return made


def hit_paths(result: types.CallToolResult) -> list[str]:
    assert not result.is_error, text(result)
    return sorted(path for pattern in json.loads(text(result))["patterns"] for path in pattern["hits"])


async def test_started_in_the_root_the_first_client_root_is_the_workspace_and_all_are_allowed(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    alpha, beta = folders["alpha"], folders["beta"]
    async with editor(Path("/"), [alpha.as_uri(), beta.as_uri()], log=tmp_path / "log") as client:
        where = await client.where()
        found = await client.call("grep", {"patterns": ["needle"]})
        in_beta = await client.call("grep", {"patterns": ["needle"], "root": str(beta)})
        outside = await client.call("grep", {"patterns": ["needle"], "root": str(folders["elsewhere"])})
    assert (where["root"], where["allowed"], where["cwd"]) == (
        str(alpha),
        [str(alpha), str(beta)],
        str(alpha),
    )
    assert hit_paths(found) == ["alpha.py"]
    assert hit_paths(in_beta) == ["../beta/beta.py"]
    assert outside.is_error and "outside the allowed roots" in text(outside)
    assert client.asked == 1


async def test_roots_that_change_are_followed_and_none_left_means_the_working_directory(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    alpha, beta, elsewhere = folders["alpha"], folders["beta"], folders["elsewhere"]
    async with editor(elsewhere, [alpha.as_uri()], log=tmp_path / "log") as client:
        first = await client.where()
        await client.change([beta.as_uri()])
        second = await client.where()
        moved = await client.call("grep", {"patterns": ["needle"]})
        await client.change([])
        third = await client.where()
    assert (first["root"], first["allowed"]) == (str(alpha), [str(alpha)])
    assert (second["root"], second["allowed"], second["cwd"]) == (str(beta), [str(beta)], str(beta))
    assert hit_paths(moved) == ["beta.py"]
    assert (third["root"], third["allowed"]) == (str(elsewhere), [str(elsewhere)])


async def test_root_uris_are_decoded_and_those_that_cannot_be_served_are_set_aside_on_stderr(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    spaced = tmp_path / "my project é"
    spaced.mkdir()
    roots = [
        "https://example.com/repo",
        "vscode-vfs://github/owner/repo",
        "file://build-host/srv/repo",
        (tmp_path / "gone").as_uri(),
        "file://" + str(tmp_path).replace(" ", "%20") + "/my%20project%20%C3%A9",
        folders["beta"].as_uri(),
    ]
    async with editor(folders["elsewhere"], roots, log=tmp_path / "log") as client:
        where = await client.where()
        log = client.log()
    assert (where["root"], where["allowed"]) == (
        str(spaced.resolve()),
        [str(spaced.resolve()), str(folders["beta"])],
    )
    for uri, reason in [
        ("https://example.com/repo", "a https: URI, not file://"),
        ("vscode-vfs://github/owner/repo", "a vscode-vfs: URI, not file://"),
        ("file://build-host/srv/repo", "on host 'build-host', not this machine"),
        ((tmp_path / "gone").as_uri(), f"{tmp_path / 'gone'} does not exist"),
    ]:
        assert f"a root the client named is not used: {uri!r}: {reason}" in log


async def test_root_given_on_the_command_line_wins_and_the_client_is_not_asked(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    alpha, beta, elsewhere = folders["alpha"], folders["beta"], folders["elsewhere"]
    async with editor(elsewhere, [alpha.as_uri()], "--root", str(beta), log=tmp_path / "log") as client:
        before = await client.call("test_where", {"root": str(beta)})
        client.roots = [alpha.as_uri(), elsewhere.as_uri()]
        await client.session.send_roots_list_changed()
        after = await client.call("test_where", {"root": str(beta)})
    for result in (before, after):
        where = json.loads(text(result))
        assert (where["root"], where["allowed"]) == (str(beta), [str(beta)])  # started outside it
    assert client.asked == 0


async def test_started_outside_its_root_the_first_root_is_the_workspace(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    """What `sf init` writes for clients that start servers in `/` or the home directory."""
    alpha, beta = folders["alpha"], folders["beta"]
    async with editor(
        Path("/"), None, "--root", str(alpha), "--root", str(beta), log=tmp_path / "log"
    ) as client:
        walk = await client.call("grep", {"patterns": ["needle"]})
    assert hit_paths(walk) == ["alpha.py"]


async def test_started_inside_one_of_its_roots_the_working_directory_stays_the_workspace(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    alpha, beta = folders["alpha"], folders["beta"]
    async with editor(beta, None, "--root", str(alpha), "--root", str(beta), log=tmp_path / "log") as client:
        where = json.loads(text(await client.call("test_where", {"root": "."})))
    assert where["root"] == str(beta)


async def test_a_call_that_comes_before_the_roots_waits_for_them(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    release = anyio.Event()

    async def slowly(client: Editor) -> None:
        await release.wait()

    alpha = folders["alpha"]
    async with editor(
        folders["elsewhere"], [alpha.as_uri()], before_answer=slowly, log=tmp_path / "log"
    ) as client:
        got: list[dict[str, Any]] = []

        async def call() -> None:
            got.append(await client.where())

        async with anyio.create_task_group() as group:
            group.start_soon(call)
            with anyio.fail_after(30):
                while client.asked == 0:  # the question is in flight, and the call sent
                    await anyio.sleep(0.05)
            await anyio.sleep(0.3)
            release.set()
    assert got[0]["root"] == str(alpha)


async def test_a_client_that_never_lists_its_roots_does_not_hold_calls(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    async def never(client: Editor) -> None:
        await anyio.sleep_forever()

    elsewhere = folders["elsewhere"]
    async with editor(
        elsewhere, [folders["alpha"].as_uri()], before_answer=never, log=tmp_path / "log"
    ) as client:
        first = await client.where()
        second = await client.where()
        log = client.log()
    assert first["root"] == second["root"] == str(elsewhere)
    assert "no answer to roots/list within 5 s; the call uses" in log


def refusal_of(result: types.CallToolResult) -> str:
    assert result.is_error, text(result)
    message = text(result)
    assert "add --root /path/to/project to sofia's args in the client's MCP entry" in message
    assert "run sf init in the project" in message
    return message


async def test_a_client_without_roots_started_in_the_root_walks_nothing(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    alpha = folders["alpha"]
    async with editor(Path("/"), None, "--log-level", "info", home=home, log=tmp_path / "log") as client:
        walk = await client.call("grep", {"patterns": ["needle"]})
        glob = await client.call("code", {"files": ["**/*.py"]})
        above = await client.call("test_where", {"root": "/"})
        named = await client.call("code", {"files": [str(alpha / "alpha.py")]})
        below = await client.call("grep", {"patterns": ["needle"], "root": str(alpha)})
        log = client.log()
    message = refusal_of(walk)
    assert message.startswith(
        "root='.' would walk all of / (the file system root): the server was started there"
    )
    assert "with no --root and the client named no roots" in message
    assert refusal_of(glob).startswith("files='**/*.py' would walk all of /")
    assert refusal_of(above).startswith("root='/' would walk all of /")
    assert not named.is_error, text(named)
    assert hit_paths(below) == [str(alpha / "alpha.py").lstrip("/")]
    assert log.count(" refused\n") == 3, log


async def test_a_client_without_roots_started_in_home_walks_nothing(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    (home / "project").mkdir(parents=True)
    (home / "project" / "main.py").write_text("needle = 1\n")
    (home / "notes.txt").write_text("needle\n")
    async with editor(home, None, home=home, log=tmp_path / "log") as client:
        walk = await client.call("grep", {"patterns": ["needle"]})
        inside = await client.call("grep", {"patterns": ["needle"], "root": "project"})
    message = refusal_of(walk)
    assert message.startswith(f"root='.' would walk all of {home.resolve()} (the home directory)")
    assert hit_paths(inside) == ["project/main.py"]


async def test_a_client_whose_roots_cannot_be_used_started_in_home_is_told_why(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    async with editor(home, ["vscode-vfs://github/owner/repo"], home=home, log=tmp_path / "log") as client:
        walk = await client.call("grep", {"patterns": ["needle"]})
    message = refusal_of(walk)
    assert (
        "none of the client's roots can be used ('vscode-vfs://github/owner/repo': a vscode-vfs: URI"
        in message
    )


async def test_a_client_that_refuses_roots_list_started_in_home_is_told_why(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()

    async def refuse(client: Editor) -> types.ErrorData:
        return types.ErrorData(code=types.METHOD_NOT_FOUND, message="no roots today")

    async with editor(home, [], home=home, before_answer=refuse, log=tmp_path / "log") as client:
        walk = await client.call("grep", {"patterns": ["needle"]})
        log = client.log()
    assert "roots/list failed: MCPError:" in refusal_of(walk)
    assert "the client did not list its roots (MCPError:" in log


async def test_a_client_on_the_stateless_protocol_keeps_the_working_directory(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    asked: list[int] = []

    async def list_roots(context: ClientRequestContext) -> types.ListRootsResult:
        asked.append(1)
        return types.ListRootsResult(roots=[types.Root.model_validate({"uri": folders["alpha"].as_uri()})])

    elsewhere = folders["elsewhere"]
    params = StdioServerParameters(
        command=sys.executable,
        args=command(*TOOLS)[1:],
        cwd=elsewhere,
        env=server_env(SOFIA_TEST_PROVIDERS="tests.server.where"),
    )
    async with Client(params, mode="auto", list_roots_callback=list_roots) as client:
        result = await client.call_tool("test_where", {})
    assert json.loads(text(result))["root"] == str(elsewhere)
    assert asked == []
