"""What `refs` classifies of a name found in very many files: what an exact answer costs, and the
bounded sample taken instead when the caller shows only a few uses (docs/refs.md, "Limits").

Classifying a candidate means parsing it, which costs far more per byte than ripgrep's count: a
name in most files of a large tree (`self`, `err`, `i`) would take tens of times the count. So
when uses are capped (`max_per_symbol` above 0) and the candidates hold more source than
`budget` allows, a deterministic sample of them is classified: the files named after a segment
of a query and those with a line that reads like a definition of it first, then the rest in the order of a hash of
their path, which spreads any prefix of it over the whole tree, until the budget is spent. The
text totals stay ripgrep's exact counts; the other totals and the uses listed cover the sample,
and the files left out count as unclassified. A call with `max_per_symbol: 0` asks for every
use and classifies every candidate (within the deadline).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sofia.errors import param

FLOOR = 2 << 20
"""Bytes of candidate source always classified whole: a name in a few hundred files is exact."""
SHARE = 0.0025
"""Share of the bytes ripgrep searched that may be classified beyond FLOOR: on this project's
machine classifying (two processes) reads about 1/300 of what ripgrep's count reads in the same
time (the kernel's C: 4 MB/s against 1.4 GB/s), so the classification costs about what the count
did and the call stays near 3 times the count."""


@dataclass(frozen=True)
class Sample:
    """The candidates chosen, in path order, and what was left out."""

    chosen: list[bytes]
    left_out: int
    chosen_bytes: int
    total_bytes: int


def budget(searched: int, capped: bool) -> int | None:
    """Bytes of candidate source to classify at most; None: every candidate."""
    if not capped:
        return None
    return max(FLOOR, int(SHARE * searched))


def select(
    candidates: Sequence[bytes],
    cwd: Path,
    limit: int | None,
    segments: Sequence[str],
    names: Sequence[str] = (),
    timeout: float = 20.0,
    known: Mapping[bytes, int] | None = None,
) -> Sample:
    """The candidates to classify under `limit` bytes (all of them when they fit): files with a
    line that reads like a definition of one of `names` first, so a sample still finds where the
    name is defined, then files named after a segment, then the rest spread over the tree."""
    known = known or {}
    sizes = {raw: known[raw] if raw in known else size(cwd, raw) for raw in candidates}
    total = sum(sizes.values())
    if limit is None or total <= limit:
        return Sample(list(candidates), 0, total, total)
    stems = set(segments)
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
    """The candidates holding a definition-looking line of one of `names` (one rg run)."""
    import re

    from sofia.runtime import proc, rg

    pattern = DEFINING.format(name="|".join(re.escape(name) for name in names))
    found: set[bytes] = set()
    paths = [os.fsdecode(raw) for raw in candidates]
    for start in range(0, len(paths), 2000):
        args = [rg.executable(), "--no-config", "--files-with-matches", "--null", "--no-ignore", "--hidden"]
        args += ["--regexp", pattern, "--", *paths[start : start + 2000]]
        try:
            done = proc.run(args, cwd=cwd, timeout=timeout)
        except (proc.ProgramNotFound, proc.ProgramTimeout):
            return found
        found.update(os.fsencode(os.fsdecode(p)).removeprefix(b"./") for p in done.stdout.split(b"\0") if p)
    return found


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


def stream_limit(limit: int | None) -> int | None:
    """Bytes classified while ripgrep still counts, before the sample can be chosen."""
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
