"""Locating ripgrep and walking trees with it, so every walk (code, grep, vue) follows one rule set:
.gitignore/.ignore/excludes honoured even outside git, hidden files included, symlinks not
followed, and the default ignore directories skipped below the starting point where git tracks no
file in them (`skips`)."""

from __future__ import annotations

import os
import re
import shutil
import sys
import sysconfig
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from sofia.errors import ProviderError
from sofia.runtime import proc, skips

DEFAULT_IGNORE_DIRS = (*skips.VCS_DIRS, *skips.NAMED_DIRS)
"""Directory names skipped at any depth below the starting point (the named ones only where git
tracks no file in them: `skips`); a root named explicitly is searched."""

MIN_VERSION = (14, 1)
REINSTALL = "reinstall sofia (it depends on the ripgrep wheel) or put rg >= 14.1 on PATH"


def not_found() -> ProviderError:
    """A fresh error each time: a shared instance would collect every raise's traceback."""
    return ProviderError("ripgrep (rg) not found", REINSTALL)


def candidates() -> list[str]:
    """Where rg may live, in order: the interpreter's scripts dir, beside the interpreter, PATH."""
    found: list[str] = []
    scripts = sysconfig.get_path("scripts")
    if scripts:
        found.append(os.path.join(scripts, "rg"))
    found.append(os.path.join(os.path.dirname(sys.executable), "rg"))
    on_path = shutil.which("rg")
    if on_path:
        found.append(on_path)
    return found


@cache
def locate() -> tuple[str, str]:
    """The rg executable and its version string, checked once per process."""
    for path in candidates():
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            continue
        try:
            done = proc.run([path, "--version"], timeout=10)
        except (proc.ProgramNotFound, proc.ProgramTimeout):
            continue
        match = re.match(r"ripgrep (\d+)\.(\d+)\.(\d+)", done.out)
        if not match:
            continue
        version = tuple(int(g) for g in match.groups())
        if version[:2] < MIN_VERSION:
            raise ProviderError(
                f"ripgrep {'.'.join(map(str, version))} at {path} is too old",
                "reinstall sofia (it depends on the ripgrep wheel) or put rg >= 14.1 on PATH",
            )
        return path, ".".join(map(str, version))
    raise not_found()


def executable() -> str:
    return locate()[0]


def walk_args(
    ignore_dirs: Iterable[str] = (), *, cwd: Path | None = None, defaults: bool = True
) -> list[str]:
    """The rg options shared by every walk and search run in `cwd` (after `rg --no-config`):
    hidden files, ignore files honoured in and outside git (`skips.repository_args`), the default
    skips of `skips.rules`, and `ignore_dirs` skipped at any depth whatever git tracks. Without a
    `cwd` every default name is skipped everywhere (no tracked exception); `defaults=False` leaves
    the defaults out for a caller with a pruning rule of its own."""
    args = ["--hidden", *(skips.repository_args(cwd) if cwd is not None else ["--no-require-git"])]
    if defaults and cwd is not None:
        args += skips.rules(cwd)
    elif defaults:
        args += [f"--glob=!{name}/" for name in DEFAULT_IGNORE_DIRS]
    args += [f"--glob=!{name}/" for name in ignore_dirs]
    return args


def counted(done: proc.Completed) -> tuple[skips.Skips, proc.Completed]:
    """What a run given `skips.COUNT` skipped by default, and the run without those lines on its
    stderr (so its errors read as ever)."""
    found, rest = skips.read(done.stderr)
    return found, replace(done, stderr=rest) if rest is not done.stderr else done


class Probe:
    """The directories a walk of `paths` skips by default name, for a run that keeps only some
    file names (`--iglob`): given `skips.COUNT`, such a run would name every file it leaves out
    (the kernel: 79,000 lines, three and a half times the run's work). The probe walks the same
    tree under the same rules without the name filter, reading no file, and its listing is
    discarded; started beside the run, it costs one directory walk."""

    def __init__(self, paths: Sequence[str], *, cwd: Path, ignore_dirs: Iterable[str] = ()) -> None:
        args = [executable(), "--no-config", "--files", *walk_args(ignore_dirs, cwd=cwd), skips.COUNT]
        try:
            self.started = proc.Background([*args, "--", *paths], cwd=cwd)
        except proc.ProgramNotFound:
            raise not_found() from None

    def skips(self, timeout: float) -> skips.Skips:
        """What it found; nothing when it could not finish in `timeout` (the run's answer does
        not wait on the note)."""
        try:
            done = self.started.wait(timeout)
        except proc.ProgramTimeout:
            return skips.Skips()
        return counted(done)[0]

    def kill(self) -> None:
        self.started.kill()


UNNAMED = "(an entry ripgrep did not name)"
"""The path shown for a problem rg reports without one (a directory it cannot list, on some
file systems)."""
VANISHED = "vanished"

_OS_ERROR = re.compile(r"\s*\(os error (\d+)\)$")
_IO_ERROR = re.compile(r"(?P<path>.*?): IO error for operation on (?P=path): (?P<message>.*)")
_NO_SUCH_FILE = 2


@dataclass(frozen=True)
class Skipped:
    """An entry a walk or search could not read: its path as rg printed it, and why."""

    path: str
    reason: str
    """`vanished` (deleted while rg ran) or `unreadable: <system message>`."""


@dataclass(frozen=True)
class Listing:
    """What a file walk found, and what it had to skip."""

    files: list[str]
    skipped: list[Skipped]
    defaults: skips.Skips = field(default_factory=skips.Skips)
    """What the walk skipped by default (directories by name), for the caller's note."""


def problems(stderr: str) -> list[Skipped]:
    """rg's per-entry errors (`rg: <path>: <message> (os error N)`), paths without `./`.

    Such errors are not fatal: rg carries on with the rest and exits with status 2 at the end.
    """
    found: list[Skipped] = []
    for line in stderr.splitlines():
        errno = _OS_ERROR.search(line)
        if not line.startswith("rg: ") or errno is None or line.startswith("rg: DEBUG|"):
            continue
        body = line[4 : errno.start()]
        io_error = _IO_ERROR.fullmatch(body)
        if io_error:
            path, message = io_error.group("path"), io_error.group("message")
        elif ": " in body:
            path, message = body.rsplit(": ", 1)
        else:
            path, message = UNNAMED, body
        if int(errno.group(1)) == _NO_SUCH_FILE:
            reason = VANISHED
        else:
            reason = "unreadable: " + (message.strip() or f"os error {errno.group(1)}")
        found.append(Skipped(path.removeprefix("./"), reason))
    return found


def failure(done: proc.Completed) -> str:
    """Why an rg run failed, in words: its last error line, else its exit status; never empty."""
    line = done.last_error_line().removeprefix("rg: ").strip()
    if line:
        return line
    if done.returncode < 0:
        return f"ripgrep was killed by signal {-done.returncode}"
    return f"ripgrep exited with status {done.returncode} without saying why"


def outcome(done: proc.Completed, what: str, *, results: bool) -> list[Skipped]:
    """The skipped entries of a finished run; a ProviderError when the run failed as a whole.

    Status 0 and 1 are success (matches or none). Status 2 is rg's "some error happened": with
    per-entry errors, or with results, it is a partial success — what rg could read is complete,
    and the skipped entries say what it could not (one unnamed entry carrying rg's own words when
    it named none). Status 2 with neither, or any other status, is a failure of the run itself.
    """
    if done.returncode in (0, 1):
        return problems(done.err)
    if done.returncode == 2:
        skipped = problems(done.err)
        if skipped:
            return skipped
        if results:
            return [Skipped(UNNAMED, "unreadable: " + failure(done))]
    raise ProviderError(f"ripgrep failed {what}: {failure(done)}", "check the path and its permissions")


def walk(
    paths: Sequence[str],
    *,
    cwd: Path,
    globs: Iterable[str] = (),
    ignore_dirs: Iterable[str] = (),
    extra: Sequence[str] = (),
    defaults: bool = True,
    timeout: float = 60.0,
) -> Listing:
    """Files under `paths` (relative to `cwd`) that a walk keeps, sorted by path bytes, without `./`,
    the entries it could not read, and the directories it skipped by default name.

    `globs` are rg include globs (`*.php`); `extra` are further rg options (rules of a caller's own);
    `defaults=False` walks into DEFAULT_IGNORE_DIRS too.
    Only regular files are listed: rg's walk passes over FIFOs, devices and sockets.
    """
    globs = list(globs)
    probe = Probe(paths, cwd=cwd, ignore_dirs=ignore_dirs) if globs and defaults else None
    args = [
        executable(),
        "--no-config",
        "--files",
        "--null",
        *walk_args(ignore_dirs, cwd=cwd, defaults=defaults),
        *((skips.COUNT,) if defaults and not globs else ()),
        *extra,
    ]
    args.extend(f"--iglob={g}" for g in globs)
    args.append("--")
    args.extend(paths)
    try:
        done = proc.run(args, cwd=cwd, timeout=timeout)
    except BaseException as error:
        if probe is not None:
            probe.kill()
        if isinstance(error, proc.ProgramNotFound):
            raise not_found() from None
        raise
    found, done = counted(done)
    if probe is not None:
        found = probe.skips(timeout)
    names = [os.fsdecode(p) for p in done.stdout.split(b"\0") if p]
    skipped = outcome(done, f"listing {', '.join(paths)}", results=bool(names))
    cleaned = [n[2:] if n.startswith("./") else n for n in names]
    return Listing(sorted(set(cleaned), key=os.fsencode), skipped, found)


def list_files(
    paths: Sequence[str],
    *,
    cwd: Path,
    globs: Iterable[str] = (),
    ignore_dirs: Iterable[str] = (),
    timeout: float = 60.0,
) -> list[str]:
    """Only the files of `walk`: for a caller whose answer cannot depend on an unreadable entry.
    A walk whose result the user sees must call `walk` and say what it skipped (`skipped_note`)."""
    return walk(paths, cwd=cwd, globs=globs, ignore_dirs=ignore_dirs, timeout=timeout).files


def skipped_note(skipped: Sequence[Skipped], what: str) -> str:
    """One note for entries a walk could not read: how many, and the first as an example."""
    first = skipped[0]
    count = len(skipped)
    more = f" and {count - 1} more" if count > 1 else ""
    return (
        f"{count} entr{'y' if count == 1 else 'ies'} could not be read and {what}: "
        f"{first.path} ({first.reason}){more}"
    )


def files_with_words(
    words: Sequence[str],
    paths: Sequence[str],
    *,
    cwd: Path,
    globs: Iterable[str] = (),
    ignore_dirs: Iterable[str] = (),
    timeout: float = 60.0,
    binary: bool = False,
) -> list[str]:
    """Files under `paths` holding any of `words` as a whole word (literal, case-sensitive), walked
    as `list_files` walks, sorted by path bytes, without `./`; with `binary`, the files ripgrep
    would stop reading at a NUL byte too."""
    found = {
        path
        for batch in files_with_words_as_found(
            words, paths, cwd=cwd, globs=globs, ignore_dirs=ignore_dirs, timeout=timeout, binary=binary
        )
        for path in batch
    }
    return sorted(found, key=os.fsencode)


FOUND_POLL = 0.005
"""Seconds between looks at a running listing that has written nothing new."""


def files_with_words_as_found(
    words: Sequence[str],
    paths: Sequence[str],
    *,
    cwd: Path,
    globs: Iterable[str] = (),
    ignore_dirs: Iterable[str] = (),
    timeout: float = 60.0,
    binary: bool = False,
) -> Iterator[list[str]]:
    """`files_with_words`' files in the order ripgrep reports them, a batch at a time while it
    walks, so a caller parses the first files while the rest are searched (a path may come
    twice when `paths` overlap). The run counts (`path NUL count` lines, line-buffered): a
    listing ends each path with NUL, never a newline, and rg then holds all of it until it
    exits (the kernel's 11 files of `copy_process`, found in 0.13 s, came at 0.83 s)."""
    import time

    if not words or not paths:
        return
    args = [executable(), "--no-config", "--count", "--with-filename", "--null", "--line-buffered"]
    args += ["--no-messages", *(["--binary"] if binary else [])]
    args += ["--fixed-strings", "--word-regexp", "--case-sensitive", *walk_args(ignore_dirs, cwd=cwd)]
    args.extend(f"--iglob={g}" for g in globs)
    args.extend(f"--regexp={w}" for w in words)
    give_up = time.monotonic() + timeout
    for batch in _batches(paths):
        try:
            started = proc.Background([*args, "--", *batch], cwd=cwd)
        except proc.ProgramNotFound:
            raise not_found() from None
        try:
            offset = 0
            while True:
                running = started.running()
                lines, used = count_lines(started.peek(offset))
                if lines:
                    offset += used
                    yield [_listed_path(raw) for raw, _ in lines]
                elif not running:
                    break
                elif time.monotonic() > give_up:
                    raise proc.ProgramTimeout(started.args, timeout)
                else:
                    time.sleep(FOUND_POLL)
            done = started.wait(max(0.0, give_up - time.monotonic()), stdout_from=offset)
        finally:
            started.kill()
        if done.returncode not in (0, 1, 2):  # 2: some entries could not be read (--no-messages)
            raise ProviderError(
                f"ripgrep failed: {done.last_error_line()}", "check the path and its permissions"
            )


COUNT_LINE = re.compile(rb"([^\x00]*)\x00(\d+)\n")
"""One line of a count run with `--null`: the path (which may hold a newline), NUL, the count."""


def count_lines(output: bytes) -> tuple[list[tuple[bytes, int]], int]:
    """The complete `path NUL count` lines at the start of a count run's partial output, and how
    many bytes they take (the rest is a line still being written)."""
    found: list[tuple[bytes, int]] = []
    end = 0
    for match in COUNT_LINE.finditer(output):
        if match.start() != end:
            break
        found.append((match.group(1), int(match.group(2))))
        end = match.end()
    return found, end


def _listed_path(raw: bytes) -> str:
    name = os.fsdecode(raw)
    return name[2:] if name.startswith("./") else name


def _batches(paths: Sequence[str], limit: int = 100_000) -> list[list[str]]:
    """Paths split so no command line carries more than `limit` bytes of them."""
    batches: list[list[str]] = [[]]
    size = 0
    for path in paths:
        if batches[-1] and size + len(path) + 1 > limit:
            batches.append([])
            size = 0
        batches[-1].append(path)
        size += len(path) + 1
    return batches
