"""The CLI starts refs' count runs before pydantic is imported (through grep's head start): the
runs are claimed by the engine for exactly its own commands and the output is unchanged."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from sofia.cli.main import main
from sofia.providers.grep import prestarted
from sofia.runtime import proc
from tests.refs.conftest import FIXTURES

CLAIM = prestarted.claim


def in_process(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, list[bool]]:
    claims: list[bool] = []

    def spy(command: list[str], cwd: Path) -> proc.Background | None:
        early = CLAIM(command, cwd)
        claims.append(early is not None)
        return early

    monkeypatch.setattr(prestarted, "claim", spy)
    monkeypatch.chdir(FIXTURES / "php")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["refs", *args])
    return code, out.getvalue(), claims


@pytest.mark.parametrize(
    "args",
    [
        ["UserController::destroy"],
        ["destroy", "Order", "--ext", "php", "--json"],
        ["--root=src", "destroy", "--kind", "call"],
    ],
    ids=" ".join,
)
def test_counts_start_early_and_the_output_is_the_same(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    early = in_process(args, monkeypatch)
    monkeypatch.setenv("SOFIA_HEAD_START", "off")
    late = in_process(args, monkeypatch)
    assert early[0] == late[0] == 0
    assert early[1] == late[1]
    assert early[2] and all(early[2])
    assert not any(late[2])


def test_unusual_arguments_start_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, claims = in_process(["destroy", "--max-per", "2"], monkeypatch)
    assert code == 0 and not any(claims)
