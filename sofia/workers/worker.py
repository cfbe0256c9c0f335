"""What runs inside a worker process: start-up, the call entry point, deadlines and recycling.

A call runs on the worker's main thread, so signals can interrupt Python code: SIGALRM is the
soft deadline, SIGUSR1 a cancellation. Code stuck in C never sees them; the server's hard
deadline kills the worker instead (`sofia.workers.pool`).
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
import time
import traceback
from contextlib import suppress
from pathlib import Path
from typing import Any

from sofia.errors import render, render_all
from sofia.output.jsonfmt import compact
from sofia.providers.contract import Context, DeadlineExceeded, Outcome, ProviderError
from sofia.providers.registry import Provider, by_name
from sofia.runtime.proc import ProgramTimeout
from sofia.workers.channel import MAX_MESSAGE_CHARS, Sender
from sofia.workers.protocol import CallReply, CallRequest, WorkerConfig
from sofia.workers.report import describe, print_traceback
from sofia.workers.tree import kill_tree

PARENT_CHECK_SECONDS = 0.5
PROGRESS_INTERVAL = 0.05
"""Seconds between two progress reports of one call."""


class _Interrupt(BaseException):
    """Raised by a signal handler; a BaseException so a provider's `except Exception` cannot swallow it."""


class _SoftDeadline(_Interrupt):
    pass


class _Cancelled(_Interrupt):
    pass


class _State:
    config: WorkerConfig | None = None
    sender: Sender | None = None
    calls = 0
    interruptible = False
    """True only while a provider runs: signals arriving at any other moment are ignored."""
    preloaded = threading.Event()
    """Clear while the preload thread imports: a call waits for it, because two threads importing
    the same modules, whose imports form cycles, can each see the other's half-run module
    (`cannot import name ... from partially initialized module`)."""


_state = _State()
_state.preloaded.set()


def initialize(config: WorkerConfig) -> None:
    """loky's initializer. It never raises: a failing initializer would break the whole pool."""
    try:
        _isolate_std_streams()
        _state.config = config
        _state.sender = Sender(config.channel)
        signal.signal(signal.SIGALRM, _on_signal)
        signal.signal(signal.SIGUSR1, _on_signal)
        # Ctrl-C in a terminal reaches the whole process group; the server decides how to stop.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        threading.Thread(
            target=_watch_parent, args=(config.parent,), name="parent-watch", daemon=True
        ).start()
        # In the background: a call arriving meanwhile waits for it (see `_State.preloaded`).
        _state.preloaded.clear()
        try:
            threading.Thread(target=_preload, args=(config.preload,), name="preload", daemon=True).start()
        except Exception:
            _state.preloaded.set()
            raise
    except Exception:
        traceback.print_exc(file=sys.stderr)


def _isolate_std_streams() -> None:
    """fd 0 on /dev/null, fd 1 on stderr: nothing a provider or its children print reaches the protocol."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # Writes through the original object (`print(file=sys.__stdout__)`) reach stderr line by line
    # instead of sitting in a block buffer until the worker exits.
    original = sys.__stdout__
    if original is not None and hasattr(original, "reconfigure"):
        original.reconfigure(line_buffering=True)


def _watch_parent(parent: int) -> None:
    """Exit (taking our subprocesses along) as soon as the server is gone, however it died."""
    while True:
        time.sleep(PARENT_CHECK_SECONDS)
        if os.getppid() != parent:
            kill_tree(os.getpid(), include_root=False)
            os._exit(0)


def _preload(modules: tuple[str, ...]) -> None:
    """Import the providers and load the grammars now, so the first call does not pay for it."""
    try:
        _import_all(modules)
    finally:
        _state.preloaded.set()


def _import_all(modules: tuple[str, ...]) -> None:
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception:
            traceback.print_exc(file=sys.stderr)
    try:
        from sofia.syntax.grammars import GRAMMARS, language

        for grammar in GRAMMARS:
            language(grammar)
    except Exception:
        traceback.print_exc(file=sys.stderr)


def _on_signal(signum: int, frame: Any) -> None:
    if not _state.interruptible:
        return
    _state.interruptible = False
    raise _SoftDeadline() if signum == signal.SIGALRM else _Cancelled()


def run_call(request: CallRequest) -> CallReply:
    """The task the server submits: run one provider call and serialise what it returned."""
    try:
        return _interruptible(request)
    finally:
        _state.calls += 1
        _recycle_if_due()


def _interruptible(request: CallRequest) -> CallReply:
    try:
        # Interruptible before the server learns where the call runs: a cancellation it sends
        # on hearing "start" must not be ignored.
        _state.interruptible = True
        if _state.sender is not None:
            _state.sender.send("start", request.task)
        signal.setitimer(signal.ITIMER_REAL, max(request.timeout, 0.001))
        try:
            return _execute(request)
        finally:
            _state.interruptible = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _SoftDeadline:
        return CallReply("timeout")
    except _Cancelled:
        return CallReply("interrupted")


def _execute(request: CallRequest) -> CallReply:
    _state.preloaded.wait()  # interruptible: the call's deadline and a cancellation still apply
    provider = by_name(request.tool)
    if provider is None:
        return CallReply("internal", message=f"KeyError: no provider named {request.tool}")
    relay = _ProgressRelay(_state.sender, request.task) if request.progress else None
    _enter(request.root)
    ctx = Context(
        root=Path(request.root),
        budget=request.budget,
        deadline=time.monotonic() + request.timeout,
        progress=relay or _silent,
        allowed=tuple(Path(root) for root in request.allowed),
    )
    try:
        params = provider.params.model_validate(request.arguments)
        return _encode(provider, provider.run(params, ctx), toon=request.payload == "toon")
    except ProviderError as exc:
        return CallReply("provider_error", message=str(exc))
    except (DeadlineExceeded, ProgramTimeout) as exc:
        if isinstance(exc, DeadlineExceeded) or (ctx.time_left() or 0.0) <= 0:
            return CallReply("timeout")
        return _internal(exc)
    except Exception as exc:
        return _internal(exc)
    finally:
        if relay is not None:
            relay.flush()


def _enter(root: str) -> None:
    """Run the call in its workspace, as the CLI runs in its own: the workspace can change during a
    session (the client's roots), and a program a provider starts without a directory, or a
    relative path it resolves by itself, must land there and not in the server's start directory."""
    with suppress(OSError):  # the directory left may be gone; the one entered may be too, and
        # then the provider reports the paths it cannot read
        if _cwd() != root:
            os.chdir(root)


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return ""


def _internal(exc: Exception) -> CallReply:
    print_traceback(exc)
    return CallReply("internal", message=describe(exc))


def _silent(done: int, total: int | None, message: str) -> None:
    return None


class _ProgressRelay:
    """A call's progress reports, at most one per PROGRESS_INTERVAL (a provider reporting every file
    of a big tree would flood the client); the last one held back goes out before the result."""

    def __init__(self, sender: Sender | None, task: int) -> None:
        self._sender = sender
        self._task = task
        self._sent_at = 0.0
        self._pending: tuple[Any, ...] | None = None
        self._lock = threading.Lock()  # providers may report from their own threads

    def __call__(self, done: int, total: int | None, message: str) -> None:
        fields = ("progress", self._task, done, total, str(message)[:MAX_MESSAGE_CHARS])
        with self._lock:
            now = time.monotonic()
            if now - self._sent_at < PROGRESS_INTERVAL and (total is None or done < total):
                self._pending = fields
                return
            self._pending = None
            self._sent_at = now
        self._send(fields)

    def flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            self._send(pending)

    def _send(self, fields: tuple[Any, ...]) -> None:
        if self._sender is not None:
            self._sender.send(*fields)


def _encode(provider: Provider, result: Any, *, toon: bool = False) -> CallReply:
    """The payload: the provider's own text for results it sends as text, else compact JSON, or
    with `toon` its TOON form when that costs no more tokens than the JSON; every parameter
    reference in it spelled `name=value`."""
    if isinstance(result, Outcome):
        result = result.result
    result = render_all(result)  # parameter references, as the MCP caller spells them
    text = result if isinstance(result, str) else provider.as_text(result)
    if text is not None:
        return CallReply("text", payload=render(text).encode("utf-8", "surrogatepass"))
    document = compact(result)
    if toon:
        from sofia.output.toon import payload

        encoded = payload(document)
        if encoded is not None:
            return CallReply("toon", payload=encoded.encode("utf-8"))
    return CallReply("json", payload=document)


def _recycle_if_due() -> None:
    """Ask loky to replace this worker once the current result is sent (its own recycling path).

    loky recycles a worker whose memory grew past a threshold; pulling the threshold below zero
    makes the next check, right after this call's result goes out, retire the worker cleanly
    without breaking the pool.
    """
    config = _state.config
    if config is None:
        return
    due = _state.calls >= config.max_calls
    if not due:
        import psutil

        due = psutil.Process().memory_info().rss >= config.max_rss
    if due:
        import loky.process_executor as loky_executor

        loky_executor._MEMORY_LEAK_CHECK_DELAY = 0
        loky_executor._MAX_MEMORY_LEAK_SIZE = -(1 << 62)
