"""Reading a client's root URIs as local directories, and which calls a whole-disk workspace refuses."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import pytest
from pydantic import Field

from sofia.providers.params import Input, PathParam
from sofia.server.rooturi import local_path, read
from sofia.server.scope import Scope


def test_percent_escapes_are_bytes_of_the_name_even_when_they_are_not_utf8(tmp_path: Path) -> None:
    spaced = tmp_path / "my app é"
    spaced.mkdir()
    latin1 = os.fsdecode(bytes(tmp_path) + b"/caf\xe9")
    os.mkdir(latin1)
    base = "file://" + str(tmp_path)
    assert local_path(base + "/my%20app%20%C3%A9") == spaced.resolve()
    assert local_path(base + "/caf%E9") == Path(latin1).resolve()
    assert local_path("file://localhost" + str(tmp_path) + "/my%20app%20%C3%A9") == spaced.resolve()
    assert local_path(spaced.as_uri()) == spaced.resolve()


def test_a_root_is_resolved_like_a_confined_path(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert local_path((tmp_path / "link").as_uri()) == (tmp_path / "real").resolve()


@pytest.mark.parametrize(
    ("uri", "reason"),
    [
        ("https://example.com/repo", "a https: URI, not file://; only local directories can be served"),
        ("vscode-remote://ssh-remote+box/home/me/app", "a vscode-remote: URI, not file://"),
        ("/home/me/app", "not a URI, not file://"),
        ("file://build-host/srv/app", "on host 'build-host', not this machine"),
        ("file:relative/app", "not an absolute path"),
        ("file:///no/such/place", "/no/such/place does not exist"),
        ("file:///a%00b", "holds a NUL byte"),
    ],
)
def test_a_root_that_cannot_be_served_says_why(uri: str, reason: str) -> None:
    got = local_path(uri)
    assert isinstance(got, str) and got.startswith(reason), got


def test_roots_keep_the_clients_order_once_each_and_name_the_ones_set_aside(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    roots = read([b.as_uri(), "https://x.test/", a.as_uri(), b.as_uri() + "/"])
    assert roots.paths == (b.resolve(), a.resolve())
    assert roots.unusable == (
        "'https://x.test/': a https: URI, not file://; only local directories can be served",
    )


class Walk(Input):
    root: Annotated[str, Field(description="a directory"), PathParam()] = "."
    files: Annotated[list[str], Field(default_factory=list, description="globs"), PathParam(glob=True)]


def test_only_a_workspace_nobody_chose_that_spans_a_home_or_more_refuses_a_walk_of_all_of_it(
    tmp_path: Path,
) -> None:
    home = tmp_path / "homes" / "me"
    (home / "app").mkdir(parents=True)
    homes = home.parent

    def refusal(workspace: Path, given: bool = False, **values: object) -> str | None:
        roots = () if workspace == Path("/") else (workspace,)
        return Scope.started(roots, given, workspace).wide_refusal(Walk.model_validate(values), home)

    assert "(the home directory)" in (refusal(home) or "")
    assert "(a directory above the home directory)" in (refusal(homes) or "")
    assert "(the file system root)" in (refusal(Path("/")) or "")
    assert "files='*.py' would walk all of" in (refusal(home, root="app", files=["*.py"]) or "")
    assert refusal(home, root="app") is None
    assert refusal(Path("/"), root=str(home / "app")) is None
    assert refusal(home / "app") is None
    assert refusal(home, given=True) is None
