"""A ripgrep run read while it runs (several patterns' one walk in grep, the count run refs
classifies from) that never finishes is killed at the call's deadline with a clear error: the
reading loop itself keeps time, not only the wait after the program exits."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.contract import Context, DeadlineExceeded, ProviderError
from sofia.providers.grep import provider as grep_provider
from sofia.providers.grep.ripgrep import Ripgrep
from sofia.providers.refs import provider as refs_provider
from sofia.runtime import proc
from tests.helpers import write_files as write

started: list[proc.Background] = []


def never_finishes(self: Ripgrep, command: list[str]) -> proc.Background:
    run = proc.Background(["sleep", "60"])
    started.append(run)
    return run


@pytest.mark.parametrize(
    "call",
    [
        lambda ctx: grep_provider.run(grep_provider.Params(patterns=["alpha", "beta"]), ctx),
        lambda ctx: refs_provider.run(refs_provider.Params(symbols=["alpha"]), ctx),
    ],
    ids=["grep several patterns", "refs"],
)
def test_a_run_that_never_ends_is_killed_at_the_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: Callable[[Context], Any]
) -> None:
    write(tmp_path, {"a.py": "alpha = beta = 1\n"})
    monkeypatch.setenv("SOFIA_HEAD_START", "off")
    monkeypatch.setattr(Ripgrep, "_start", never_finishes)
    started.clear()
    begin = time.monotonic()
    with pytest.raises((DeadlineExceeded, ProviderError)) as caught:
        call(Context(root=tmp_path, budget=None, deadline=time.monotonic() + 1.5))
    assert time.monotonic() - begin < 10
    assert "ripgrep" in str(caught.value) or isinstance(caught.value, DeadlineExceeded)
    assert started and all(not run.running() for run in started)
