"""Parsing several uncached transcripts in parallel processes.

A short-lived process pool (spawned, so it is safe inside a threaded worker) parses one file per
task and writes its cache entry; results come back as digests and are merged by the caller in a
fixed order, so the output never depends on which process finished first. The pool is torn down
before returning, even on errors or an expired deadline, and its processes exit on their own if
the parent dies.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from sofia.providers.cc.cache import Cache
from sofia.providers.cc.digest import Digest
from sofia.providers.cc.discovery import TranscriptFile

Job = tuple[TranscriptFile, "str | None"]
"""A file to parse and, for a subagent file, its agent id."""

MAX_WORKERS = 4


def worker_count(jobs: int) -> int:
    """Processes worth starting for `jobs` files on this machine (1 where a pool cannot start)."""
    if not _can_spawn():
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_WORKERS, jobs))


def _can_spawn() -> bool:
    """Spawned children replay the parent's default start method; inside a process whose default is
    not a standard one (a loky worker of the MCP server) they cannot, and the server's own worker
    pool is the parallelism there."""
    import multiprocessing

    return multiprocessing.get_start_method(allow_none=True) in (None, "fork", "spawn", "forkserver")


def parse_job(job: Job, redact: bool, cache_dir: str | None) -> Digest:
    """Parse one file (in whichever process) and store its digest in the cache."""
    from sofia.providers.cc.reader import read_transcript

    file, agent = job
    digest = read_transcript(file.path, agent, redact)
    if redact and cache_dir is not None:
        store(Cache(Path(cache_dir)), file, digest)
    return digest


def store(cache: Cache, file: TranscriptFile, digest: Digest) -> None:
    """Cache the digest unless the file changed while it was read."""
    try:
        now = os.stat(file.path)
    except OSError:
        return
    if now.st_size == file.size and now.st_mtime_ns == file.mtime_ns:
        cache.put(file.path, file.size, file.mtime_ns, digest)


def parse_in_pool(
    jobs: list[Job],
    redact: bool,
    cache_dir: str | None,
    workers: int,
    tick: Callable[[], None],
) -> Iterator[tuple[Job, Digest | OSError]]:
    """Yield (job, digest or the OSError that made it unreadable) as files finish.

    `tick` runs while waiting (deadline checks); an exception from it stops the pool at once.
    """
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_exit_with_parent, initargs=(os.getpid(),)
    )
    finished = False
    try:
        ordered = sorted(jobs, key=lambda job: -job[0].size)
        futures: dict[Future[Digest], Job] = {
            pool.submit(parse_job, job, redact, cache_dir): job for job in ordered
        }
        pending = set(futures)
        while pending:
            tick()
            done, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: futures[f][0].path):
                error = future.exception()
                if error is None:
                    yield futures[future], future.result()
                elif isinstance(error, OSError):
                    yield futures[future], error
                else:
                    raise error
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the processes that are still parsing."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=2)


def _exit_with_parent(parent: int) -> None:
    """Pool processes end themselves when the process that started them is gone."""

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
