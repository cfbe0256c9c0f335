"""The two-phase search (docs/grep.md, "How it searches"): exact counts over the walk, then the matches of just
enough files to fill the cap (or the budget ceiling), then enclosing symbols and the budget fit."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sofia.output.tokens import estimate
from sofia.providers.contract import Context
from sofia.providers.grep.matches import Hit
from sofia.providers.grep.ripgrep import (
    MAX_PROCESSES,
    SAMPLE_LINES,
    Counted,
    Detailed,
    Ripgrep,
    display_path,
)
from sofia.providers.grep.shape import PatternResult, Shaper
from sofia.providers.grep.symbols import Symbols
from sofia.providers.grep.text import hit_text
from sofia.runtime.skips import Skips

if TYPE_CHECKING:
    from sofia.providers.grep.combined import Walked
    from sofia.providers.grep.request import Request

HEARTBEAT = 0.5
"""Seconds between progress reports while rg runs."""
COUNTING = "counting matches"
READING = "reading hits"
PARSING = "finding enclosing symbols"

WARM_MODULES = ("orjson", "sofia.output.budget", "sofia.syntax", "tree_sitter", "toon_format")
KEEP_SHARE = 0.25
"""Share of a stopped walk's lines the patterns walking again together may account for."""
PROBE_TIMEOUT = 10.0
"""Seconds the search waits, after its own runs, for the walk that names what they skipped."""

_T = TypeVar("_T")


@dataclass
class _Pattern:
    """One pattern's progress through the phases."""

    pattern: str
    counts: dict[bytes, int]
    need: int
    files: list[bytes] = field(default_factory=list)
    """Counted files in path order."""
    next_file: int = 0
    hits: list[Hit] = field(default_factory=list)


def search(request: Request, ctx: Context) -> dict[str, Any]:
    ripgrep = Ripgrep(request, ctx)
    seen = _Seen()
    probe = ripgrep.probe()
    try:
        with ThreadPoolExecutor(max_workers=min(MAX_PROCESSES, len(request.patterns))) as pool:
            if not request.fixed:
                list(pool.map(ripgrep.check_regex, request.patterns))
            states = _one_walk(request, ripgrep, pool, seen, ctx) if len(request.patterns) > 1 else None
            if states is None:
                states = _walk_each(request, ripgrep, pool, seen, ctx)
        if probe is not None:
            seen.defaults.update(probe.skips(ctx.timeout(PROBE_TIMEOUT)))
    finally:
        if probe is not None:
            probe.kill()
    results = [_result(state, seen.skipped) for state in states]
    symbols = Symbols(request.cwd)
    shaper = Shaper(request, results, seen.skipped, ctx.budget, seen.defaults)

    def parse(files: Sequence[bytes]) -> None:
        symbols.load(files, lambda done, total: _progress(ctx, done, total, PARSING))

    return shaper.fit(parse, symbols.enclosing)


@dataclass
class _Seen:
    """What the runs of one search left out: files whose matches are not counted (display path
    -> reason), and what the walks skipped by default."""

    skipped: dict[str, str] = field(default_factory=dict)
    defaults: Skips = field(default_factory=Skips)

    def add(self, counted: Counted) -> None:
        self.skipped.update(counted.problems)
        self.defaults.update(counted.skips)


def _walk_each(
    request: Request, ripgrep: Ripgrep, pool: ThreadPoolExecutor, seen: _Seen, ctx: Context
) -> list[_Pattern]:
    """One count walk per pattern (exact per-file counts without streaming every match), then the
    matches of just the files whose hits are shown."""
    counting = [pool.submit(ripgrep.count, pattern) for pattern in request.patterns]
    _warm_imports()
    counted = _gather(counting, ctx, COUNTING)
    for result in counted:
        seen.add(result)
    ctx.check_deadline()
    states = [
        _state(request, ctx, pattern, result)
        for pattern, result in zip(request.patterns, counted, strict=True)
    ]
    _read_hits(states, ripgrep, pool, seen.skipped, ctx)
    return states


def _one_walk(
    request: Request, ripgrep: Ripgrep, pool: ThreadPoolExecutor, seen: _Seen, ctx: Context
) -> list[_Pattern] | None:
    """Several patterns from one walk (see `combined`); None when rg refuses them together.

    A walk that reaches `ripgrep.WALK_LINES` is stopped, and its broadest patterns (`_broad`)
    get count runs of their own while the others walk again together, so what Python decodes
    stays bounded whatever the patterns match, and a broad pattern costs what rg's count of it
    costs."""
    pending = list(request.patterns)
    alone: dict[str, Future[Counted]] = {}
    walking: Future[Walked | None] | None = pool.submit(ripgrep.walk_all, pending)
    _warm_imports()
    walked: Walked | None = None
    while walking is not None:
        (walked,) = _gather([walking], ctx, COUNTING)
        walking = None
        if walked is None and not alone:
            return None
        if walked is None or walked.overflow is not None:
            broad = _broad(ripgrep, pool, pending, walked, ctx) if walked is not None else pending
            pending = [pattern for pattern in pending if pattern not in broad]
            walking = pool.submit(ripgrep.walk_all, pending) if pending else None
            alone.update((pattern, pool.submit(ripgrep.count, pattern)) for pattern in broad)
            walked = None
    together = _from_walk(request, ripgrep, pool, seen, ctx, pending, walked) if walked else {}
    counted = dict(zip(alone, _gather(list(alone.values()), ctx, COUNTING), strict=True))
    for result in counted.values():
        seen.add(result)
    ctx.check_deadline()
    separate = [_state(request, ctx, pattern, result) for pattern, result in counted.items()]
    _read_hits(separate, ripgrep, pool, seen.skipped, ctx)
    by_pattern = {**together, **{state.pattern: state for state in separate}}
    return [by_pattern[pattern] for pattern in request.patterns]


def _from_walk(
    request: Request,
    ripgrep: Ripgrep,
    pool: ThreadPoolExecutor,
    seen: _Seen,
    ctx: Context,
    patterns: list[str],
    walked: Walked,
) -> dict[str, _Pattern]:
    """Each of `patterns` counted on the lines of the walk that read them all."""
    from sofia.providers.grep import combined

    skipped = seen.skipped
    skipped.update(walked.problems)
    if request.target == ".":  # a file named as the root is read whole, as rg reads it
        skipped.update((display_path(path), "binary") for path in walked.binary)
    seen.defaults.update(walked.skips)
    if skipped:
        walked.keep({path for path in set(walked.paths) if display_path(path) in skipped})
    if combined.counted_here(request):
        found = [combined.literal(pattern, walked) for pattern in patterns]
    else:
        found = _gather([pool.submit(ripgrep.matches_in, p, walked) for p in patterns], ctx, COUNTING)
    ctx.check_deadline()
    states: dict[str, _Pattern] = {}
    for pattern, attributed in zip(patterns, found, strict=True):
        state = _state(request, ctx, pattern, Counted(attributed.counts, {}))
        state.hits = attributed.hits(walked, state.need)
        state.next_file = len(state.files)
        states[pattern] = state
    return states


def _broad(
    ripgrep: Ripgrep, pool: ThreadPoolExecutor, patterns: list[str], walked: Walked, ctx: Context
) -> list[str]:
    """The patterns of a stopped walk to count alone: the most matched first, until those left
    account for at most KEEP_SHARE of the lines read (always at least one)."""
    assert walked.overflow is not None
    matches = walked.overflow
    lines = len(walked.contents)
    if not matches:
        jobs = [pool.submit(ripgrep.sample_count, pattern, walked) for pattern in patterns]
        matches = dict(zip(patterns, _gather(jobs, ctx, COUNTING), strict=True))
        lines = min(lines, SAMPLE_LINES)
    left = sum(matches.values())
    broad: list[str] = []
    for pattern in sorted(patterns, key=lambda p: -matches[p]):
        if broad and left <= KEEP_SHARE * lines:
            break
        broad.append(pattern)
        left -= matches[pattern]
    return broad


def _warm_imports() -> None:
    """Import what the later phases and the renderer need while rg walks the tree."""
    for name in WARM_MODULES:
        importlib.import_module(name)


def _gather(futures: list[Future[_T]], ctx: Context, message: str) -> list[_T]:
    """Results in submission order; progress is reported as each completes and every half second
    while rg walks a large tree, and the deadline is checked as often."""
    pending = set(futures)
    while pending:
        _, pending = wait(pending, timeout=HEARTBEAT, return_when=FIRST_COMPLETED)
        _progress(ctx, len(futures) - len(pending), len(futures), message)
    return [future.result() for future in futures]


def _progress(ctx: Context, done: int, total: int, message: str) -> None:
    ctx.progress(done, total, message)
    ctx.check_deadline()


def _state(request: Request, ctx: Context, pattern: str, counted: Counted) -> _Pattern:
    counts = {path: n for path, n in counted.counts.items() if n > 0}
    files = sorted(counts)
    total = sum(counts.values())
    if request.cap:
        need = min(total, request.cap)
    elif ctx.budget is None:
        need = total
    else:
        need = min(total, _budget_ceiling(request, files, counts, ctx.budget))
    return _Pattern(pattern, counts, need, files)


def _budget_ceiling(request: Request, files: Sequence[bytes], counts: dict[bytes, int], budget: int) -> int:
    """More hits than can possibly fit `budget`: each file costs at least its path as a key, and
    each hit at least its JSON skeleton (the one estimate, less the one token its rounding may add,
    so the ceiling never falls below what fits)."""
    per_hit = estimate('{"line":0,"col":0,"symbol":"","text":""},') - 1
    left = budget + 1
    fitting = 0
    for path in files:
        per_file = estimate(f'"{request.shown(display_path(path))}":[],') - 1
        if per_file + counts[path] * per_hit > left:
            return fitting + max(0, int((left - per_file) // per_hit)) + 1
        left -= per_file + counts[path] * per_hit
        fitting += counts[path]
    return fitting


def _read_hits(
    states: list[_Pattern], ripgrep: Ripgrep, pool: ThreadPoolExecutor, skipped: dict[str, str], ctx: Context
) -> None:
    """Detail phase: fetch the files that hold each pattern's first `need` hits; refill from the
    following files when some turn out binary or vanished."""
    while True:
        jobs: list[tuple[_Pattern, Future[Detailed]]] = []
        for state in states:
            files = _next_files(state, skipped)
            if files:
                jobs.append((state, pool.submit(ripgrep.details, state.pattern, files, state.need)))
        if not jobs:
            return
        results = _gather([job for _, job in jobs], ctx, READING)
        for (state, _), detailed in zip(jobs, results, strict=True):
            skipped.update(detailed.problems)
            skipped.update((display_path(path), "binary") for path in detailed.binary)
            state.hits.extend(detailed.hits)
        for state in states:
            state.hits = [hit for hit in state.hits if display_path(hit.path) not in skipped]


def _next_files(state: _Pattern, skipped: dict[str, str]) -> list[bytes]:
    """Counted files after those already read, in path order, until they hold the missing hits."""
    missing = state.need - len(state.hits)
    chosen: list[bytes] = []
    while missing > 0 and state.next_file < len(state.files):
        path = state.files[state.next_file]
        state.next_file += 1
        if display_path(path) in skipped:
            continue
        chosen.append(path)
        missing -= state.counts[path]
    return chosen


def _result(state: _Pattern, skipped: dict[str, str]) -> PatternResult:
    counts = {path: n for path, n in state.counts.items() if not skipped or display_path(path) not in skipped}
    hits = sorted(state.hits, key=lambda hit: (hit.path, hit.line, hit.col))[: state.need]
    texts = [hit_text(hit.content, hit.col - 1) for hit in hits]
    return PatternResult(state.pattern, counts, hits, texts)
