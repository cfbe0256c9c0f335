"""Ctrl-C ends the children a command runs at once: `sf composer check` and `sf github ci` run their
programs in threads, each in a session of its own, so neither the terminal's SIGINT nor the main
thread's KeyboardInterrupt reaches them unless sofia kills them itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sofia.runtime import proc
from tests.helpers import Repo

STARTED_WITHIN = 60.0
"""How long the children may take to start on a loaded machine (not a measurement)."""
ENDED_WITHIN = 60.0
"""Far below the sleep of every child (1000 s) and the timeouts given: exiting by then means the
children were killed, not waited for."""
GH_RUN_LIST_TIMEOUT = 20.0
"""What github_ci gives `gh run list` (sofia/providers/github/ci.py): its own timeout would end a
sleeping gh then, so sf must be gone well before."""


def sleeper(bin_dir: Path, name: str, pids: Path) -> None:
    """A program `name` that records its pid and sleeps (the pid stays the sleep's: `exec`)."""
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / name
    script.write_text(f'#!/bin/sh\necho $$ >> "{pids}"\nexec sleep 1000\n')
    script.chmod(0o755)


def started(pids: Path, count: int) -> list[int]:
    deadline = time.monotonic() + STARTED_WITHIN
    while time.monotonic() < deadline:
        found = [int(line) for line in pids.read_text().split()] if pids.exists() else []
        if len(found) >= count:
            return found
        time.sleep(0.05)
    pytest.fail(f"fewer than {count} children started: {pids.read_text() if pids.exists() else ''}")


def gone(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return any(line.split()[1] == "Z" for line in status.splitlines() if line.startswith("State:"))


def interrupt(
    command: list[str], cwd: Path, bin_dir: Path, pids: Path, running: int, within: float = ENDED_WITHIN
) -> list[int]:
    """Start `sf command`, wait until `running` children sleep, send SIGINT to sf alone, and return
    the pids of every child that ever started, once sf has exited with 130 (within `within` s)."""
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "SOFIA_FOOTER": "off"}
    child = subprocess.Popen(
        [sys.executable, "-m", "sofia", *command],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        sleeping = started(pids, running)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=within)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
        for pid in [int(line) for line in pids.read_text().split()] if pids.exists() else []:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)
    assert child.returncode == 130, err
    assert "interrupted" in err
    assert all(gone(pid) for pid in sleeping)
    return [int(line) for line in pids.read_text().split()]


def test_ctrl_c_during_composer_check_kills_the_running_check_and_starts_no_other(tmp_path: Path) -> None:
    root, bin_dir, pids = tmp_path / "tree", tmp_path / "bin", tmp_path / "pids"
    for name in ("alpha", "beta", "gamma"):
        package = root / name
        package.mkdir(parents=True)
        manifest = {"name": f"acme/{name}", "scripts": {"check": "phpunit"}}
        (package / "composer.json").write_text(json.dumps(manifest))
    sleeper(bin_dir, "composer", pids)
    (bin_dir / "php").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "php").chmod(0o755)
    command = ["composer", "check", "--jobs", "1", "--timeout", "900", "--root", "tree"]
    assert len(interrupt(command, tmp_path, bin_dir, pids, running=1)) == 1


def test_ctrl_c_during_github_ci_kills_every_probe_and_starts_no_other(tmp_path: Path) -> None:
    root, bin_dir, pids = tmp_path / "packages", tmp_path / "bin", tmp_path / "pids"
    for number in range(7):  # one more than probes run at once
        repo = Repo(root / f"p{number}")
        repo.write("composer.json", json.dumps({"name": f"acme/p{number}"}))
        repo.commit("initial")
    sleeper(bin_dir, "gh", pids)
    command = ["github", "ci", "--root", "packages"]
    within = GH_RUN_LIST_TIMEOUT / 2
    assert len(interrupt(command, tmp_path, bin_dir, pids, running=6, within=within)) == 6


def test_stop_all_kills_a_running_child_and_refuses_new_ones(tmp_path: Path) -> None:
    import threading

    pids = tmp_path / "pids"
    sleeper(tmp_path / "bin", "nap", pids)
    raised: list[BaseException] = []

    def wait_for_it() -> None:
        try:
            proc.run([str(tmp_path / "bin" / "nap")], timeout=900)
        except BaseException as error:  # the test inspects what reached the thread
            raised.append(error)

    thread = threading.Thread(target=wait_for_it)
    with proc.children_end_on_interrupt():
        thread.start()
        (pid,) = started(pids, 1)
        assert proc.stop_all() == 1
        thread.join(ENDED_WITHIN)
        assert not thread.is_alive() and gone(pid)
        assert [type(error) for error in raised] == [KeyboardInterrupt]
        with pytest.raises(KeyboardInterrupt):
            proc.run(["true"], timeout=10)
    assert proc.run(["true"], timeout=10).returncode == 0  # the next command starts afresh
