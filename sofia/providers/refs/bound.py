"""What `refs` classifies of a name found in very many files: what an exact answer costs, and the
bounded sample taken instead when the caller shows only a few uses (docs/refs.md, "Limits").

Classifying a candidate means parsing it, which costs far more per byte than ripgrep's count: a
name in most files of a large tree (`self`, `err`, `i`) would take tens of times the count. So
when uses are capped (`max_per_symbol` above 0) and the candidates hold more than FLOOR bytes of
source, a deterministic sample of `budget` bytes of them is classified: the files named after a segment
of a query and those with a line that reads like a definition of it first, then the rest in the order of a hash of
their path, which spreads any prefix of it over the whole tree, until the budget is spent. The
text totals stay ripgrep's exact counts; the other totals and the uses listed cover the sample,
and the files left out count as unclassified. A call with `max_per_symbol: 0` asks for every
use and classifies every candidate (within the deadline), and so does a sample that reads as a
symbol's uses rather than a local name's (`widens`).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sofia.errors import param

if TYPE_CHECKING:
    from sofia.providers.refs.model import Parsed
    from sofia.runtime import proc

FLOOR = 2 << 20
"""Bytes of candidate source always classified whole: a name in a few hundred files is exact."""
SHARE = 0.0025
"""Share of the bytes ripgrep searched that a sample may hold: on this project's machine
classifying (two processes) reads about 1/300 of what ripgrep's count reads in the same time (the
kernel's C: 4 MB/s against 1.4 GB/s), so the classification costs about what the count did and
the call stays near 3 times the count. A sample of FLOOR bytes would cost more than the whole
count in a tree of less than about 800 MB (Python's standard library: 200 MB, `self` in 11,000
files), so a sample follows this share down to MIN_SAMPLE."""
MIN_SAMPLE = 512 << 10
"""Bytes a sample holds at least, however little ripgrep searched (some 40 to 100 files)."""
WIDEN_SHARE = 0.5
"""Share of a sample's code occurrences (uses and definitions against locals and parameters) from
which it reads as a symbol's, and every candidate is classified (`widens`)."""
BATCH = 2000
"""Paths searched for definitions by one rg run."""
POOL_FROM = 8 << 20
"""Bytes from which a sample is classified in several processes: starting them cost 1.0-2.1 s of
wall time under load, more than classifying the kernel's 2.6 MiB sample of `err` in this process
(1.0 s), so a smaller sample is classified here."""


@dataclass(frozen=True)
class Sample:
    """The candidates chosen, in path order, and what was left out."""

    chosen: list[bytes]
    left_out: int
    chosen_bytes: int
    total_bytes: int


def budget(searched: int, capped: bool) -> int | None:
    """Bytes of candidate source a sample holds at most (candidates of FLOOR bytes or less are
    classified whole); None: every candidate."""
    if not capped:
        return None
    return max(MIN_SAMPLE, int(SHARE * searched))


def select(
    candidates: Sequence[bytes],
    cwd: Path,
    limit: int | None,
    segments: Sequence[str],
    names: Sequence[str] = (),
    timeout: float = 20.0,
    known: Mapping[bytes, int] | None = None,
    searching: Defining | None = None,
) -> Sample:
    """The candidates to classify under `limit` bytes (all of them when they hold FLOOR bytes or
    less): files with a line that reads like a definition of one of `names` first (from
    `searching` where the count's stream started that search), so a sample still finds where the
    name is defined, then files named after a segment, then the rest spread over the tree."""
    known = known or {}
    sizes = {raw: known[raw] if raw in known else size(cwd, raw) for raw in candidates}
    total = sum(sizes.values())
    if limit is None or total <= max(limit, FLOOR):
        return Sample(list(candidates), 0, total, total)
    stems = set(segments)
    if searching is not None:
        defining = searching.files(candidates)
    else:
        defining = defining_files(candidates, cwd, names, timeout) if names else set()
    order = sorted(
        candidates, key=lambda raw: (raw not in defining, _stem(raw) not in stems, zlib.crc32(raw), raw)
    )
    chosen: list[bytes] = []
    used = 0
    for raw in order:
        if chosen and used + sizes[raw] > limit:
            break
        chosen.append(raw)
        used += sizes[raw]
    kept = set(chosen)
    return Sample([raw for raw in candidates if raw in kept], len(candidates) - len(kept), used, total)


DEFINING = (
    r"(?:^|[\s(#])(?:def|class|func|fn|fun|function|struct|enum|union|interface|trait|protocol|module|"
    r"record|object|typealias|type|typedef|define|sub|macro_rules!)\s+\*?(?:{name})\b"
    r"|^[A-Za-z_][\w\s\*&:<>,]*[\s\*&:](?:{name})\s*\([^;]*$"
    r"|^(?:{name})\s*\([^;]*$"
)
"""A line that reads like a definition of the name in any language sofia reads: a declaring
keyword before it, or (C, C++) a file-level function head without a closing `;`."""


def defining_files(
    candidates: Sequence[bytes], cwd: Path, names: Sequence[str], timeout: float
) -> set[bytes]:
    """The candidates holding a definition-looking line of one of `names` (one rg run per BATCH)."""
    from sofia.runtime import proc

    found: set[bytes] = set()
    for start in range(0, len(candidates), BATCH):
        try:
            done = proc.run(
                _defining_command(candidates[start : start + BATCH], names), cwd=cwd, timeout=timeout
            )
        except (proc.ProgramNotFound, proc.ProgramTimeout):
            return found
        found.update(_listed(done.stdout))
    return found


def _defining_command(paths: Sequence[bytes], names: Sequence[str], *, beside: bool = False) -> list[str]:
    """rg listing which of `paths` hold a DEFINING line. ASCII classes (`(?-u)`) where every name
    is ASCII: over the kernel's candidates of `i` the search costs half the CPU of Unicode's, and
    finds the same files (a non-ASCII name keeps Unicode's word boundary). `beside` the count,
    which holds the cores, one thread: 0.35 s of CPU over the Python tree's candidates of `self`
    against 0.40 s with one per core, in the same time."""
    import re

    from sofia.runtime import rg

    pattern = DEFINING.format(name="|".join(re.escape(name) for name in names))
    if all(name.isascii() for name in names):
        pattern = "(?-u)" + pattern
    args = [rg.executable(), "--no-config", "--files-with-matches", "--null", "--no-ignore", "--hidden"]
    args += ["--threads=1"] if beside else []
    return [*args, "--regexp", pattern, "--", *(os.fsdecode(raw) for raw in paths)]


def _listed(stdout: bytes) -> set[bytes]:
    return {os.fsencode(os.fsdecode(p)).removeprefix(b"./") for p in stdout.split(b"\0") if p}


@dataclass
class Defining:
    """The DEFINING search over one name's candidates as its count reports them: one rg run at a
    time over BATCH paths, beside the count, so the sample's first files are mostly known when
    the count ends (a search after it cost the kernel's `i` 40 % of the call)."""

    cwd: Path
    names: list[str]
    timeout: float
    pending: list[bytes] = field(default_factory=list)
    found: set[bytes] = field(default_factory=set)
    searched: set[bytes] = field(default_factory=set)
    running: proc.Background | None = None

    def add(self, paths: Sequence[bytes]) -> None:
        """Candidates reported; a run starts once BATCH of them wait and the last run ended."""
        self.pending.extend(paths)
        if len(self.pending) >= BATCH and not self._busy():
            self._start()

    def files(self, candidates: Sequence[bytes]) -> set[bytes]:
        """The candidates holding a definition-looking line: the runs' and the rest searched now."""
        self._collect()
        rest = [raw for raw in candidates if raw not in self.searched]
        return self.found | defining_files(rest, self.cwd, self.names, self.timeout)

    def close(self) -> None:
        if self.running is not None:
            self.running.kill()
            self.running = None

    def _busy(self) -> bool:
        if self.running is None:
            return False
        if self.running.running():
            return True
        self._collect()
        return False

    def _start(self) -> None:
        from sofia.runtime import proc

        batch, self.pending = self.pending[:BATCH], self.pending[BATCH:]
        try:
            self.running = proc.Background(_defining_command(batch, self.names, beside=True), cwd=self.cwd)
        except proc.ProgramNotFound:
            return
        self.searched.update(batch)

    def _collect(self) -> None:
        from sofia.runtime import proc

        running, self.running = self.running, None
        if running is None:
            return
        try:
            self.found |= _listed(running.wait(self.timeout).stdout)
        except proc.ProgramTimeout:
            return


def note(sample: Sample) -> str:
    """Says that the totals but text cover a sample, and how to narrow or ask for every file."""
    count = len(sample.chosen) + sample.left_out
    return (
        f"classified a sample of {len(sample.chosen):,} of {count:,} candidate files "
        f"({_mib(sample.chosen_bytes)} of {_mib(sample.total_bytes)} of source, spread over the tree: "
        "a name in this many files costs far more to classify than to count); text totals are exact, "
        "the other totals and the uses listed cover the sample and the rest are counted as unclassified; "
        f"narrow with {param('root')}, {param('exts')} or a qualified name, or pass "
        f"{param('max_per_symbol', 0)} to classify every file"
    )


def widens(parsed: Iterable[Parsed]) -> bool:
    """Whether a classified sample calls for every candidate: its occurrences are mostly uses and
    definitions of a symbol, not locals or parameters of the same name. Exact per-kind totals are
    what refs is asked for a symbol (`kfree`: 37,497 uses in 8,895 kernel files, every one
    classified in about 20 s); a name that is a local in most files (`err`, `i`, `ret`, `self`:
    thousands of locals against a few hundred uses in their samples) has no symbol to total, and
    classifying all of it would cost tens of times ripgrep's count."""
    symbol = local = 0
    for file in parsed:
        for occurrences in file.uses.occurrences.values():
            for occurrence in occurrences:
                if occurrence.role in ("use", "definition"):
                    symbol += 1
                elif occurrence.role == "local":
                    local += 1
    return symbol > 0 and symbol >= WIDEN_SHARE * (symbol + local)


def parallel_from(sample_bytes: int) -> int:
    """The candidates a sample of `sample_bytes` counts as for `classify.jobs_for`: every one
    from POOL_FROM bytes, none below (it is classified in the calling process)."""
    from sofia.providers.refs.classify import PARALLEL_FROM

    return PARALLEL_FROM if sample_bytes >= POOL_FROM else 0


def stream_limit(limit: int | None) -> int | None:
    """Bytes classified while ripgrep still counts, before it is known whether a sample is taken."""
    return None if limit is None else FLOOR


def size(cwd: Path, raw: bytes) -> int:
    """`raw`'s size in bytes (0 when it cannot be read: the parse will say why)."""
    try:
        return os.stat(os.path.join(cwd, os.fsdecode(raw))).st_size  # a Path per file costs 5x the stat
    except OSError:
        return 0


def _stem(raw: bytes) -> str:
    name = os.path.basename(os.fsdecode(raw))
    return name.split(".", 1)[0]


def _mib(size: int) -> str:
    return f"{size / (1 << 20):,.1f} MiB"
