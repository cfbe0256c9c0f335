"""The worker pool: provider calls on loky processes, with what loky alone does not give.

loky runs tasks in warm, reusable processes, but a task cannot be cancelled or time-boxed once it
runs, and one dead worker breaks the whole executor. The pool adds, on the server's event loop:

* its own FIFO queue, handing loky at most one call per worker, so a queued call is cancelled
  by simply dropping it and every submitted call starts at once;
* deadlines: the worker interrupts Python code itself (SIGALRM); past a grace period the pool
  kills the worker and the programs it started;
* cancellation: SIGUSR1 interrupts a running call, a kill follows if it does not stop;
* recovery: when a worker dies, loky fails every call in flight; the pool finds the culprit
  (the worker loky found dead before it killed the others), answers its call, starts a new
  executor and resubmits the others once (non-idempotent ones only if they had not started);
* idle deaths: a worker (or all of them) dying while nothing runs leaves loky's executor broken
  with no call to fail; the pool notices (a periodic look, and a look before every submission),
  replaces the executor, and a call that meets a broken executor before it started is run on the
  new one, however often that happens, up to MAX_BOUNCES.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import itertools
import logging
import os
import signal
import threading
import warnings
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sofia.errors import bounded
from sofia.workers.channel import Listener
from sofia.workers.protocol import CallReply, CallRequest, WorkerConfig
from sofia.workers.report import describe
from sofia.workers.tree import is_child, kill_tree
from sofia.workers.worker import initialize, run_call

if TYPE_CHECKING:
    from loky import ProcessPoolExecutor

GRACE_SECONDS = 3.0
"""How long past its soft deadline a call may run before its worker is killed."""
CANCEL_GRACE_SECONDS = 0.5
"""How long a cancelled call may take to stop on its own before its worker is killed."""
MAX_ATTEMPTS = 2
"""A call is run at most twice: once, and once more if another call's crash took it down."""
MAX_BOUNCES = 5
"""Broken executors a call may meet before it starts; past that the workers cannot be kept up."""
WATCH_SECONDS = 0.5
"""How often an idle pool looks for a broken executor (so the next call finds new workers ready)."""

ProgressSink = Callable[[float, float | None, str], None]

log = logging.getLogger("sofia.mcp")

# loky warns whenever a worker is replaced; recycling is deliberate here and logged by the pool.
warnings.filterwarnings("ignore", category=UserWarning, module=r"loky\.")


@dataclass(eq=False)
class _Generation:
    """One loky executor; replaced as a whole whenever one of its workers dies."""

    number: int
    executor: ProcessPoolExecutor
    dead: dict[int, int] | None = None
    """Exit codes of the workers already dead when loky noticed the break (the culprits)."""
    deliberate: bool = False
    """Broken by the pool killing every worker: no culprit to look for."""
    victims: dict[int, int] = dataclasses.field(default_factory=dict)
    """Workers the pool killed (pid -> the task it meant to stop): another call that had just
    moved onto such a worker is not the culprit."""
    used: bool = False
    """Whether a worker of it ever started something: a pool whose workers die as they start
    is not restarted again and again while idle."""

    def warm(self) -> None:
        """Start the workers now rather than when the first call arrives."""
        with contextlib.suppress(Exception):
            self.executor.submit(os.getpid).add_done_callback(self._warmed)

    def _warmed(self, future: Future[int]) -> None:
        if not future.cancelled() and future.exception() is None:
            self.used = True

    def pids(self) -> list[int]:
        # loky keeps its workers in `_processes` (pid -> process); nothing public lists them.
        return list(getattr(self.executor, "_processes", {}))


@dataclass(eq=False)
class _Job:
    request: CallRequest
    resubmittable: bool
    waiter: asyncio.Future[CallReply]
    progress: ProgressSink | None
    task: int = 0
    generation: _Generation | None = None
    pid: int | None = None
    started: bool = False
    """Whether any attempt reached a worker (decides resubmission of non-idempotent calls)."""
    attempts: int = 0
    """Attempts that reached a worker: only those can have crashed one."""
    bounces: int = 0
    """Times the call met a broken executor before it started (it is innocent of those)."""
    kill_reason: str = ""
    cancelled: bool = False
    timer: asyncio.TimerHandle | None = None


class WorkerPool:
    """`await pool.run(request)` runs one provider call in a worker and returns its reply."""

    def __init__(
        self,
        workers: int,
        *,
        preload: Sequence[str] = (),
        max_calls: int = 500,
        max_rss: int = 1 << 30,
    ) -> None:
        self.workers = workers
        self._preload = tuple(preload)
        self._max_calls = max_calls
        self._max_rss = max_rss
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: Listener | None = None
        self._generation: _Generation | None = None
        self._generations = itertools.count(1)
        self._tasks = itertools.count(1)
        self._queue: deque[_Job] = deque()
        self._running: dict[int, _Job] = {}
        self._closed = False
        self._watch: asyncio.TimerHandle | None = None
        self._barren = 0
        """Executors retired in a row without ever having started anything."""

    # -- life cycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Spawn the workers in the background (idempotent); they import the providers at once."""
        if self._loop is not None or self._closed:
            return
        self._loop = asyncio.get_running_loop()
        self._listener = Listener()
        self._listener.attach(self._loop, self._on_message)
        self._current().warm()
        self._watch = self._loop.call_later(WATCH_SECONDS, self._look)

    def _look(self) -> None:
        """Replace an executor that broke while idle, before a call has to find out."""
        if self._closed or self._loop is None:
            return
        generation = self._generation
        if generation is not None and (reason := _broken_state(generation.executor)) is not None:
            self._retire(generation, f"found broken while idle: {reason}")
        self._watch = self._loop.call_later(WATCH_SECONDS, self._look)

    async def close(self) -> None:
        """Stop everything: queued and running calls end, workers and their programs are killed."""
        if self._closed:
            return
        self._closed = True
        if self._watch is not None:
            self._watch.cancel()
        for job in [*self._queue, *self._running.values()]:
            self._finish(job, CallReply("interrupted"))
        self._queue.clear()
        self._running.clear()
        generation, self._generation = self._generation, None
        if generation is not None:
            for pid in generation.pids():
                kill_tree(pid)
            await _bounded(functools.partial(generation.executor.shutdown, wait=True, kill_workers=True), 1.0)
        if self._listener is not None:
            self._listener.close()

    # -- calls ------------------------------------------------------------------------------

    async def run(
        self, request: CallRequest, *, resubmittable: bool = True, progress: ProgressSink | None = None
    ) -> CallReply:
        """Run `request`; cancelling the awaiting task cancels the call (queued or running)."""
        self.start()
        if self._closed or self._loop is None:
            return CallReply("internal", message="RuntimeError: the server is shutting down")
        job = _Job(request, resubmittable, self._loop.create_future(), progress)
        self._queue.append(job)
        self._pump()
        try:
            return await asyncio.shield(job.waiter)
        except asyncio.CancelledError:
            self._cancel(job)
            raise

    def _pump(self) -> None:
        while self._queue and len(self._running) < self.workers and not self._closed:
            self._submit(self._queue.popleft())

    def _current(self) -> _Generation:
        if self._generation is None:
            from loky import ProcessPoolExecutor  # imported once the client has its `initialize` answer

            config = WorkerConfig(
                channel=self._listener.address if self._listener else b"",
                parent=os.getpid(),
                preload=self._preload,
                max_calls=self._max_calls,
                max_rss=self._max_rss,
            )
            executor = ProcessPoolExecutor(
                max_workers=self.workers, timeout=None, initializer=initialize, initargs=(config,)
            )
            self._generation = _Generation(next(self._generations), executor)
        return self._generation

    def _usable(self) -> _Generation:
        """The current executor, replaced first if it broke since the last look."""
        generation = self._current()
        reason = _broken_state(generation.executor)
        if reason is None:
            return generation
        self._retire(generation, f"found broken before a call: {reason}")
        return self._current()

    def _submit(self, job: _Job) -> None:
        assert self._loop is not None
        generation = self._usable()
        job.task, job.generation, job.pid = next(self._tasks), generation, None
        try:
            future = generation.executor.submit(run_call, dataclasses.replace(job.request, task=job.task))
        except Exception as exc:
            # Broken (or shut down) under us between the look and the submission.
            self._retire(generation, f"submit failed: {_reason(exc)}")
            self._bounce(job, exc)
            self._loop.call_soon(self._pump)
            return
        self._running[job.task] = job
        future.add_done_callback(functools.partial(self._done_in_loky_thread, generation, job.task))
        job.timer = self._loop.call_later(job.request.timeout + GRACE_SECONDS, self._hard_deadline, job.task)

    def _done_in_loky_thread(self, generation: _Generation, task: int, future: Future[CallReply]) -> None:
        """Runs in loky's manager thread, before it kills the surviving workers of a broken pool."""
        if generation.dead is None and not future.cancelled() and _broken(future.exception()):
            processes = dict(getattr(generation.executor, "_processes", {}))
            generation.dead = {
                pid: code for pid, process in processes.items() if (code := process.exitcode) is not None
            }
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._done, generation, task, future)

    def _done(self, generation: _Generation, task: int, future: Future[CallReply]) -> None:
        error = None if future.cancelled() else future.exception()
        if self._listener is not None:
            # Progress, and after a crash the "start" naming the culprit, precede the result.
            self._listener.drain(accept=_broken(error))
        job = self._running.pop(task, None)
        if job is None:
            return
        if job.timer is not None:
            job.timer.cancel()
        if future.cancelled():
            self._finish(job, CallReply("interrupted"))
        elif error is None:
            reply = future.result()
            if reply.kind == "interrupted" and not job.cancelled:
                # A cancellation signal meant for the call this worker had just finished.
                self._rerun_or_fail(job, "interrupted by a cancellation meant for another call")
            else:
                self._finish(job, reply)
        elif _broken(error):
            self._retire(generation, "a worker died")
            self._after_break(job, generation)
        else:
            self._finish(job, CallReply("internal", message=describe(error)))
        self._pump()

    def _after_break(self, job: _Job, generation: _Generation) -> None:
        dead = generation.dead or {}
        own_death = (
            job.pid is not None
            and job.pid in dead
            and not generation.deliberate
            and generation.victims.get(job.pid, job.task) == job.task
        )
        if job.cancelled:
            self._finish(job, CallReply("interrupted"))
        elif job.kill_reason == "timeout" and (own_death or generation.deliberate):
            self._finish(job, CallReply("timeout"))
        elif own_death and job.pid is not None:
            self._finish(job, CallReply("died", message=describe_exit(dead[job.pid])))
        elif job.pid is None:
            # This attempt never reached a worker: the break cannot be its doing.
            self._bounce(job, None)
        else:
            self._rerun_or_fail(job, "killed while the pool recovered from another crash")

    def _bounce(self, job: _Job, error: BaseException | None) -> None:
        """Queue again a call that met a broken executor before it started; it is innocent."""
        job.bounces += 1
        if job.bounces <= MAX_BOUNCES:
            self._queue.appendleft(job)
            return
        cause = f" (last: {_reason(error)})" if error is not None else ""
        message = (
            f"RuntimeError: the worker pool broke {job.bounces} times before the call could start"
            f"{cause}; the workers die as they start: see the server's stderr"
        )
        self._finish(job, CallReply("internal", message=message))

    def _rerun_or_fail(self, job: _Job, why: str) -> None:
        """Run an innocent call again, once; a call that may have had effects only if it never started."""
        if job.attempts < MAX_ATTEMPTS and (job.resubmittable or not job.started):
            self._queue.appendleft(job)
        else:
            self._finish(job, CallReply("died", message=why))

    def _finish(self, job: _Job, reply: CallReply) -> None:
        if job.timer is not None:
            job.timer.cancel()
        if not job.waiter.done():
            job.waiter.set_result(reply)

    def _retire(self, generation: _Generation, reason: str) -> None:
        """Take a broken executor out of service; the next submission starts a new one."""
        if self._generation is not generation:
            return
        self._generation = None
        log.warning("worker pool %d restarted: %s", generation.number, reason)
        with contextlib.suppress(Exception):
            generation.executor.shutdown(wait=False, kill_workers=True)
        self._barren = 0 if generation.used else self._barren + 1
        if not self._closed and self._barren < MAX_BOUNCES:
            self._current().warm()

    # -- deadlines and cancellation -----------------------------------------------------------

    def _hard_deadline(self, task: int) -> None:
        job = self._running.get(task)
        if job is not None:
            job.kill_reason = job.kill_reason or "timeout"
            self._kill(job)

    def _cancel(self, job: _Job) -> None:
        job.cancelled = True
        if job in self._queue:
            self._queue.remove(job)
            self._finish(job, CallReply("interrupted"))
            return
        if self._running.get(job.task) is not job or self._loop is None:
            return
        if job.pid is not None:
            self._signal(job.pid, signal.SIGUSR1)
        self._loop.call_later(CANCEL_GRACE_SECONDS, self._escalate, job.task)

    def _escalate(self, task: int) -> None:
        job = self._running.get(task)
        if job is None or not job.cancelled or self._loop is None:
            return
        if job.pid is None:
            # Not picked up yet (workers still starting): it is interrupted the moment it starts.
            self._loop.call_later(CANCEL_GRACE_SECONDS, self._escalate, task)
            return
        job.kill_reason = "cancel"
        self._kill(job)

    def _kill(self, job: _Job) -> None:
        """Kill the worker running `job` and its programs; loky then breaks and `_done` recovers."""
        generation = job.generation
        if job.pid is not None and is_child(job.pid):
            if generation is not None:
                generation.victims[job.pid] = job.task
            kill_tree(job.pid)
            return
        # The call never reached a worker in time: something is wedged, so start over entirely.
        if generation is not None:
            generation.deliberate = True
            for pid in generation.pids():
                kill_tree(pid)

    @staticmethod
    def _signal(pid: int, signum: int) -> None:
        if is_child(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)

    # -- messages from workers ----------------------------------------------------------------

    def _on_message(self, sender: int, fields: list[Any]) -> None:
        kind, task = fields[0], fields[1]
        job = self._running.get(task) if isinstance(task, int) else None
        if job is None:
            return
        if kind == "start":
            job.pid, job.started = sender, True
            job.attempts += 1
            if job.generation is not None:
                job.generation.used = True
            if job.cancelled:
                self._signal(sender, signal.SIGUSR1)
        elif kind == "progress" and job.progress is not None and not job.cancelled and len(fields) >= 5:
            done, total, message = fields[2], fields[3], fields[4]
            if isinstance(done, int | float) and (total is None or isinstance(total, int | float)):
                job.progress(float(done), None if total is None else float(total), str(message))


def _broken_state(executor: ProcessPoolExecutor) -> str | None:
    """Why `executor` can take no more calls (broken, or shut down), or None while it can."""
    # loky keeps this state in `_flags` (set by its manager thread the moment a worker dies);
    # nothing public exposes it, and `submit` raising is the only other way to learn of it.
    flags = getattr(executor, "_flags", None)
    if flags is None:
        return None
    broken = getattr(flags, "broken", None)
    if broken is not None:
        return _reason(broken)
    if getattr(flags, "shutdown", False):
        return "shut down"
    return None


def _reason(error: BaseException | None) -> str:
    """One bounded line for the log: loky's break messages run to five lines."""
    if error is None:
        return "unknown"
    text = str(error)
    codes = next((line for line in text.splitlines() if "exit codes" in line), "")
    head = text.splitlines()[0].split(". ")[0] if text else ""
    return bounded(f"{type(error).__name__}: {head} {codes}".strip(), 300)


def _broken(error: BaseException | None) -> bool:
    """Whether loky failed a call because its executor broke (a worker died)."""
    from loky.process_executor import BrokenProcessPool

    return isinstance(error, BrokenProcessPool)


async def _bounded(action: Callable[[], object], seconds: float) -> None:
    """Run a blocking `action` on a daemon thread and wait for it at most `seconds`."""
    thread = threading.Thread(target=action, name="pool-shutdown", daemon=True)
    thread.start()
    for _ in range(int(seconds / 0.01)):
        if not thread.is_alive():
            return
        await asyncio.sleep(0.01)


def describe_exit(code: int) -> str:
    """`SIGSEGV`, `SIGKILL`, `exit code 3`: how a worker ended, for the error message."""
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"
