"""FIFOs, devices and sockets are refused wherever a caller names a path, before anything opens
them, and walks pass over those met inside a tree: nothing blocks until the deadline."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from sofia.errors import ProviderError
from sofia.providers.cc import prompts
from sofia.providers.changed import Params as ChangedParams
from sofia.providers.changed import run as changed
from sofia.providers.composer import ls
from sofia.providers.contract import Context
from sofia.providers.grep.engine import COUNTING
from sofia.providers.grep.provider import Params as GrepParams
from sofia.providers.grep.provider import run as grep_run
from sofia.providers.vue import Params as VueParams
from sofia.providers.vue import run as vue_routes
from sofia.runtime import files
from tests.code.conftest import code
from tests.composer.conftest import context
from tests.grep.conftest import grep, rows
from tests.helpers import Repo

pytestmark = pytest.mark.timeout(60)
"""A regression here is a call that blocks: let it fail instead of hanging the run."""

FIFO = "FIFO (named pipe)"
HINT = "sofia never reads FIFOs, devices or sockets, which can block or never end"


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.fixture
def unix_socket(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    yield path
    server.close()


def test_kinds(tmp_path: Path, fifo: Path, unix_socket: Path) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    assert [
        files.kind(tmp_path / name) for name in ("file", "link", ".", "pipe", "sock", "dangling", "nowhere")
    ] == [files.FILE, files.FILE, files.DIRECTORY, FIFO, "socket", files.MISSING, files.MISSING]
    assert files.kind("/dev/null") == "character device"
    assert files.kind(tmp_path / "a\0b") == files.MISSING


def test_reading_a_fifo_is_refused_without_blocking(fifo: Path) -> None:
    with pytest.raises(files.NotRegular) as caught:
        files.read_regular(fifo)
    assert caught.value.kind == FIFO
    with pytest.raises(files.NotRegular):
        files.read_regular("/dev/zero")


def test_reading_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"abc\n")
    assert files.read_regular(tmp_path / "a.txt") == b"abc\n"


@pytest.mark.parametrize(
    ("root", "kind"),
    [("pipe", FIFO), ("/dev/zero", "character device"), ("/dev/urandom", "character device"),
     ("sock", "socket")],
)  # fmt: skip
def test_grep_refuses_a_special_root(
    tmp_path: Path, fifo: Path, unix_socket: Path, root: str, kind: str | None
) -> None:
    with pytest.raises(ProviderError) as error:
        grep(tmp_path, "NEEDLE", root=root)
    found = kind or files.kind(root)
    assert found not in (files.FILE, files.DIRECTORY)
    assert error.value.message == f"root is a {found}, not a regular file or directory: {root}"
    assert error.value.hint == f"pass a regular file or directory; {HINT}"


def test_grep_never_hands_rg_a_per_process_path(tmp_path: Path) -> None:
    """`/dev/stdout` is this process's output (a file under pytest, a pipe under the CLI or the
    server) but rg's own output in rg: it must search what the name means here, or refuse."""
    try:
        result = grep(tmp_path, "NEEDLE-NOT-THERE", root="/dev/stdout")
    except ProviderError as error:
        assert error.message.startswith(
            ("root is a ", "root names a different thing in every process: /dev/stdout")
        ), error.message
    else:
        assert result["empty"] == ["NEEDLE-NOT-THERE"]
    with pytest.raises(ProviderError) as refused:
        grep(tmp_path, "NEEDLE", root="/proc/self/fd/0")  # this process's stdin: /dev/null here
    assert refused.value.message in (
        "root is a character device, not a regular file or directory: /proc/self/fd/0",
        "root names a different thing in every process: /proc/self/fd/0",
    )


def test_special_files_inside_a_tree_are_passed_over(tmp_path: Path, fifo: Path, unix_socket: Path) -> None:
    (tmp_path / "a.txt").write_text("NEEDLE\n")
    (tmp_path / "zero").symlink_to("/dev/zero")
    if os.geteuid() == 0:
        os.mknod(tmp_path / "null", 0o644 | 0o020000, os.makedev(1, 3))
    result = grep(tmp_path, "NEEDLE", budget=None)
    assert [(h["file"], h["line"]) for h in rows(result["patterns"][0])] == [("a.txt", 1)]
    assert "skipped" not in result
    (tmp_path / "a.py").write_text("def a():\n    return 1\n")
    assert [doc["path"] for doc in code(tmp_path, ".", budget=None)["files"]] == ["a.py"]


def test_grep_skips_a_file_turned_into_a_fifo_after_counting(tmp_path: Path) -> None:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("NEEDLE\n")

    def swap(done: int, total: int | None, message: str) -> None:
        if message == COUNTING and done == total and not (tmp_path / "b.txt").is_fifo():
            (tmp_path / "b.txt").unlink()
            os.mkfifo(tmp_path / "b.txt")

    result = grep_run(GrepParams(patterns=["NEEDLE"]), Context(root=tmp_path, progress=swap))
    assert [h["file"] for h in rows(result["patterns"][0])] == ["a.txt"]
    assert result["skipped"] == [{"path": "b.txt", "reason": f"not a regular file ({FIFO})"}]


def test_code_refuses_a_fifo_to_slice_and_skips_one_among_files(tmp_path: Path, fifo: Path) -> None:
    with pytest.raises(ProviderError) as error:
        code(tmp_path, "pipe", symbols=["main"])
    assert error.value.message == "file is a FIFO (named pipe), not a regular file: pipe"
    (doc,) = code(tmp_path, "pipe")["files"]
    assert (doc["mode"], doc["reason"]) == ("skipped", "unreadable: not a regular file")


def test_vue_refuses_a_special_router_file_or_root(tmp_path: Path, fifo: Path) -> None:
    with pytest.raises(ProviderError) as error:
        vue_routes(VueParams(file="pipe"), Context(root=tmp_path))
    assert error.value.message == "router file is a FIFO (named pipe), not a regular file: pipe"
    with pytest.raises(ProviderError) as error:
        vue_routes(VueParams(root="/dev/null"), Context(root=tmp_path))
    assert error.value.message == "root is a character device, not a directory: /dev/null"


def test_vue_does_not_read_an_import_that_is_a_fifo(tmp_path: Path) -> None:
    (tmp_path / "src" / "router").mkdir(parents=True)
    os.mkfifo(tmp_path / "src" / "router" / "extra.ts")
    (tmp_path / "src" / "router" / "index.ts").write_text(
        "import extra from './extra'\nexport default [{ path: '/', name: 'home' }, ...extra]\n"
    )
    result = vue_routes(VueParams(), Context(root=tmp_path))
    assert [r["path"] for r in result["routes"]] == ["/"]
    (note,) = result["notes"]  # not followed, and never opened
    assert "not followed" in note and "src/router/index.ts:2 extra" in note


def test_composer_refuses_a_fifo_manifest_as_root(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "composer.json")
    with pytest.raises(ProviderError) as error:
        ls.run(ls.Params(root="composer.json"), context(tmp_path))
    assert (
        error.value.message == "root is a FIFO (named pipe), not a regular file or directory: composer.json"
    )
    assert ls.run(ls.Params(), context(tmp_path))["packages"] == []  # a walk never opens it


def test_cc_refuses_a_fifo_session_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "s.jsonl")
    with pytest.raises(ProviderError) as error:
        prompts.run(prompts.Params(session="s.jsonl"), Context(root=tmp_path))
    assert error.value.message == "session file is a FIFO (named pipe), not a regular file: s.jsonl"


def test_changed_leaves_fifos_to_git(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("a.py", "x = 1\n")
    repo.write("b.py", "y = 1\n")
    repo.commit()
    os.mkfifo(repo.path / "untracked.pipe")
    result = changed(ChangedParams(paths=["untracked.pipe"]), Context(root=repo.path))
    assert result["files"] == []  # git lists no FIFO as untracked, so nothing opens it
    (repo.path / "b.py").unlink()
    os.mkfifo(repo.path / "b.py")
    listed = changed(ChangedParams(), Context(root=repo.path))  # git cannot read it as a file: named
    assert [row["path"] for row in listed["files"]] == ["b.py"]
    assert any("b.py" in note and "not followed" in note for note in listed["notes"])
