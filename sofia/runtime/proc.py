"""Running external programs the one safe way: argument lists, no shell, stdin from /dev/null,
captured output, an explicit timeout, and a process group of their own so a timeout (or a
deadline interrupting the caller) kills the whole tree.

A child in a session of its own does not see the terminal's Ctrl-C, and a thread waiting on it
(composer_check runs checks in threads) does not see the KeyboardInterrupt of the main thread. So
every running child is known here, and `children_end_on_interrupt` (the CLI's) makes SIGINT and
SIGTERM kill all of them at once and refuse to start new ones before the main thread unwinds.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import IO

_running: set[subprocess.Popen[bytes]] = set()
"""Children started here that have not been reaped (adding and discarding are atomic)."""
_stopping = threading.Event()
"""Set by `stop_all`: no new child starts until the interrupted command has unwound."""


class ProgramNotFound(FileNotFoundError):
    """The executable is not installed (or not on PATH). Internal, the FileNotFoundError `exec`
    raises, named (see the drawing in `sofia.errors`)."""

    def __init__(self, program: str) -> None:
        super().__init__(f"{program} not found")
        self.program = program


class ProgramTimeout(TimeoutError):
    """The program ran past its timeout; its process group was killed. Internal, a TimeoutError
    (see the drawing in `sofia.errors`)."""

    def __init__(self, args: Sequence[str], timeout: float) -> None:
        super().__init__(f"{args[0]} timed out after {timeout:g} s")
        self.timeout = timeout


@dataclass(frozen=True)
class Completed:
    args: list[str]
    returncode: int
    stdout: bytes
    stderr: bytes

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8", "replace")

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", "replace")

    def last_error_line(self) -> str:
        """The last non-blank stderr line: usually the one that says what went wrong."""
        for line in reversed(self.err.splitlines()):
            if line.strip():
                return line.strip()
        return ""


def environment(add: Mapping[str, str] | None = None, remove: Iterable[str] = ()) -> dict[str, str]:
    """The current environment with `add` set and `remove` unset."""
    env = dict(os.environ)
    for key in remove:
        env.pop(key, None)
    if add:
        env.update(add)
    return env


def run(
    args: Sequence[str],
    *,
    timeout: float,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    input: bytes | None = None,
) -> Completed:
    """Run `args` to completion and capture its output; never raises on a non-zero exit.

    Raises ProgramNotFound when the executable is missing and ProgramTimeout after killing the
    process group when `timeout` passes. Any exception raised while waiting (a deadline signal)
    also kills the group before it propagates, so no child outlives its call.
    """
    _refuse_when_stopping()
    try:
        proc = subprocess.Popen(
            list(args),
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except FileNotFoundError as exc:
        raise ProgramNotFound(args[0]) from exc
    except PermissionError as exc:
        raise ProgramNotFound(args[0]) from exc
    try:
        _track(proc)
        stdout, stderr = proc.communicate(input=input, timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        raise ProgramTimeout(args, timeout) from None
    except BaseException:
        kill_group(proc)
        raise
    finally:
        _running.discard(proc)
    if _stopping.is_set():
        raise KeyboardInterrupt  # killed by `stop_all`: its output is not an answer
    return Completed(list(args), proc.returncode, stdout, stderr)


def _refuse_when_stopping() -> None:
    if _stopping.is_set():
        raise KeyboardInterrupt


def _track(proc: subprocess.Popen[bytes]) -> None:
    """Known to `stop_all` from now on; killed at once when `stop_all` ran before it got here."""
    _running.add(proc)
    if _stopping.is_set():
        raise KeyboardInterrupt


def stop_all() -> int:
    """Kill the process group of every running child now and start no new one until the command
    has unwound; returns how many were signalled. Safe in a signal handler: it only sends
    signals (each child's own thread reaps it)."""
    _stopping.set()
    signalled = 0
    for proc in _running.copy():
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
                signalled += 1
    return signalled


@contextlib.contextmanager
def children_end_on_interrupt() -> Iterator[None]:
    """While inside: Ctrl-C (SIGINT) and SIGTERM kill every running child at once (`stop_all`),
    then raise KeyboardInterrupt (SIGTERM: SystemExit 143) in the main thread, so threads waiting
    on children return at once instead of when their programs end. A signal the process ignores
    stays ignored; outside the main thread nothing changes (only it can handle signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(number: int, frame: FrameType | None) -> None:
        stop_all()
        if number == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + number)

    previous = {}
    for number in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(number) is not signal.SIG_IGN:
            previous[number] = signal.signal(number, on_signal)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        _stopping.clear()


class Background:
    """A program started now and collected later, under the same rules as `run`.

    Its output goes to unnamed temporary files rather than pipes, so it can never stall on a full
    pipe while the caller is busy elsewhere (importing, validating) before it collects.
    """

    def __init__(self, args: Sequence[str], *, cwd: str | os.PathLike[str] | None = None) -> None:
        import tempfile

        _refuse_when_stopping()
        self.args = list(args)
        self._stdout = tempfile.TemporaryFile()  # noqa: SIM115 - kept open until wait() or kill()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self._proc = subprocess.Popen(
                self.args,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=self._stdout,
                stderr=self._stderr,
                start_new_session=True,
            )
        except (FileNotFoundError, PermissionError) as exc:
            self._close()
            raise ProgramNotFound(self.args[0]) from exc
        try:
            _track(self._proc)
        except BaseException:
            self.kill()
            raise

    def wait(self, timeout: float, *, stdout_from: int = 0) -> Completed:
        """Its result once it exits; ProgramTimeout (group killed) when `timeout` passes first.
        `stdout_from` leaves out the first bytes of its output (those a caller already `peek`ed)."""
        try:
            returncode = self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise ProgramTimeout(self.args, timeout) from None
        except BaseException:
            self.kill()
            raise
        _running.discard(self._proc)
        stdout, stderr = self._read(self._stdout, stdout_from), self._read(self._stderr)
        self._close()
        return Completed(self.args, returncode, stdout, stderr)

    def running(self) -> bool:
        """Whether it has not exited yet."""
        return self._proc.poll() is None

    def peek(self, offset: int, size: int = 1 << 20) -> bytes:
        """Up to `size` bytes of what it has written to standard output so far, from `offset`,
        read without moving the file position it writes at (so it can be read while it runs)."""
        return os.pread(self._stdout.fileno(), size, offset)

    def kill(self) -> None:
        """Kill its process group and release its files; safe to call more than once (a program
        already reaped is not signalled: its group id may belong to another process by now)."""
        if self._proc.returncode is None:
            kill_group(self._proc)
        _running.discard(self._proc)
        self._close()

    @staticmethod
    def _read(handle: IO[bytes], offset: int = 0) -> bytes:
        handle.seek(offset)
        return handle.read()

    def _close(self) -> None:
        self._stdout.close()
        self._stderr.close()


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill `proc` and everything in its process group, then reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired, ValueError, OSError):
        proc.communicate(timeout=5)
