"""The CLI's head start for grep: the count runs it starts before pydantic is imported are used
only for exactly the command the provider would run, give byte-identical output, and never
outlive a call that does not use them."""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from sofia.cli.main import main
from sofia.providers.grep import head_start, prestarted
from sofia.runtime import proc
from tests.grep.conftest import SHOP

CLAIM = prestarted.claim
PLAIN = [
    ["deleteUser"],
    ["deleteUser", "toggle", "--ext", "php,vue", "--word"],
    ["--root", "app", "deleteuser", "--no-case", "--json"],
    ["--root=web", "function", "--ignore-dir", "components", "--max-per-pattern", "2", "--md"],
    ["(delete|toggle)\\w*", "--regex", "--format", "json", "--max-output-tokens", "500"],
    ["DELETEUSER", "-i", "-w", "--json"],  # grep's short forms
    ["delete\\w+", "-E"],
]
UNUSUAL = [
    ["--ro", "app", "deleteUser"],  # an abbreviation argparse accepts
    ["--", "-foo"],
    ["deleteUser", "--max-per-pattern", "-1"],  # refused by the model
    ["(", "--regex"],  # refused by ripgrep
]


def in_process(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str, list[bool]]:
    """`sf grep ARGS` run here in SHOP, recording for each count run whether it was started early."""
    claims: list[bool] = []

    def spy(command: list[str], cwd: Path) -> proc.Background | None:
        early = CLAIM(command, cwd)
        claims.append(early is not None)
        return early

    monkeypatch.setattr(prestarted, "claim", spy)
    monkeypatch.chdir(SHOP)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["grep", *args])
    return code, out.getvalue(), err.getvalue(), claims


@pytest.mark.parametrize("args", PLAIN, ids=" ".join)
def test_plain_arguments_are_counted_early_with_identical_output(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    early = in_process(args, monkeypatch)
    monkeypatch.setenv("SOFIA_HEAD_START", "off")
    late = in_process(args, monkeypatch)
    assert early[:3] == late[:3]
    assert early[3] and all(early[3]), "every count run should have been the early one"
    assert not any(late[3])


@pytest.mark.parametrize("args", UNUSUAL, ids=" ".join)
def test_unusual_arguments_behave_exactly_as_without_a_head_start(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    early = in_process(args, monkeypatch)
    monkeypatch.setenv("SOFIA_HEAD_START", "off")
    assert early[:3] == in_process(args, monkeypatch)[:3]


def test_several_patterns_start_their_one_walk_early(monkeypatch: pytest.MonkeyPatch) -> None:
    patterns = [f"word{i}" for i in range(10)]
    code, _, _, claims = in_process(patterns, monkeypatch)
    assert code == 0
    assert claims == [True]


def test_a_run_started_for_another_command_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    head_start.start(["deleteUser", "--ext", "php"], SHOP)
    assert prestarted.claim(["rg", "--no-config", "deleteUser"], SHOP) is None
    head_start.discard()


def test_unclaimed_runs_are_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    head_start.start(["deleteUser", "toggle"], SHOP)
    head_start.start(["deleteUser"], SHOP)
    runs = list(prestarted._started.values())
    assert len(runs) == 2
    head_start.discard()
    assert prestarted._started == {}
    assert all(run._proc.poll() is not None for run in runs)


def test_a_refused_call_leaves_no_ripgrep_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[proc.Background] = []
    original = proc.Background.__init__

    def record(self: proc.Background, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        started.append(self)

    monkeypatch.setattr(proc.Background, "__init__", record)
    code, out, err, claims = in_process(["deleteUser", "--max-per-pattern", "-1"], monkeypatch)
    assert (code, out, claims) == (2, "", [])
    assert "--max-per-pattern" in err
    assert len(started) == 1 and started[0]._proc.poll() is not None


def test_the_head_start_needs_no_pydantic() -> None:
    """Its point is to run before the input model is imported."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from sofia.providers.grep import head_start, prestarted\n"
        f"head_start.start(['deleteUser'], Path({str(SHOP)!r}))\n"
        "assert len(prestarted._started) == 1, prestarted._started\n"
        "head_start.discard()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'pydantic', 'sofia'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr
    assert "pydantic" not in done.stdout
    assert "sofia.providers.grep.ripgrep" in done.stdout
