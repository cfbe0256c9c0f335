"""The three ways grep drives ripgrep: checking a regex on empty input, counting matches per file
over the whole walk, and reading the matches of chosen files as JSON.

Every run uses `--no-config`, stdin from /dev/null, patterns only as `--regexp=` and paths only
after `--`, so neither user configuration nor a hostile pattern or file name can change its meaning.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sofia.errors import param
from sofia.providers.contract import Context, DeadlineExceeded, ProviderError
from sofia.providers.grep import prestarted
from sofia.providers.grep.matches import Hit, data_bytes
from sofia.runtime import files as filekinds
from sofia.runtime import proc, rg, skips

if TYPE_CHECKING:
    from sofia.providers.grep.combined import Attributed, Walked
    from sofia.providers.grep.request import Request

MAX_PROCESSES = 4
"""rg processes running at once (each is itself multi-threaded)."""
RG_TIMEOUT = 600.0
"""Seconds one rg run may take when the call has no deadline of its own."""
CHECK_TIMEOUT = 10.0
MAX_ARGS_BYTES = 100_000
"""Command-line bytes of explicit paths per detail run (well under every platform's limit)."""
STREAM_CHUNK = 4 << 20
"""Bytes of a running walk's output decoded at a time."""
STREAM_POLL = 0.005
"""Seconds between looks at a running run's output when it has written nothing new."""
WALK_LINES = 200_000
"""Matching lines the one walk of several patterns reads at most: past that (or WALK_BYTES of
output) it stops, and its broadest patterns are counted by rg alone (`Ripgrep.walk_all`), so
Python never decodes every line of a pattern that matches most of a tree."""
WALK_BYTES = 128 << 20
HEADING = ("--with-filename", "--heading", "--null", "--line-number", "--color=never")
"""The walk's output format: each file's path once (ended by NUL), then `NUMBER:line` lines."""
SAMPLE_LINES = 20_000
"""Lines of a stopped walk on which each pattern rg alone attributes is counted, to tell the
broad ones (the literals counted here are counted on every line read)."""

_SEARCHED = re.compile(rb"^(\d+) bytes searched$", re.MULTILINE)
"""The line of rg's `--stats` (printed after the counts) that says how much it read."""


@dataclass
class Counted:
    counts: dict[bytes, int]
    problems: dict[str, str]
    """Display path -> skip reason, from rg's stderr."""
    skips: skips.Skips = field(default_factory=skips.Skips)
    """What the walk skipped by default (directories by name, binary files)."""
    searched: int = 0
    """Bytes ripgrep searched (its `--stats`): what a walk of the tree costs."""


@dataclass
class Detailed:
    hits: list[Hit] = field(default_factory=list)
    binary: set[bytes] = field(default_factory=set)
    problems: dict[str, str] = field(default_factory=dict)


def display_path(raw: bytes) -> str:
    """A path as shown in results: relative to the root, `/`-separated, without `./`, U+FFFD for bad bytes."""
    text = raw.decode("utf-8", "replace")
    return text[2:] if text.startswith("./") else text


class Ripgrep:
    """rg with one request's matching options, run in the request's directory under the call deadline."""

    def __init__(self, request: Request, ctx: Context) -> None:
        self.request = request
        self.ctx = ctx
        self.executable = rg.executable()
        self.matching = _matching_args(request)
        self.walk = [f"--iglob=*.{ext}" for ext in request.exts]
        self.walk += rg.walk_args(request.ignore_dirs, cwd=request.cwd)
        self.counting = [] if request.exts else [skips.COUNT]
        """`skips.COUNT` where it is cheap: with `exts` a run would name every file of another
        extension, so `probe` walks for the note instead."""

    def probe(self) -> rg.Probe | None:
        """The walk that names what the runs skipped by default, for runs that cannot (`exts`)."""
        if not self.request.exts:
            return None
        return rg.Probe([self.request.target], cwd=self.request.cwd, ignore_dirs=self.request.ignore_dirs)

    def check_regex(self, pattern: str) -> None:
        """Compile `pattern` by searching empty input; rg's parse error becomes a ProviderError."""
        done = self._run([*self.matching, f"--regexp={pattern}", "--", os.devnull], CHECK_TIMEOUT)
        if done.returncode == 2:
            raise ProviderError(
                f'invalid regex "{pattern}": {_regex_error(done.err)}',
                f"{param('regex', True)} uses ripgrep syntax; look-around and backreferences are "
                f"unsupported; drop {param('regex', True)} to search literally",
            )

    def count_command(self, pattern: str) -> list[str]:
        """The count run's full command line (also what a head start must match to be used)."""
        return [
            self.executable,
            "--no-config",
            *self.matching,
            *self.walk,
            *self.counting,
            "--stats",
            "--count-matches",
            "--with-filename",
            "--null",
            f"--regexp={pattern}",
            "--",
            self.request.target,
        ]

    def walk_command(self, patterns: Sequence[str] | None = None) -> list[str]:
        """The one walk of a multi-pattern search: every matching line of any of `patterns` (all
        of the request's by default), in the heading format `combined.Reader` reads (as JSON for
        a file named as the root: `combined.JsonReader`)."""
        return [
            self.executable,
            "--no-config",
            *self.matching,
            *self.walk,
            *self.counting,
            *(HEADING if self.request.target == "." else ["--json"]),
            *(f"--regexp={pattern}" for pattern in (self.request.patterns if patterns is None else patterns)),
            "--",
            self.request.target,
        ]

    def first_commands(self) -> list[list[str]]:
        """The runs a search starts with (what a head start may start early): the one combined
        walk for several patterns, the count run for one."""
        if len(self.request.patterns) > 1:
            return [self.walk_command()]
        return [self.count_command(self.request.patterns[0])]

    def walk_all(self, patterns: Sequence[str] | None = None) -> Walked | None:
        """Every line any of `patterns` (all by default) matches, from one walk read while it
        runs (so decoding overlaps ripgrep's walk instead of following it); None when rg refused
        the patterns together (they are then counted one by one).

        Past WALK_LINES matching lines (or WALK_BYTES of output) the walk is stopped: what was
        read comes back with `overflow` set, each pattern's matches in it counted where they are
        counted here, so the caller can hand the broad ones to count runs of their own."""
        from sofia.providers.grep import combined

        chosen = list(self.request.patterns if patterns is None else patterns)
        command = self.walk_command(chosen)
        started = prestarted.claim(command, self.request.cwd) or self._start(command)
        timeout, give_up = self.time_box()
        counted = combined.counted_here(self.request)
        kind = combined.Reader if self.request.target == "." else combined.JsonReader
        reader = kind([pattern.encode() for pattern in chosen] if counted else ())
        offset, size = 0, STREAM_CHUNK
        try:
            while True:
                running = started.running()
                chunk = started.peek(offset, size)
                tail = not running and len(chunk) < size
                whole = len(chunk) if tail else chunk.rfind(b"\n") + 1
                if whole:
                    reader.feed(chunk[:whole])
                    offset, size = offset + whole, STREAM_CHUNK
                    # Bounded whether or not rg has finished: what Python decodes is the cost.
                    if reader.lines > WALK_LINES or reader.read > WALK_BYTES:
                        started.kill()
                        walked = combined.Walked()
                        reader.finish(walked)
                        found = reader.counts()
                        walked.overflow = {p: found[p.encode()] for p in chosen} if counted else {}
                        return walked
                elif len(chunk) == size:
                    size *= 2  # one message longer than a chunk
                elif not running:
                    break
                else:
                    self.idle(started, timeout, give_up)
        except BaseException:
            started.kill()
            raise
        done = started.wait(timeout, stdout_from=offset)
        if done.returncode == 2 and not offset:
            return None
        found_skips, done = rg.counted(done)
        walked = combined.Walked(problems=self._problems(done, True), skips=found_skips)
        reader.finish(walked)
        return walked

    def sample_count(self, pattern: str, walked: Walked) -> int:
        """`pattern`'s matches in the first SAMPLE_LINES lines of a stopped walk, by rg itself."""
        from sofia.providers.grep import combined

        sample = combined.Walked(contents=walked.contents[:SAMPLE_LINES])
        command = [self.executable, "--no-config", *self.matching, "--count-matches", "--text"]
        command += [f"--regexp={pattern}", "-"]
        try:
            done = proc.run(
                command,
                cwd=self.request.cwd,
                timeout=self.ctx.timeout(RG_TIMEOUT),
                input=combined.stream(sample),
            )
        except proc.ProgramNotFound:
            raise rg.not_found() from None
        except proc.ProgramTimeout:
            raise self._timed_out(self.ctx.timeout(RG_TIMEOUT)) from None
        text = done.stdout.strip()
        return int(text) if text.isdigit() else 0

    def matches_in(self, pattern: str, walked: Walked) -> Attributed:
        """`pattern`'s own matches on the walk's lines, by rg itself reading them on standard input."""
        from sofia.providers.grep import combined

        if not walked.paths:
            return combined.Attributed()
        args = [*self.matching, "--json", "--text", f"--regexp={pattern}", "-"]
        command = [self.executable, "--no-config", *args]
        timeout = self.ctx.timeout(RG_TIMEOUT)
        try:
            done = proc.run(command, cwd=self.request.cwd, timeout=timeout, input=combined.stream(walked))
        except proc.ProgramNotFound:
            raise rg.not_found() from None
        except proc.ProgramTimeout:
            raise self._timed_out(timeout) from None
        rg.outcome(done, f"counting {pattern}", results=bool(done.stdout))
        return combined.from_json(done.stdout, walked)

    def count(self, pattern: str) -> Counted:
        """Exact match counts of every file the walk keeps, keyed by raw path; a run the CLI
        started early for this very command is collected instead of starting another.

        The run writes to a file, not a pipe: ripgrep writes each file's count line by itself,
        and reading a pipe wakes this process once per write (60,000 on the kernel for `x`: half
        a second of CPU taken from ripgrep on a small machine)."""
        return self.finish_count(self.start_count(pattern))

    def start_count(self, pattern: str) -> proc.Background:
        """The count run of `pattern`, started now (or the one the CLI started early), for a
        caller that reads its lines while it runs (`rg.count_lines`) and then `finish_count`s it."""
        command = self.count_command(pattern)
        early = prestarted.claim(command, self.request.cwd)
        if early is not None:
            return early
        return self._start(command)

    def finish_count(self, started: proc.Background) -> Counted:
        """What `count` returns, for a run begun by `start_count`."""
        return self._counted(self._collect(started, RG_TIMEOUT))

    def _counted(self, done: proc.Completed) -> Counted:
        found, done = rg.counted(done)
        counts = {m.group(1): int(m.group(2)) for m in rg.COUNT_LINE.finditer(done.stdout)}
        searched = _SEARCHED.search(done.stdout)
        return Counted(counts, self._problems(done, bool(counts)), found, int(searched[1]) if searched else 0)

    def details(self, pattern: str, files: Sequence[bytes], max_lines: int) -> Detailed:
        """The matches of `files` (at most `max_lines` matching lines each), from `rg --json`."""
        result = Detailed()
        for path in files:
            found = filekinds.kind(self.request.cwd / os.fsdecode(path))
            if found != filekinds.FILE:
                reason = rg.VANISHED if found == filekinds.MISSING else f"not a regular file ({found})"
                result.problems[display_path(path)] = reason
        files = [path for path in files if display_path(path) not in result.problems]
        for batch in _batches(files):
            args = [*self.matching, *self.walk, "--json", f"--regexp={pattern}"]
            if max_lines:
                args.append(f"--max-count={max_lines}")
            done = self._run([*args, "--", *(os.fsdecode(p) for p in batch)], RG_TIMEOUT)
            _parse_json(done.stdout, result)
            if self.request.target != ".":
                result.binary.clear()  # a file named as the root is read whole, as rg reads it
            result.problems.update(self._problems(done, bool(done.stdout)))
        return result

    def _problems(self, done: proc.Completed, results: bool) -> dict[str, str]:
        """Display path -> skip reason; a ProviderError when rg failed as a whole."""
        skipped = rg.outcome(done, f"searching {self.request.root_display}", results=results)
        return {entry.path: entry.reason for entry in skipped}

    def time_box(self) -> tuple[float, float]:
        """A run's timeout, and the monotonic time it ends at, for a caller reading it as it runs."""
        timeout = self.ctx.timeout(RG_TIMEOUT)
        return timeout, time.monotonic() + timeout

    def idle(self, started: proc.Background, timeout: float, give_up: float) -> None:
        """Wait a moment for more of a running run's output; once `give_up` has passed, kill it and
        raise the timeout error `timeout` names."""
        if time.monotonic() > give_up:
            started.kill()
            raise self._timed_out(timeout)
        time.sleep(STREAM_POLL)

    def _start(self, command: list[str]) -> proc.Background:
        try:
            return proc.Background(command, cwd=self.request.cwd)
        except proc.ProgramNotFound:
            raise rg.not_found() from None

    def _run(self, args: list[str], wanted: float) -> proc.Completed:
        return self._execute([self.executable, "--no-config", *args], wanted)

    def _execute(self, command: list[str], wanted: float) -> proc.Completed:
        timeout = self.ctx.timeout(wanted)
        try:
            return proc.run(command, cwd=self.request.cwd, timeout=timeout)
        except proc.ProgramNotFound:
            raise rg.not_found() from None
        except proc.ProgramTimeout:
            raise self._timed_out(timeout) from None

    def _collect(self, started: proc.Background, wanted: float) -> proc.Completed:
        timeout = self.ctx.timeout(wanted)
        try:
            return started.wait(timeout)
        except proc.ProgramTimeout:
            raise self._timed_out(timeout) from None

    def _timed_out(self, timeout: float) -> Exception:
        left = self.ctx.time_left()
        if left is not None and left <= 0.1:
            return DeadlineExceeded("deadline exceeded while ripgrep was searching")
        return ProviderError(
            f"ripgrep timed out after {timeout:g} s searching {self.request.root_display}",
            f"narrow the search with {param('root')}, {param('exts')} or {param('ignore_dirs')}",
        )


def _matching_args(request: Request) -> list[str]:
    args = ["--fixed-strings"] if request.fixed else []
    if request.word:
        args.append("--word-regexp")
    args.append("--case-sensitive" if request.case else "--ignore-case")
    return args


def _regex_error(stderr: str) -> str:
    """The line of rg's regex error that says what is wrong."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if line.startswith("error: "):
            return line.removeprefix("error: ")
    return lines[0].removeprefix("rg: ") if lines else "rejected by ripgrep"


def _batches(files: Sequence[bytes]) -> list[list[bytes]]:
    batches: list[list[bytes]] = []
    size = MAX_ARGS_BYTES
    for path in files:
        if size + len(path) + 1 > MAX_ARGS_BYTES:
            batches.append([])
            size = 0
        batches[-1].append(path)
        size += len(path) + 1
    return batches


def _parse_json(stdout: bytes, into: Detailed) -> None:
    import orjson

    for line in stdout.splitlines():
        if line.startswith(b'{"type":"match"'):
            data = orjson.loads(line)["data"]
            path = data_bytes(data["path"])
            content = data_bytes(data["lines"])
            number = int(data["line_number"])
            into.hits.extend(Hit(path, number, int(sub["start"]) + 1, content) for sub in data["submatches"])
        elif line.startswith(b'{"type":"end"'):
            data = orjson.loads(line)["data"]
            if data.get("binary_offset") is not None:
                into.binary.add(data_bytes(data["path"]))
