"""Shared plumbing: safe subprocesses (timeouts kill the whole tree) and ripgrep's walk rules."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sofia.providers.contract import ProviderError
from sofia.runtime import git, proc, rg


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")


def test_a_timeout_kills_the_program_and_its_children(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    started = time.monotonic()
    with pytest.raises(proc.ProgramTimeout):
        proc.run(["sh", "-c", f"sleep 60 & echo $! > {pidfile}; wait"], timeout=1)
    assert time.monotonic() - started < 10
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)


def test_output_is_captured_and_stdin_is_empty() -> None:
    done = proc.run(["sh", "-c", "cat; echo out; echo err >&2; exit 3"], timeout=10)
    assert (done.returncode, done.out, done.last_error_line()) == (3, "out\n", "err")


def test_input_can_be_given() -> None:
    assert proc.run(["cat"], timeout=10, input=b"abc").stdout == b"abc"


def test_a_missing_program_is_named() -> None:
    with pytest.raises(proc.ProgramNotFound) as caught:
        proc.run(["sofia-no-such-program"], timeout=5)
    assert caught.value.program == "sofia-no-such-program"


def test_a_background_program_never_stalls_on_unread_output() -> None:
    started = proc.Background(["sh", "-c", "head -c 300000 /dev/zero; echo err >&2; exit 4"])
    time.sleep(0.5)  # far more than a pipe holds, written while nobody reads
    done = started.wait(timeout=10)
    assert (done.returncode, len(done.stdout), done.err) == (4, 300_000, "err\n")


def test_a_background_program_past_its_timeout_is_killed_with_its_children(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    started = proc.Background(["sh", "-c", f"sleep 60 & echo $! > {pidfile}; wait"])
    with pytest.raises(proc.ProgramTimeout):
        started.wait(timeout=1)
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)
    started.kill()  # a second kill is harmless


def test_a_background_program_can_be_discarded_unread() -> None:
    started = proc.Background(["sleep", "60"])
    pid = started._proc.pid
    started.kill()
    assert not alive(pid)


def test_a_missing_background_program_is_named() -> None:
    with pytest.raises(proc.ProgramNotFound):
        proc.Background(["sofia-no-such-program"])


def test_git_missing_is_a_provider_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ProviderError, match="git not found"):
        git.run(["status"], cwd=tmp_path)


def test_rg_is_the_wheels_and_new_enough() -> None:
    path, version = rg.locate()
    assert os.access(path, os.X_OK)
    assert tuple(int(p) for p in version.split(".")[:2]) >= rg.MIN_VERSION


def test_walk_rules(tmp_path: Path) -> None:
    for rel in (
        "src/app.py",
        "src/vendor/lib.py",
        "node_modules/x/index.js",
        ".github/scripts/tool.py",
        "generated/out.py",
        "vendor/pkg/a.php",
        "notes.log",
    ):
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("x\n")
    (tmp_path / ".gitignore").write_text("generated/\n*.log\n")
    files = rg.walk(["."], cwd=tmp_path).files
    assert files == [".github/scripts/tool.py", ".gitignore", "src/app.py"]
    assert rg.walk(["vendor"], cwd=tmp_path).files == ["vendor/pkg/a.php"]
    assert rg.walk(["."], cwd=tmp_path, globs=["*.py"], ignore_dirs=["src"]).files == [
        ".github/scripts/tool.py"
    ]
