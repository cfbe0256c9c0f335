"""composer_check against the real composer and php: statuses, parallelism, timeouts, budget."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from sofia.errors import render_all
from sofia.output import budget
from sofia.providers.composer import check
from sofia.providers.contract import ProviderError
from tests.composer.conftest import context, write_package
from tests.composer.recordings import EXPECTED
from tests.composer.workspace import FIXTURES, Workspace
from tests.helpers import call

TOOLS = FIXTURES / "workspace" / "monorepo" / "tools"


def run_check(workspace_root: Path, **params: Any) -> dict[str, Any]:
    result: dict[str, Any] = call("composer_check", params, workspace_root)
    return result


def process_gone(pid: int) -> bool:
    """True when `pid` no longer runs (reaped, or a zombie nobody has reaped yet)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return any(line.split()[1] == "Z" for line in status.splitlines() if line.startswith("State:"))


def gone_soon(pid: int, within: float = 5.0) -> bool:
    """`process_gone` within a few seconds: SIGKILL to a process group is delivered asynchronously,
    so on a busy machine a member may still be scheduled for a moment after the kill returns."""
    deadline = time.monotonic() + within
    while not process_gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_monorepo_every_status(own_workspace: Workspace) -> None:
    progress: list[tuple[int, int | None, str]] = []
    ctx = context(
        own_workspace.root, progress=lambda done, total, message: progress.append((done, total, message))
    )
    result = render_all(check.run(check.Params(root="monorepo", timeout_s=8, jobs=4), ctx))
    rows = [(r["package"], r["dir"], r["status"]) for r in result["results"]]
    assert rows == [
        ("acme/enum", "monorepo/packages/enum", "fail"),
        ("acme/http-client", "monorepo/packages/http-client", "fail"),
        ("acme/queue", "monorepo/packages/queue", "timeout"),
        ("", "monorepo/packages/broken", "error"),
        ("acme/money", "monorepo/packages/money", "skip"),
        ("acme/monorepo", "monorepo", "skip"),
        ("acme/array-reader", "monorepo/packages/array-reader", "ok"),
    ]
    assert result["summary"] == {"ok": 1, "fail": 2, "skip": 2, "timeout": 1, "error": 1}
    by_name = {r["package"] or r["dir"]: r for r in result["results"]}
    assert by_name["acme/enum"]["exit_code"] == 1
    assert by_name["acme/enum"]["failed_step"] == "php ../../tools/phpunit.php failures"
    assert by_name["acme/enum"]["first_failure"] == EXPECTED["phpunit-failures"]
    assert by_name["acme/http-client"]["failed_step"] == "php ../../tools/phpstan.php errors"
    assert by_name["acme/http-client"]["first_failure"] == EXPECTED["phpstan-errors"]
    assert by_name["acme/queue"]["first_failure"] == "killed after 8 s (timeout_s)"
    assert by_name["acme/queue"]["exit_code"] == -1
    assert by_name["monorepo/packages/broken"]["first_failure"].startswith(
        "composer.json: invalid JSON at line 4, column 5"
    )
    assert by_name["acme/money"]["first_failure"] == "no 'check' script"
    assert by_name["acme/array-reader"] | {"duration_ms": 0} == {
        "package": "acme/array-reader",
        "dir": "monorepo/packages/array-reader",
        "status": "ok",
        "exit_code": 0,
        "duration_ms": 0,
        "failed_step": "",
        "first_failure": "",
    }
    assert result["notes"] == [
        "1 composer.json file not followed (unreadable or invalid): "
        "monorepo/packages/broken/composer.json:4 invalid JSON: unexpected character, expected ',' or '}'",
        "checks killed at timeout_s=8: 1; raise timeout_s if they are just slow",
    ]
    assert "omitted" not in result
    grandchild = int((own_workspace.monorepo / "packages/queue/hang.pid").read_text())
    assert gone_soon(grandchild)
    assert [done for done, _, _ in progress] == list(range(1, 8))
    assert {total for _, total, _ in progress} == {7}
    assert {message.split()[0] for _, _, message in progress} == {row[0] or row[1] for row in rows}
    assert all(
        message.endswith("s") and message.split()[1] in check.STATUS_ORDER for _, _, message in progress
    )


def test_recorded_tool_outputs_through_composer(tmp_path: Path) -> None:
    shutil.copytree(TOOLS, tmp_path / "tools")
    for name in EXPECTED:
        command = f"php -r \"require '../tools/replay.php'; replay('{name}', 1);\""
        write_package(tmp_path / name, {"name": f"acme/{name}", "scripts": {"check": command}})
    result = run_check(tmp_path, jobs=4)
    assert result["summary"]["fail"] == len(EXPECTED)
    for row in result["results"]:
        name = row["dir"]
        expected = EXPECTED[name].replace("/home/dev/acme/packages/http-client", str(tmp_path / name))
        assert row["first_failure"] == expected
        assert row["failed_step"] == f"php -r \"require '../tools/replay.php'; replay('{name}', 1);\""


def test_checks_run_in_parallel(tmp_path: Path) -> None:
    seconds = (1.0, 0.8, 0.6, 0.4, 0.2)
    for index, wait in enumerate(seconds):
        command = (
            "php -r \"file_put_contents('stamps', microtime(true) . PHP_EOL); "
            f"usleep({int(wait * 1_000_000)}); "
            "file_put_contents('stamps', microtime(true) . PHP_EOL, FILE_APPEND);\""
        )
        write_package(tmp_path / f"p{index}", {"name": f"acme/p{index}", "scripts": {"check": command}})
    result = run_check(tmp_path, jobs=5)
    assert result["summary"]["ok"] == 5
    intervals = [tuple(map(float, (tmp_path / f"p{i}/stamps").read_text().split())) for i in range(5)]
    latest_start = max(start for start, _ in intervals)
    earliest_end = min(end for _, end in intervals)
    assert latest_start < earliest_end, "every check was running at one moment"


def test_jobs_one_runs_one_at_a_time(tmp_path: Path) -> None:
    for index in range(3):
        command = (
            "php -r \"file_put_contents('stamps', microtime(true) . PHP_EOL); usleep(100000); "
            "file_put_contents('stamps', microtime(true) . PHP_EOL, FILE_APPEND);\""
        )
        write_package(tmp_path / f"p{index}", {"name": f"acme/p{index}", "scripts": {"check": command}})
    run_check(tmp_path, jobs=1)
    intervals = sorted(tuple(map(float, (tmp_path / f"p{i}/stamps").read_text().split())) for i in range(3))
    assert all(intervals[i][1] <= intervals[i + 1][0] for i in range(2))


def test_budget_exhaustion_kills_the_running_and_skips_the_rest(tmp_path: Path) -> None:
    for index in range(3):
        write_package(
            tmp_path / f"p{index}", {"name": f"acme/p{index}", "scripts": {"check": "php -r 'sleep(20);'"}}
        )
    result = run_check(tmp_path, jobs=1, budget_s=1)
    assert [(r["package"], r["status"]) for r in result["results"]] == [
        ("acme/p0", "timeout"),
        ("acme/p1", "skip"),
        ("acme/p2", "skip"),
    ]
    assert result["results"][0]["first_failure"].endswith("budget of 1 s exhausted")
    assert [r["first_failure"] for r in result["results"][1:]] == ["budget exhausted", "budget exhausted"]
    assert result["notes"] == [
        "budget of 1 s exhausted (checks killed: 1, not started: 2); raise budget_s or check fewer packages"
    ]


def test_the_call_deadline_stops_checks_too(tmp_path: Path) -> None:
    for index in range(2):
        write_package(
            tmp_path / f"p{index}", {"name": f"acme/p{index}", "scripts": {"check": "php -r 'sleep(20);'"}}
        )
    ctx = context(tmp_path, deadline=time.monotonic() + 1)
    result = render_all(check.run(check.Params(jobs=1), ctx))
    assert [(r["status"], r["first_failure"].split(": ")[-1]) for r in result["results"]] == [
        ("timeout", "the call's deadline was reached"),
        ("skip", "call deadline reached"),
    ]
    assert result["notes"] == [
        "the call's deadline exhausted (checks killed: 1, not started: 1); raise budget_s or check fewer packages"
    ]


def test_other_script_and_filter(workspace: Workspace) -> None:
    result = run_check(workspace.root, root="monorepo", script="lint")
    assert [(r["package"], r["status"]) for r in result["results"] if r["status"] != "skip"] == [
        ("", "error"),
        ("acme/http-client", "ok"),
    ]
    assert {r["first_failure"] for r in result["results"] if r["status"] == "skip"} == {"no 'lint' script"}
    only = run_check(workspace.root, package="http-client", script="lint")
    assert [r["package"] for r in only["results"]] == ["acme/http-client"]


def test_unknown_package(workspace: Workspace) -> None:
    with pytest.raises(ProviderError, match='no package matching "nope" under .; known packages: '):
        run_check(workspace.root, package="nope")


def test_script_and_package_cannot_look_like_options(workspace: Workspace) -> None:
    with pytest.raises(ProviderError, match="invalid script name: --help"):
        run_check(workspace.root, script="--help")
    with pytest.raises(ProviderError, match="invalid package: -x"):
        run_check(workspace.root, package="-x")


def bin_dir_with(tmp_path: Path, *programs: str) -> str:
    """A PATH entry holding only `programs` (symlinks to the real ones)."""
    directory = tmp_path / "bin"
    directory.mkdir(exist_ok=True)
    for program in programs:
        real = shutil.which(program)
        assert real is not None
        (directory / program).symlink_to(real)
    return str(directory)


def test_missing_composer(workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", bin_dir_with(tmp_path, "git", "php"))
    with pytest.raises(ProviderError) as caught:
        run_check(workspace.root, root="standalone")
    assert (
        str(caught.value)
        == "composer not found on PATH: install Composer (https://getcomposer.org/download/)"
    )


def test_missing_php(workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", bin_dir_with(tmp_path, "git", "composer"))
    with pytest.raises(ProviderError) as caught:
        run_check(workspace.root, root="standalone")
    assert str(caught.value) == "php not found on PATH: install the PHP CLI (Composer needs it)"


def test_composer_that_cannot_start_is_an_error_row(
    workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = bin_dir_with(tmp_path, "git", "php")
    broken = Path(path) / "composer"
    broken.write_text("#!/nonexistent/interpreter\n")
    broken.chmod(0o755)
    monkeypatch.setenv("PATH", path)
    [row] = run_check(workspace.root, root="standalone")["results"]
    assert row["status"] == "error"
    assert row["first_failure"].startswith("cannot start composer: ")


def test_composer_killed_by_a_foreign_signal(tmp_path: Path) -> None:
    write_package(
        tmp_path / "p", {"name": "acme/p", "scripts": {"check": "php -r 'posix_kill(-posix_getpgrp(), 9);'"}}
    )
    [row] = run_check(tmp_path)["results"]
    assert (row["status"], row["exit_code"], row["first_failure"]) == (
        "error",
        -9,
        "composer killed by SIGKILL",
    )


def test_passing_standalone_package(workspace: Workspace) -> None:
    result = run_check(workspace.root, root="standalone")
    assert [(r["package"], r["dir"], r["status"]) for r in result["results"]] == [
        ("acme/slugger", "standalone", "ok")
    ]
    assert list(result) == ["root", "script", "wall_ms", "summary", "results", "notes"]


def test_output_budget_shortens_failures_then_drops_passing_rows(tmp_path: Path) -> None:
    for index in range(5):
        write_package(
            tmp_path / f"ok{index}", {"name": f"acme/ok{index}", "scripts": {"check": "php -r 'exit(0);'"}}
        )
    long_line = "Error: " + "x" * 300
    write_package(
        tmp_path / "bad",
        {"name": "acme/bad", "scripts": {"check": f"php -r 'echo \"{long_line}\"; exit(2);'"}},
    )
    full = run_check(tmp_path, jobs=4)
    assert len(full["results"][0]["first_failure"]) == 200
    cut = render_all(check.run(check.Params(jobs=4), context(tmp_path, budget=300)))
    assert budget.cost(cut) <= 300
    assert cut["results"][0]["package"] == "acme/bad"
    assert len(cut["results"][0]["first_failure"]) == 100
    assert cut["summary"] == full["summary"]
    kept_ok = len(cut["results"]) - 1
    assert 0 < kept_ok < 5
    assert cut["omitted"] == {"results": 5 - kept_ok}
    assert cut["notes"] == [
        "first_failure: 1 text cut to 100 characters (budget 300 tok); narrow with package",
        f"results: showing {1 + kept_ok} of 6 rows (budget 300 tok); "
        "passing rows go first (summary counts them); narrow with package",
    ]


def test_empty_tree(tmp_path: Path) -> None:
    result = run_check(tmp_path)
    assert result["results"] == [] and result["notes"] == ["no composer.json found under the root"]


def test_default_jobs_follow_the_cpu_count() -> None:
    assert check.Params().jobs is None  # not in the schema: it would differ from machine to machine
    assert check.default_jobs() == min(4, os.cpu_count() or 1)
