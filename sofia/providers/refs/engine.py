"""The `refs` search (the collect stage): ripgrep counts each name over the walk (grep's engine:
exact textual totals and the candidate files), then the candidates are classified (`classify`),
in path order, for as long as the deadline allows."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from sofia.errors import ArgumentError, param
from sofia.providers.grep import MAX_PROCESSES, Counted, Request, Ripgrep, build, display_path
from sofia.providers.refs import bound
from sofia.providers.refs.classify import (
    CHUNK,
    PARALLEL_FROM,
    PROGRESS,
    Cutoff,
    Item,
    Pool,
    classify_one,
    in_pool,
    in_turn,
    jobs_for,
    recalled,
)
from sofia.providers.refs.model import DEADLINE, Found, Matched, Outcome, Parsed
from sofia.runtime import skips, unparsed
from sofia.runtime.rg import count_lines
from sofia.runtime.skips import Skips
from sofia.runtime.unparsed import Unparsed

if TYPE_CHECKING:
    from pathlib import Path

    from sofia.providers.contract import Context
    from sofia.providers.refs.params import Params
    from sofia.syntax.lookup import Query

PROBE_TIMEOUT = 10.0
"""Seconds waited after the classification for the walk that names what the counts skipped."""


@dataclass(frozen=True)
class Searches:
    """What ripgrep counts: each name's last segment as a word over the extensions, and the
    kebab-case spelling of each Vue component name over `.vue` files."""

    names: list[str]
    request: Request
    spellings: dict[str, list[str]]
    """Name -> the spellings searched for it (itself first)."""
    components: list[str]
    """The names that may be Vue components (a `.vue` file may be named after them)."""
    kebabs: list[str]
    """Their kebab-case spellings, counted over `.vue` files by `kebab_request`."""
    kebab_request: Request | None
    parsed: tuple[str, ...] | None = None
    """With no `exts` given, the names are counted over every file type in one walk, and these
    name endings (`unparsed.suffixes`) say which files are candidates; the rest make the note on
    where sofia cannot read the name."""


@dataclass
class Counts:
    """What the count runs found, and what was classified while they ran."""

    counts: dict[str, dict[bytes, int]] = field(default_factory=dict)
    """Spelling -> raw path -> rg's count (files that hold it only)."""
    problems: dict[str, str] = field(default_factory=dict)
    skipped: Skips = field(default_factory=Skips)
    searched: int = 0
    vue_files: list[bytes] = field(default_factory=list)
    """Every `.vue` file of the walk, from the first kebab-case count (it lists zero counts too)."""
    early: dict[bytes, Outcome] = field(default_factory=dict)
    """Files classified while the one name's count ran (for that name)."""
    sizes: dict[bytes, int] = field(default_factory=dict)
    """Each candidate's size as read while its count streamed (the sample does not read it again)."""
    defining: bound.Defining | None = None
    """The sample's search for definition-looking lines, started on the candidates as they streamed."""
    outside: dict[str, Unparsed] = field(default_factory=dict)
    """Spelling -> its occurrences in files of the types no language record parses."""

    def add(
        self, spelling: str, counted: Counted, *, lists_vue_files: bool, parsed: tuple[str, ...] | None
    ) -> None:
        """One count run's findings; `parsed` (an every-type count's) parts its files (`Searches`)."""
        if lists_vue_files:
            self.vue_files = [path.removeprefix(b"./") for path in counted.counts]
        counts = {path.removeprefix(b"./"): n for path, n in counted.counts.items() if n > 0}
        skipped = counted.skips
        if parsed is not None:
            counts, self.outside[spelling] = unparsed.split(counts, parsed)
            binary = {path for path in skipped.binary if unparsed.parsed(os.fsencode(path), parsed)}
            skipped = Skips(skipped.dirs, binary)
        self.counts[spelling] = counts
        self.problems.update(counted.problems)
        self.skipped.update(skipped)
        self.searched = max(self.searched, counted.searched)


def collect(params: Params, ctx: Context) -> Found:
    """Count, then classify the candidates; everything learnt, for the matcher and the shaper."""
    queries = queries_of(params.symbols)
    searches = plan(params, ctx, queries)
    capped = params.max_per_symbol > 0
    pool = Pool(jobs_for(PARALLEL_FROM))
    try:
        ripgrep = Ripgrep(searches.request, ctx)
        counted = count(searches, ripgrep, ctx, pool, bound.stream_limit(bound.budget(0, capped)))
        components = {name: _component_files(counted.vue_files, name) for name in searches.components}
        ctx.check_deadline()
        found = Found(searches.request, queries, counted.counts, searches.spellings, components)
        found.unparsed.update(counted.problems)
        found.outside = counted.outside
        probe = ripgrep.probe()  # beside the classification, which leaves a core to spare
        try:
            classify(found, ctx, pool, counted, bound.budget(counted.searched, capped))
            if probe is not None:
                counted.skipped.update(probe.skips(ctx.timeout(PROBE_TIMEOUT)))
        finally:
            if probe is not None:
                probe.kill()
            if counted.defining is not None:
                counted.defining.close()
    finally:
        pool.close()
    found.notes[:0] = skips.notes(counted.skipped, searches.request.shown, "root")
    return found


def queries_of(symbols: Sequence[str]) -> list[Query]:
    from sofia.syntax.lookup import BadName, parse_query

    if not symbols:
        raise ArgumentError(
            "refs needs at least one symbol", f"pass a name: {param('symbols', ['UserController::destroy'])}"
        )
    queries: list[Query] = []
    for text in symbols:
        try:
            query = parse_query(text)
        except BadName as error:
            raise ArgumentError(str(error), error.hint) from None
        if all(q.text != query.text for q in queries):
            queries.append(query)
    return queries


def plan(params: Params, ctx: Context, queries: list[Query]) -> Searches:
    """The searches for `queries`; every walk parameter is checked here, before anything runs.
    Without `exts` the walk keeps every file type (`Searches.parsed`)."""
    from sofia.syntax.registry import EXTENSIONS
    from sofia.syntax.uses.vue import is_component_name, kebab

    names = list(dict.fromkeys(q.name for q in queries))
    walk = partial(
        build, workspace=ctx.root, root=params.root, word=True, ignore_dirs=params.ignore_dirs, cap=0
    )
    request = walk(names, exts=params.exts)
    parsed = None if request.exts else unparsed.suffixes(EXTENSIONS)
    spellings = {name: [name] for name in names}
    components = [n for n in names if "vue" in (request.exts or ("vue",)) and is_component_name(n)]
    for name in components:
        if kebab(name) != name:
            spellings[name].append(kebab(name))
    kebabs = [spelling for name in components for spelling in spellings[name][1:]]
    kebab_request = walk(kebabs, exts=["vue"]) if kebabs else None
    return Searches(names, request, spellings, components, kebabs, kebab_request, parsed)


def count(searches: Searches, ripgrep: Ripgrep, ctx: Context, pool: Pool, stream_limit: int | None) -> Counts:
    """Every spelling's count run, up to MAX_PROCESSES at once. With one name its files are
    classified as the count reports them (`_count_and_classify`); the first kebab-case count lists
    every `.vue` file too, so the same walk says which files are named after a component."""
    runs: list[tuple[str, Callable[[], Counted], bool]] = [
        (n, partial(ripgrep.count, n), False) for n in searches.names
    ]
    if searches.kebab_request is not None:
        kebab_rg = Ripgrep(searches.kebab_request, ctx)
        for index, spelling in enumerate(searches.kebabs):
            listing = index == 0
            run = partial(_count_listing if listing else Ripgrep.count, kebab_rg, spelling)
            runs.append((spelling, run, listing))
    counted = Counts()
    streamed = len(searches.names) == 1
    with ThreadPoolExecutor(max_workers=min(MAX_PROCESSES, len(runs))) as threads:
        futures: list[Future[Counted]] = [
            threads.submit(run) for _, run, _ in (runs[1:] if streamed else runs)
        ]
        if streamed:
            stream = Streaming(ripgrep.request.cwd, searches, ctx, pool, counted, stream_limit)
            futures.insert(0, _done(_count_and_classify(ripgrep, searches.names[0], stream, ctx)))
        for index, ((spelling, _, listing), future) in enumerate(zip(runs, futures, strict=True)):
            parsed = searches.parsed if index < len(searches.names) else None  # kebabs: `.vue` only
            counted.add(spelling, future.result(), lists_vue_files=listing, parsed=parsed)
    return counted


class Streaming:
    """Classifying the files one name's count reports while ripgrep goes on walking: in this
    process for the first PARALLEL_FROM files, then in the pool chunk by chunk where there is
    one. It stops at the deadline's cut-off, and once the files reported hold more than `limit`
    bytes (the rest waits for the count, which tells whether a sample is taken: `bound`)."""

    def __init__(
        self, cwd: Path, searches: Searches, ctx: Context, pool: Pool, counted: Counts, limit: int | None
    ) -> None:
        self.cwd, self.names, self.ctx, self.limit = cwd, searches.names, ctx, limit
        self.parsed = searches.parsed
        self.into, self.sizes = counted.early, counted.sizes
        if limit is not None:
            counted.defining = bound.Defining(cwd, self.names, ctx.timeout(20.0))
        self.defining = counted.defining
        self.cutoff = Cutoff.of(ctx)
        self.pool = pool if pool.jobs > 1 else None
        self.pending: list[Item] = []
        self.sent: list[tuple[list[Item], Future[list[tuple[str, Outcome]]]]] = []
        self.reported = 0

    def take(self, batch: list[bytes]) -> None:
        if self.parsed is not None:
            batch = [raw for raw in batch if unparsed.parsed(raw, self.parsed)]
        if self.defining is not None:
            self.defining.add(batch)
        for raw in self._within_limit(batch):
            if self.pool is not None and len(self.into) >= PARALLEL_FROM:
                self._to_pool(raw)
            elif not self.cutoff.reached(self.ctx):
                self.into[raw] = classify_one(self.cwd, raw, self.names)[1]

    def _within_limit(self, batch: list[bytes]) -> list[bytes]:
        """`batch`, or none of it once the files reported hold more than `limit` bytes."""
        if self.limit is None:
            return batch
        for raw in batch:
            self.sizes[raw] = bound.size(self.cwd, raw)
        self.reported += sum(self.sizes[raw] for raw in batch)
        return [] if self.reported > self.limit else batch

    def _to_pool(self, raw: bytes) -> None:
        kept = recalled(self.cwd, raw, self.names)  # kept by an earlier call: no process needed
        if kept is not None:
            self.into[raw] = kept
            return
        self.pending.append((raw, self.names))
        if len(self.pending) >= CHUNK:
            self._send()

    def _send(self) -> None:
        if self.pool is not None and self.pending:
            chunk, self.pending = self.pending, []
            self.sent.append((chunk, self.pool.submit(self.cwd, chunk, self.cutoff)))

    def finish(self) -> None:
        """Wait for the chunks sent; each file they classified is kept for later calls."""
        from sofia.providers.refs.classify import remember

        self._send()
        for chunk, future in self.sent:
            outcomes = [outcome for _, outcome in future.result()]
            remember(self.cwd, chunk, outcomes)
            self.into.update((raw, outcome) for (raw, _), outcome in zip(chunk, outcomes, strict=True))


def _count_and_classify(ripgrep: Ripgrep, spelling: str, stream: Streaming, ctx: Context) -> Counted:
    """`spelling`'s count run, each file it reports handed to `stream` as it is reported, so
    parsing overlaps ripgrep's walk instead of following it; the count always completes (its
    totals are exact)."""
    started = ripgrep.start_count(spelling)
    timeout, give_up = ripgrep.time_box()
    offset = 0
    try:
        while True:
            running = started.running()
            lines, used = count_lines(started.peek(offset))
            offset += used
            if lines:
                ctx.progress(len(stream.into), None, PROGRESS)
                stream.take([raw.removeprefix(b"./") for raw, n in lines if n > 0])
            elif not running:
                break
            else:
                ripgrep.idle(started, timeout, give_up)
        stream.finish()
    except BaseException:
        started.kill()
        if stream.defining is not None:
            stream.defining.close()
        raise
    return ripgrep.finish_count(started)


def _done(value: Counted) -> Future[Counted]:
    future: Future[Counted] = Future()
    future.set_result(value)
    return future


def _count_listing(ripgrep: Ripgrep, spelling: str) -> Counted:
    """`spelling`'s count over `.vue` files with the files that do not hold it listed too (count
    0): the same walk then says which files are named after a component, without a second one."""
    from sofia.runtime import proc, rg

    command = ripgrep.count_command(spelling)
    command.insert(command.index("--count-matches") + 1, "--include-zero")
    try:
        started = proc.Background(command, cwd=ripgrep.request.cwd)
    except proc.ProgramNotFound:
        raise rg.not_found() from None
    return ripgrep.finish_count(started)


def _component_files(vue_files: list[bytes], name: str) -> list[str]:
    """`.vue` files named after the component among those the walk kept."""
    wanted = f"{name}.vue"
    return sorted(
        (display_path(raw) for raw in vue_files if os.path.basename(os.fsdecode(raw)) == wanted),
        key=os.fsencode,
    )


def classify(found: Found, ctx: Context, pool: Pool, counted: Counts, limit: int | None) -> None:
    """Classify the candidates (a sample of at most `limit` bytes of them: `bound`) in path order
    until the deadline's cut-off; files classified while the count ran or by an earlier call and
    unchanged since are taken as they were. A sample that reads as a symbol's uses rather than a
    local name's (`bound.widens`) is followed by every other candidate, so a function called in
    thousands of files (`kfree`) gets exact totals; a name mostly local (`err`, `i`, `self`) keeps
    the sample and its note."""
    wanted = _names_per_candidate(found)
    readable = [raw for raw in sorted(wanted) if display_path(raw) not in found.unparsed]
    order, sampled = _sampled(found, readable, limit, counted, ctx)
    sample_note = found.notes[-1] if sampled is not None else ""
    _classify_files(found, ctx, pool, counted, wanted, order, sampled)
    if sampled is not None and bound.widens(found.parsed.values()):
        found.notes.remove(sample_note)  # every candidate is classified after all
        chosen = set(order)
        rest = [raw for raw in readable if raw not in chosen]
        _classify_files(found, ctx, pool, counted, wanted, rest, None)
        found.candidates = len(readable)


def _classify_files(
    found: Found,
    ctx: Context,
    pool: Pool,
    counted: Counts,
    wanted: dict[bytes, set[str]],
    order: list[bytes],
    sampled: int | None,
) -> None:
    """Classify `order` (in the pool when it pays) into `found.parsed` / `found.unparsed`."""
    found.candidates = len(order)
    known, items = _known_and_new(found, order, wanted, counted.early)
    cutoff = Cutoff.of(ctx)
    cwd = found.request.cwd
    if jobs_for(len(items) if sampled is None else bound.parallel_from(sampled)) > 1:
        outcomes = in_pool(pool, cwd, items, cutoff, ctx)
    else:
        outcomes = in_turn(cwd, items, cutoff, ctx)
    merged: dict[str, Outcome] = {**dict(outcomes), **known}
    for rel in dict.fromkeys(display_path(raw) for raw in order):
        outcome = merged[rel]
        if isinstance(outcome, Parsed):
            found.parsed[rel] = outcome
        else:
            found.unparsed[rel] = outcome
            if outcome == DEADLINE:
                found.deadline_cut += 1


def _names_per_candidate(found: Found) -> dict[bytes, set[str]]:
    """Each candidate file (raw path) and the requested names it may hold."""
    wanted: dict[bytes, set[str]] = {}
    for name, spellings in found.spellings.items():
        for spelling in spellings:
            for path in found.counts.get(spelling, {}):
                wanted.setdefault(path, set()).add(name)
    for name, files in found.components.items():
        for rel in files:
            wanted.setdefault(os.fsencode(rel), set()).add(name)
    return wanted


def _sampled(
    found: Found, order: list[bytes], limit: int | None, counted: Counts, ctx: Context
) -> tuple[list[bytes], int | None]:
    """`order`, or the sample of it `bound` chooses when its files hold more than `limit` bytes
    (named in a note); and the sample's bytes (None: not a sample)."""
    segments = [segment for query in found.queries for segment in (*query.qualifier, query.name)]
    names = [query.name for query in found.queries]
    sample = bound.select(
        order, found.request.cwd, limit, segments, names, ctx.timeout(20.0), counted.sizes, counted.defining
    )
    if not sample.left_out:
        return order, None
    found.notes.append(bound.note(sample))
    return sample.chosen, sample.chosen_bytes


def _known_and_new(
    found: Found, order: list[bytes], wanted: dict[bytes, set[str]], early: dict[bytes, Outcome]
) -> tuple[dict[str, Outcome], list[Item]]:
    """The candidates already classified (while counting, for the one name; or by an earlier
    call, unchanged since) by display path, and the rest to classify."""
    known: dict[str, Outcome] = {}
    items: list[Item] = []
    first = found.queries[0].name
    for raw in order:
        names = sorted(wanted[raw])
        kept = early[raw] if raw in early and names == [first] else recalled(found.request.cwd, raw, names)
        if kept is not None:
            known[display_path(raw)] = kept
        else:
            items.append((raw, names))
    return known, items


def count_unparsed(found: Found, matched: list[Matched]) -> None:
    """For a name with no definition in a parsed file, its occurrences in the files of types no
    language record parses (counted by the same walk: `Searches.parsed`), so the answer never
    reads "not found" for a name that occurs."""
    for m in matched:
        if not m.definitions:
            m.outside = found.outside.get(m.query.name)
