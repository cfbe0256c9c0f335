"""Classifying candidate files: one file (`classify_one`), a run of them in this process, or in a
pool of processes (`Pool`), all stopping at the same deadline cut-off (`Cutoff`).

The pool's processes are started with `forkserver` on Linux and `spawn` elsewhere, never `fork`:
refs counts in threads while it classifies, and a forked child of a threaded process may hang on
a lock another thread held (macOS's system libraries may crash it outright; Windows has no
fork). The forkserver imports this module and the classifiers once, so each worker starts with
them loaded.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sofia.providers.grep import display_path
from sofia.providers.refs.model import DEADLINE, Outcome, Parsed
from sofia.runtime.files import looks_binary

if TYPE_CHECKING:
    from pathlib import Path

    from sofia.providers.contract import Context
    from sofia.syntax.uses import FileUses, Syntax

RESERVE_SHARE = 0.15
"""Share of the time left when classification starts that is kept for shaping the result."""
MIN_RESERVE = 1.0
TICK_EVERY = 16
PROGRESS = "classifying occurrences"
JOBS_ENV = "SOFIA_REFS_JOBS"
"""Processes classifying candidates at once (1: in the calling process only)."""
MAX_JOBS = 4
PARALLEL_FROM = 256
"""Candidate files from which classifying in several processes pays for starting them."""
CHUNK = 64
"""Candidates sent to a process at a time."""

Item = tuple[bytes, list[str]]
"""A candidate: its path as ripgrep printed it, and the names to classify in it."""


@dataclass(frozen=True)
class Cutoff:
    """When classifying stops: the deadline less a reserve for shaping the result (a share of
    the time left when classifying starts, at least MIN_RESERVE seconds)."""

    reserve: float
    stop_at: float | None
    """The same moment on the monotonic clock, for processes that have no Context."""

    @classmethod
    def of(cls, ctx: Context) -> Cutoff:
        left = ctx.time_left()
        if left is None:
            return cls(0.0, None)
        reserve = max(MIN_RESERVE, RESERVE_SHARE * left)
        return cls(reserve, time.monotonic() + left - reserve)

    def reached(self, ctx: Context) -> bool:
        left = ctx.time_left()
        return left is not None and left < self.reserve


def start_method() -> str:
    """`forkserver` where it exists and is safe (Linux), else `spawn` (see the module's doc)."""
    import multiprocessing

    if sys.platform.startswith("linux") and "forkserver" in multiprocessing.get_all_start_methods():
        return "forkserver"
    return "spawn"


STANDARD_METHODS = ("fork", "spawn", "forkserver")


def _defining_default() -> list[str]:
    """The module that defines this process's default start method when it is not one of
    multiprocessing's own (a loky worker's is `loky`): a child sets its parent's default method
    before anything else, so the forkserver must have imported that module."""
    import multiprocessing

    default = multiprocessing.get_start_method(allow_none=True)
    if default is None or default in STANDARD_METHODS:
        return []
    return [type(multiprocessing.get_context(default)).__module__]


def jobs_for(candidates: int) -> int:
    """Processes classifying at once: `SOFIA_REFS_JOBS` if set, else up to MAX_JOBS cores once
    there are enough candidates to pay for starting them."""
    from sofia import settings

    wanted: int = settings.get(JOBS_ENV) or min(os.cpu_count() or 1, MAX_JOBS)
    if candidates < PARALLEL_FROM or wanted < 2 or not children_can_start():
        return 1
    return wanted


def children_can_start() -> bool:
    """Whether this process can start the pool's children: a forkserver imports what they need
    first; a spawned child imports nothing before it sets its parent's default start method, so
    under `spawn` a process whose default is not multiprocessing's own (a loky worker: the MCP
    server's, on macOS and Windows) classifies in itself."""
    return start_method() == "forkserver" or not _defining_default()


class Pool:
    """The processes one call classifies in, started on the first chunk sent (most calls send
    none) and shared by every stage of the call; `close` ends them."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._executor: Any = None

    def submit(self, cwd: Path, chunk: list[Item], cutoff: Cutoff) -> Future[list[tuple[str, Outcome]]]:
        if self._executor is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context(start_method())
            if context.get_start_method() == "forkserver":
                context.set_forkserver_preload([__name__, "sofia.syntax.uses", *_defining_default()])
            self._executor = ProcessPoolExecutor(max_workers=self.jobs, mp_context=context)
        future: Future[list[tuple[str, Outcome]]] = self._executor.submit(
            classify_chunk, cwd, chunk, cutoff.stop_at
        )
        return future

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def in_pool(
    pool: Pool, cwd: Path, items: list[Item], cutoff: Cutoff, ctx: Context
) -> list[tuple[str, Outcome]]:
    """`items` classified in the pool, chunk by chunk, reassembled in their order; each file
    classified is kept for later calls (the process that classified it cannot keep it)."""
    futures = [pool.submit(cwd, items[i : i + CHUNK], cutoff) for i in range(0, len(items), CHUNK)]
    outcomes: list[tuple[str, Outcome]] = []
    for index, future in enumerate(futures):
        outcomes += future.result()
        ctx.progress(min((index + 1) * CHUNK, len(items)), len(items), PROGRESS)
    remember(cwd, items, [outcome for _, outcome in outcomes])
    return outcomes


def in_turn(cwd: Path, items: list[Item], cutoff: Cutoff, ctx: Context) -> list[tuple[str, Outcome]]:
    """`items` classified in this process, in order, until the cut-off."""
    outcomes: list[tuple[str, Outcome]] = []
    for index, (raw, names) in enumerate(items):
        if cutoff.reached(ctx):
            return outcomes + [(display_path(rest), DEADLINE) for rest, _ in items[index:]]
        if index % TICK_EVERY == 0:
            ctx.progress(index, len(items), PROGRESS)
        outcomes.append(classify_one(cwd, raw, names))
    return outcomes


def remember(cwd: Path, items: Sequence[Item], outcomes: Sequence[Outcome]) -> None:
    """Keep the files another process classified, for later calls of this one."""
    from sofia.providers.refs import memo

    for (raw, names), outcome in zip(items, outcomes, strict=True):
        if isinstance(outcome, Parsed):
            memo.keep(memo.key_of(cwd, raw, names), outcome.stamp, outcome)


def classify_chunk(cwd: Path, items: list[Item], stop_at: float | None) -> list[tuple[str, Outcome]]:
    """Classify a run of candidates (in a worker process); those past `stop_at` are left out."""
    outcomes: list[tuple[str, Outcome]] = []
    for raw, names in items:
        if stop_at is not None and time.monotonic() > stop_at:
            outcomes.append((display_path(raw), DEADLINE))
        else:
            outcomes.append(classify_one(cwd, raw, names))
    return outcomes


def recalled(cwd: Path, raw: bytes, names: list[str]) -> Parsed | None:
    """The candidate as classified by an earlier call, when the file is unchanged since."""
    from sofia.providers.refs import memo

    try:
        status = os.stat(cwd / os.fsdecode(raw))
    except OSError:
        return None
    return memo.recall(memo.key_of(cwd, raw, names), memo.stamp_of(status))


def classify_one(cwd: Path, raw: bytes, names: list[str]) -> tuple[str, Outcome]:
    """One candidate: its classified occurrences, or why it could not be classified."""
    from sofia.providers.refs import memo
    from sofia.syntax import MAX_PARSE_BYTES, ParseUnavailable, language_for
    from sofia.syntax.uses import analyze, syntax_of

    rel = display_path(raw)
    file = cwd / os.fsdecode(raw)
    lang = language_for(file)
    if lang is None:
        return rel, "unsupported file type"
    key = memo.key_of(cwd, raw, names)
    try:
        stamp = memo.stamp_of(os.stat(file))  # before reading: a change while reading shows next time
        kept = memo.recall(key, stamp)
        if kept is not None:
            return rel, kept
        source = file.read_bytes()
    except FileNotFoundError:
        return rel, "vanished"
    except OSError as error:
        return rel, f"unreadable: {error.strerror or error}"
    if looks_binary(source):
        return rel, "binary"
    if len(source) > MAX_PARSE_BYTES:
        return rel, "too large to parse"
    try:
        syntax = syntax_of(source, lang, names)
    except ParseUnavailable as error:
        return rel, f"not parsed: {error}"
    parsed = summarize(rel, syntax, analyze(syntax, rel, names))
    parsed.stamp = stamp
    memo.keep(key, stamp, parsed)
    return rel, parsed


def summarize(rel: str, syntax: Syntax, uses: FileUses) -> Parsed:
    """What matching and shaping need of a classified file, so its trees can go."""
    source = syntax.source
    texts: dict[int, str] = {}
    for found in uses.occurrences.values():
        for occurrence in found:
            line = occurrence.line
            if line not in texts:
                start = source.rfind(b"\n", 0, occurrence.start) + 1
                end = source.find(b"\n", occurrence.start)
                texts[line] = source[start : end if end >= 0 else len(source)].decode("utf-8", "replace")
            if occurrence.decl != (0, 0):
                occurrence.end_line = (
                    source.count(b"\n", 0, max(occurrence.decl[1] - 1, occurrence.start)) + 1
                )
    return Parsed(rel, syntax.lang, uses, max(source.count(b"\n"), 1), texts, source)
