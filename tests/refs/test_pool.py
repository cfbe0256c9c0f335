"""Classifying in a pool of processes gives the serial answer, whichever way the processes start:
`forkserver` (what Linux uses) and `spawn` (macOS, Windows), on real files through a real pool,
for several names (classified after the counts) and for one (classified while ripgrep counts)."""

from __future__ import annotations

import multiprocessing
import sys
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.refs import classify
from tests.refs.conftest import entry, forget_memo, refs

FILES = 300
"""Candidates: past PARALLEL_FROM, so both the counting stream and the classification use the pool."""


def tree(root: Path) -> Path:
    (root / "lib.py").write_text("def target(x):\n    return x\n")
    for index in range(FILES):
        body = f"from lib import target\n\n\ndef f{index}():\n    return target({index}) + target(0)\n"
        (root / f"m{index:03}.py").write_text(body)
    (root / "m150.py").write_text("# target mentioned\ntarget = 3\n")
    return root


@pytest.fixture
def chunks_sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The start method of the pool each chunk went to (the real pool, spied on)."""
    sent: list[str] = []
    real = classify.Pool.submit

    def spy(self: classify.Pool, *args: Any) -> Any:
        future = real(self, *args)
        sent.append(self._executor._mp_context.get_start_method())
        return future

    monkeypatch.setattr(classify.Pool, "submit", spy)
    return sent


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
@pytest.mark.parametrize("symbols", [("target", "lib.target"), ("target",)], ids=["names", "one name"])
def test_a_pool_started_either_way_answers_as_the_calling_process_does(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    chunks_sent: list[str],
    method: str,
    symbols: tuple[str, ...],
) -> None:
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"{method} does not exist on {sys.platform}")
    root = tree(tmp_path)
    monkeypatch.setenv("SOFIA_REFS_JOBS", "1")
    serial = refs(root, *symbols, max_per_symbol=0)
    assert chunks_sent == []
    forget_memo()  # else every file is recalled and the pool has nothing to do
    monkeypatch.setenv("SOFIA_REFS_JOBS", "2")
    monkeypatch.setattr(classify, "start_method", lambda: method)
    parallel = refs(root, *symbols, max_per_symbol=0)
    assert chunks_sent and set(chunks_sent) == {method}
    assert parallel == serial
    item = entry(serial, "target")
    assert item["totals"]["uses"] == (FILES - 1) * 3 and item["totals"]["definitions"] == 2


def test_what_the_pool_classified_is_kept_for_the_next_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunks_sent: list[str]
) -> None:
    root = tree(tmp_path)
    monkeypatch.setenv("SOFIA_REFS_JOBS", "2")
    first = refs(root, "target", "lib.target", max_per_symbol=0)
    sent = len(chunks_sent)
    assert sent > 0
    assert refs(root, "target", "lib.target", max_per_symbol=0) == first
    assert len(chunks_sent) == sent


def test_the_start_method_is_never_fork() -> None:
    """refs counts in threads while it classifies: a forked child of a threaded process may hang."""
    expected = "forkserver" if sys.platform.startswith("linux") else "spawn"
    assert classify.start_method() == expected


def test_a_pool_is_used_only_from_enough_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOFIA_REFS_JOBS", "2")
    assert classify.jobs_for(classify.PARALLEL_FROM) == 2
    assert classify.jobs_for(classify.PARALLEL_FROM - 1) == 1
    monkeypatch.setenv("SOFIA_REFS_JOBS", "1")
    assert classify.jobs_for(10 * classify.PARALLEL_FROM) == 1


def test_under_spawn_a_process_with_a_foreign_default_method_classifies_in_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spawned child sets its parent's default start method before it imports anything: in a
    loky worker (default `loky`) it would die, so no pool is started there; a forkserver, which
    imports the module defining that method first, still may."""
    monkeypatch.setenv("SOFIA_REFS_JOBS", "2")
    monkeypatch.setattr(classify, "_defining_default", lambda: ["loky.backend.context"])
    monkeypatch.setattr(classify, "start_method", lambda: "spawn")
    assert classify.jobs_for(classify.PARALLEL_FROM) == 1
    monkeypatch.setattr(classify, "start_method", lambda: "forkserver")
    assert classify.jobs_for(classify.PARALLEL_FROM) == 2
