"""The parse cache: identical results cold or warm, safe entries, and trouble never failing a call."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from sofia.providers.cc import bash, cache, candidates, loading, ls, parallel, prompts, resume, show
from sofia.providers.cc.discovery import list_sessions
from sofia.providers.cc.loading import Loader
from sofia.providers.contract import Context
from tests.cc import transcripts
from tests.cc.conftest import Call, context

TOOLS = (
    (ls, {}),
    (show, {"session": "ops"}),
    (resume, {"session": "ops"}),
    (prompts, {"session": "ops"}),
    (bash, {"session": "ops"}),
    (candidates, {"min_count": 1}),
)


def _all_results(call: Call, root: Path) -> list[bytes]:
    return [orjson.dumps(call(module, projects_dir=str(root), **params)) for module, params in TOOLS]


def test_cold_and_warm_runs_are_byte_identical(call: Call, full_root: Path, private_cache: Path) -> None:
    cold = _all_results(call, full_root)
    entries = sorted(private_cache.glob("*.json"))
    assert len(entries) == 5  # three sessions and C's two agent files; the orphan is never parsed
    warm = _all_results(call, full_root)
    assert warm == cold
    assert sorted(private_cache.glob("*.json")) == entries


def test_entries_are_private(call: Call, ab_root: Path, private_cache: Path) -> None:
    call(ls, projects_dir=str(ab_root))
    assert stat.S_IMODE(private_cache.stat().st_mode) == 0o700
    for entry in private_cache.glob("*.json"):
        assert stat.S_IMODE(entry.stat().st_mode) == 0o600


def test_corrupt_and_foreign_entries_are_ignored_and_replaced(
    call: Call, ab_root: Path, private_cache: Path
) -> None:
    expected = call(ls, projects_dir=str(ab_root))
    entries = sorted(private_cache.glob("*.json"))
    entries[0].write_bytes(b'{"key": {"path": "x"}, "digest": ')
    entries[1].write_bytes(orjson.dumps({"key": "not a key", "digest": []}))
    assert call(ls, projects_dir=str(ab_root)) == expected
    for entry in entries:
        assert orjson.loads(entry.read_bytes())["key"]["parser"] >= 1


def test_only_a_changed_file_is_parsed_again(
    call: Call, ab_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    call(ls, projects_dir=str(ab_root))
    path_a = ab_root / transcripts.DIR_A / f"{transcripts.SID_A}.jsonl"
    with open(path_a, "ab") as handle:
        handle.write(b'{"type":"summary","summary":"x"}\n')
    listing = list_sessions(ab_root)
    loader = Loader(context(), redact=True)
    loader.digests((s.file, None) for s in listing.sessions)
    assert (loader.cache.hits, loader.cache.misses, loader.cache.writes) == (1, 1, 1)


def test_switched_off(
    call: Call, ab_root: Path, private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOFIA_CC_CACHE", "off")
    call(ls, projects_dir=str(ab_root))
    assert not private_cache.exists()


def test_no_redact_bypasses_the_cache(call: Call, full_root: Path, private_cache: Path) -> None:
    result = call(prompts, session="ops", projects_dir=str(full_root), cli=True, redact=False)
    assert not private_cache.exists()
    assert transcripts.SECRETS["github"] in result["prompts"][3]["text"]
    assert result["redactions"] == 0


def test_unwritable_cache_never_fails_a_call(
    call: Call, ab_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv("SOFIA_CACHE_DIR", str(blocker))
    assert call(ls, projects_dir=str(ab_root))["matched"] == 2


def test_sweep_drops_entries_unused_for_thirty_days(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    fresh = tmp_path / "fresh.json"
    for entry in (old, fresh):
        entry.write_text("{}")
    now = time.time()
    os.utime(old, (now - 31 * 86400, now - 31 * 86400))
    assert cache.sweep(tmp_path, now) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.json"]


def test_parallel_parsing_gives_the_same_digests(full_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listing = list_sessions(full_root)
    jobs = [(s.file, None) for s in listing.sessions] + [
        (f, a) for s in listing.sessions for a, f in s.agent_files
    ]
    monkeypatch.setenv("SOFIA_CC_CACHE", "off")
    sequential = Loader(context(), redact=True).digests(jobs)
    monkeypatch.setattr(loading, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "worker_count", lambda jobs: 2)
    pooled = Loader(context(), redact=True).digests(jobs)
    assert {k: v.to_json() for k, v in pooled.items()} == {k: v.to_json() for k, v in sequential.items()}


def test_two_processes_filling_one_cold_cache(full_root: Path, tmp_path: Path) -> None:
    env = dict(os.environ, CC_PROJECTS_DIR=str(full_root), SOFIA_CACHE_DIR=str(tmp_path / "shared"))
    command = [sys.executable, "-m", "sofia", "cc", "candidates", "--json", "--min-count", "1"]
    runs = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert outputs[0][0] == outputs[1][0]
    assert orjson.loads(outputs[0][0])["scanned_sessions"] == 3
    assert len(list((tmp_path / "shared" / "cc").glob("*.json"))) == 5
    assert not list((tmp_path / "shared" / "cc").glob(".tmp-*"))


def test_no_pool_where_children_cannot_be_spawned(monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: "loky")
    assert parallel.worker_count(10) == 1


def test_a_broken_pool_falls_back_to_this_process(full_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures.process import BrokenProcessPool

    listing = list_sessions(full_root)
    jobs = [(s.file, None) for s in listing.sessions]
    expected = Loader(context(), redact=False).digests(jobs)

    def breaks_after_one(jobs: list[Any], *args: Any) -> Any:
        from sofia.providers.cc.reader import read_transcript

        yield jobs[0], read_transcript(jobs[0][0].path, None, False)
        raise BrokenProcessPool("a worker died")

    monkeypatch.setattr(loading, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "worker_count", lambda jobs: 2)
    monkeypatch.setattr(parallel, "parse_in_pool", breaks_after_one)
    got = Loader(context(), redact=False).digests(jobs)
    assert {k: v.to_json() for k, v in got.items()} == {k: v.to_json() for k, v in expected.items()}


def test_progress_is_reported_while_parsing(full_root: Path) -> None:
    seen: list[tuple[int, int | None, str]] = []
    ctx = Context(
        root=Path("/"), budget=None, progress=lambda done, total, message: seen.append((done, total, message))
    )
    ls.run(ls.Params(projects_dir=str(full_root)), ctx)
    assert seen[0] == (0, 3, "reading sessions")
    assert seen[-1] == (3, 3, "reading sessions")
