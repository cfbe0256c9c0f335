"""The `refs` search: ripgrep counts each name over the walk (grep's engine: exact textual totals
and the candidate files), then the candidates are parsed and their occurrences classified, in
path order, for as long as the deadline allows."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sofia.errors import ArgumentError, param
from sofia.providers.contract import Context
from sofia.providers.grep.request import Request, build
from sofia.providers.grep.ripgrep import MAX_PROCESSES, Counted, Ripgrep, display_path
from sofia.providers.refs import bound
from sofia.runtime import skips
from sofia.runtime.skips import Skips

if TYPE_CHECKING:
    from sofia.providers.refs.match import Matched
    from sofia.providers.refs.provider import Params
    from sofia.syntax.lookup import Query
    from sofia.syntax.uses import FileUses, Syntax

BINARY_PROBE = 8000
RESERVE_SHARE = 0.15
"""Share of the time left when classification starts that is kept for shaping the result."""
MIN_RESERVE = 1.0
TICK_EVERY = 16
PROGRESS = "classifying occurrences"
DEADLINE = "deadline"
JOBS_ENV = "SOFIA_REFS_JOBS"
"""Processes classifying candidates at once (1: in the calling process only)."""
MAX_JOBS = 4
PARALLEL_FROM = 256
"""Candidate files from which classifying in several processes pays for forking them."""
CHUNK = 64
PROBE_TIMEOUT = 10.0
"""Seconds waited after the classification for the walk that names what the counts skipped."""


@dataclass(frozen=True)
class Holder:
    """The innermost symbol holding a line: its qualified and bare name and line range."""

    qname: str
    name: str
    line: int
    end_line: int


@dataclass
class Parsed:
    """One classified candidate file, kept without its trees (a large search holds thousands)."""

    rel: str
    lang: str
    uses: FileUses
    lines: int
    texts: dict[int, str]
    """Line -> its text, for every line with an occurrence."""
    source: bytes = field(repr=False)
    """The bytes classified, for the symbol tree a shown use or a definition asks for."""
    stamp: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    """The file's identity and times when it was read (`memo.stamp_of`)."""
    _holders: dict[int, Holder | None] | None = field(default=None, init=False, repr=False, compare=False)

    def holder(self, line: int) -> Holder | None:
        """The innermost symbol holding `line` (the same one `grep` names). The symbol tree is
        built on the first question only: classifying needs the syntax tree alone, and most
        candidate files of a common name have no use shown and no definition."""
        if self._holders is None:
            self._holders = _holders(self)
        return self._holders.get(line)


def _holders(parsed: Parsed) -> dict[int, Holder | None]:
    """Line -> holding symbol, for every line with an occurrence in a parsed file."""
    from sofia.syntax import ParseUnavailable, parse

    try:
        tree = parse(parsed.source, parsed.lang, parsed.rel)
    except ParseUnavailable:
        return {}
    holders: dict[int, Holder | None] = {}
    for found in parsed.uses.occurrences.values():
        for occurrence in found:
            line = occurrence.line
            if line not in holders:
                symbol = tree.enclosing(line)
                holders[line] = (
                    Holder(symbol.qname, symbol.name, symbol.line, symbol.end_line) if symbol else None
                )
    return holders


def summarize(rel: str, syntax: Syntax, uses: FileUses) -> Parsed:
    """What matching and shaping need of a classified file, so its trees can go."""
    source = syntax.source
    texts: dict[int, str] = {}
    for found in uses.occurrences.values():
        for occurrence in found:
            line = occurrence.line
            if line not in texts:
                start = source.rfind(b"\n", 0, occurrence.start) + 1
                end = source.find(b"\n", occurrence.start)
                texts[line] = source[start : end if end >= 0 else len(source)].decode("utf-8", "replace")
            if occurrence.decl != (0, 0):
                occurrence.end_line = (
                    source.count(b"\n", 0, max(occurrence.decl[1] - 1, occurrence.start)) + 1
                )
    return Parsed(rel, syntax.lang, uses, max(source.count(b"\n"), 1), texts, source)


@dataclass
class Found:
    """Everything the search learnt, for the matcher and the shaper."""

    request: Request
    queries: list[Query]
    counts: dict[str, dict[bytes, int]]
    """Spelling searched -> raw path -> rg's count of it."""
    spellings: dict[str, list[str]]
    """Name -> the spellings searched for it (itself, a Vue component's kebab-case form)."""
    components: dict[str, list[str]]
    """Component name -> `.vue` files of that name under the root."""
    parsed: dict[str, Parsed] = field(default_factory=dict)
    unparsed: dict[str, str] = field(default_factory=dict)
    """Display path -> why it was not classified (binary, too large, vanished, deadline)."""
    deadline_cut: int = 0
    """Candidate files left unclassified because the deadline came near."""
    candidates: int = 0
    notes: list[str] = field(default_factory=list)
    """What the walk skipped by default and, for a name in very many files, the sample
    classified (`bound`): shown as they are."""


def search(params: Params, ctx: Context) -> dict[str, Any]:
    from sofia.providers.refs.match import match
    from sofia.providers.refs.shape import shape

    found = collect(params, ctx)
    matched = [match(query, found) for query in found.queries]
    if not params.exts:
        count_unparsed(found, matched, ctx)
    return shape(params, found, matched, ctx.budget)


def count_unparsed(found: Found, matched: list[Matched], ctx: Context) -> None:
    """For a name with no definition in a parsed file, its occurrences in the files of types no
    language record parses, so the answer never reads "not found" for a name that occurs."""
    from sofia.runtime import unparsed
    from sofia.syntax.registry import EXTENSIONS

    request = found.request
    for m in matched:
        if m.definitions:
            continue
        m.outside = unparsed.count(
            m.query.name,
            [request.target],
            cwd=request.cwd,
            parsed_extensions=EXTENSIONS,
            ignore_dirs=request.ignore_dirs,
            timeout=ctx.timeout(20.0),
        )


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


def collect(params: Params, ctx: Context) -> Found:
    from sofia.providers.refs.head_start import default_exts
    from sofia.syntax.uses.vue import is_component_name, kebab

    queries = queries_of(params.symbols)
    names = list(dict.fromkeys(q.name for q in queries))
    exts = params.exts or default_exts()
    request = build(
        names,
        workspace=ctx.root,
        root=params.root,
        word=True,
        exts=exts,
        ignore_dirs=params.ignore_dirs,
        cap=0,
    )
    spellings = {name: [name] for name in names}
    vue = "vue" in request.exts
    component_names = [n for n in names if vue and is_component_name(n)]
    for name in component_names:
        if kebab(name) != name:
            spellings[name].append(kebab(name))
    kebabs = [spelling for n in component_names for spelling in spellings[n][1:]]
    vue_request = (
        build(
            kebabs,
            workspace=ctx.root,
            root=params.root,
            word=True,
            exts=["vue"],
            ignore_dirs=params.ignore_dirs,
            cap=0,
        )
        if kebabs
        else None
    )
    counts: dict[str, dict[bytes, int]] = {}
    problems: dict[str, str] = {}
    skipped = Skips()
    searched = 0
    limit = bound.budget(0, params.max_per_symbol > 0)
    ripgrep = Ripgrep(request, ctx)
    jobs: list[tuple[str, Ripgrep]] = [(n, ripgrep) for n in names]
    if vue_request is not None:
        vue_rg = Ripgrep(vue_request, ctx)
        jobs += [(s, vue_rg) for n in component_names for s in spellings[n][1:]]
    early: dict[bytes, Parsed | str] = {}
    sizes: dict[bytes, int] = {}
    """Each candidate's size, as the one-name count reported it (the sample reads them again)."""
    stream = len(names) == 1  # each file the count reports can be classified at once: one name
    vue_files: list[bytes] | None = None
    """Every `.vue` file of the walk, from the first kebab-case count (it lists zero counts too)."""
    with ThreadPoolExecutor(max_workers=min(MAX_PROCESSES, len(jobs))) as pool:
        lists = len(names)  # the first kebab-case job, when there is one
        futures: list[Future[Counted]] = [
            pool.submit(_count_listing, rg, spelling) if index == lists else pool.submit(rg.count, spelling)
            for index, (spelling, rg) in enumerate(jobs)
            if index >= stream
        ]
        if stream:
            streamed = _count_and_classify(
                ripgrep, names[0], names, ctx, early, bound.stream_limit(limit), sizes
            )
            futures.insert(0, _done(streamed))
        for index, ((spelling, _), future) in enumerate(zip(jobs, futures, strict=True)):
            counted = future.result()
            if index == lists:
                vue_files = [path.removeprefix(b"./") for path in counted.counts]
            counts[spelling] = {path.removeprefix(b"./"): n for path, n in counted.counts.items() if n > 0}
            problems.update(counted.problems)
            skipped.update(counted.skips)
            searched = max(searched, counted.searched)
    components = {n: _component_files(vue_files or [], n) for n in component_names}
    ctx.check_deadline()
    found = Found(request, queries, counts, spellings, components)
    found.unparsed.update(problems)
    probe = ripgrep.probe()  # beside the classification, which leaves a core to spare
    try:
        _classify(found, ctx, early, bound.budget(searched, params.max_per_symbol > 0), sizes)
        if probe is not None:
            skipped.update(probe.skips(ctx.timeout(PROBE_TIMEOUT)))
    finally:
        if probe is not None:
            probe.kill()
    found.notes[:0] = skips.notes(skipped, request.shown, "root")
    return found


def _count_and_classify(
    ripgrep: Ripgrep,
    spelling: str,
    names: list[str],
    ctx: Context,
    into: dict[bytes, Parsed | str],
    limit: int | None = None,
    sizes: dict[bytes, int] | None = None,
) -> Counted:
    """`spelling`'s count run, each file it reports classified (for `names`) while it goes on
    walking, so parsing overlaps ripgrep's walk instead of following it: in this process for
    the first PARALLEL_FROM files, then in forked processes chunk by chunk where `jobs_for`
    allows. Classification stops at the deadline's reserve, and once the files reported hold
    more than `limit` bytes (the rest waits for the count, which tells whether a sample is taken:
    `bound`); the count always completes (its totals are exact)."""
    from sofia.providers.grep.ripgrep import count_lines

    started = ripgrep.start_count(spelling)
    timeout, give_up = ripgrep.time_box()
    cwd = ripgrep.request.cwd
    left = ctx.time_left()
    reserve = max(MIN_RESERVE, RESERVE_SHARE * left) if left is not None else 0.0
    stop_at = time.monotonic() + left - reserve if left is not None else None
    jobs = jobs_for(PARALLEL_FROM)
    forked = _Forked(cwd, names, stop_at, jobs) if jobs > 1 else None
    offset = 0
    reported = 0
    try:
        while True:
            running = started.running()
            lines, used = count_lines(started.peek(offset))
            offset += used
            if lines:
                ctx.progress(len(into), None, PROGRESS)
            batch = [raw.removeprefix(b"./") for raw, count in lines if count > 0]
            if limit is not None:  # past `limit` bytes reported, a sample may follow: wait for it
                known = sizes if sizes is not None else {}
                for raw in batch:
                    known[raw] = bound.size(cwd, raw)
                reported += sum(known[raw] for raw in batch)
                if reported > limit:
                    batch = []
            for raw in batch:
                if forked is not None and len(into) >= PARALLEL_FROM:
                    kept = _recalled(cwd, raw, names)  # kept by an earlier call: no process needed
                    if kept is not None:
                        into[raw] = kept
                    else:
                        forked.add(raw)
                    continue
                remaining = ctx.time_left()
                if remaining is None or remaining >= reserve:
                    into[raw] = classify_one(cwd, raw, names)[1]
            if not lines:
                if not running:
                    break
                ripgrep.idle(started, timeout, give_up)
        if forked is not None:
            into.update(forked.results())
    except BaseException:
        started.kill()
        raise
    finally:
        if forked is not None:
            forked.close()
    return ripgrep.finish_count(started)


class _Forked:
    """Candidates classified in forked processes, sent in chunks as they are reported."""

    def __init__(self, cwd: Path, names: list[str], stop_at: float | None, jobs: int) -> None:
        self.cwd, self.names, self.stop_at, self.jobs = cwd, names, stop_at, jobs
        self.pending: list[tuple[bytes, list[str]]] = []
        self.sent: list[tuple[list[tuple[bytes, list[str]]], Future[list[tuple[str, Parsed | str]]]]] = []
        self.pool: Any = None

    def add(self, raw: bytes) -> None:
        self.pending.append((raw, self.names))
        if len(self.pending) >= CHUNK:
            self._send()

    def _send(self) -> None:
        if not self.pending:
            return
        if self.pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(
                max_workers=self.jobs, mp_context=multiprocessing.get_context("fork")
            )
        chunk, self.pending = self.pending, []
        self.sent.append((chunk, self.pool.submit(classify_chunk, self.cwd, chunk, self.stop_at)))

    def results(self) -> dict[bytes, Parsed | str]:
        """Every outcome, kept for later calls as the forked processes cannot keep them."""
        from sofia.providers.refs import memo

        self._send()
        found: dict[bytes, Parsed | str] = {}
        for chunk, future in self.sent:
            for (raw, names), (_, outcome) in zip(chunk, future.result(), strict=True):
                found[raw] = outcome
                if isinstance(outcome, Parsed):
                    memo.keep(memo.key_of(self.cwd, raw, names), outcome.stamp, outcome)
        return found

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


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


def jobs_for(candidates: int) -> int:
    """Processes classifying at once: `SOFIA_REFS_JOBS` if set, else up to MAX_JOBS cores once
    there are enough candidates to pay for forking."""
    import multiprocessing

    from sofia import settings

    wanted: int = settings.get(JOBS_ENV) or min(os.cpu_count() or 1, MAX_JOBS)
    if candidates < PARALLEL_FROM or wanted < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return wanted


def _classify(
    found: Found,
    ctx: Context,
    early: dict[bytes, Parsed | str] | None = None,
    limit: int | None = None,
    sizes: dict[bytes, int] | None = None,
) -> None:
    """Parse and classify candidates (a sample of at most `limit` bytes of them: `bound`) in path
    order until the deadline's reserve is reached; files classified while the count ran
    (`early`, for the same names) or by an earlier call and unchanged since are taken as they
    were."""
    from sofia.providers.refs import memo

    wanted: dict[bytes, set[str]] = {}
    for name, spellings in found.spellings.items():
        for spelling in spellings:
            for path in found.counts.get(spelling, {}):
                wanted.setdefault(path, set()).add(name)
    for name, files in found.components.items():
        for rel in files:
            wanted.setdefault(os.fsencode(rel), set()).add(name)
    order = [raw for raw in sorted(wanted) if display_path(raw) not in found.unparsed]
    cwd = found.request.cwd
    segments = [segment for query in found.queries for segment in (*query.qualifier, query.name)]
    names = [query.name for query in found.queries]
    sample = bound.select(order, cwd, limit, segments, names, ctx.timeout(20.0), sizes)
    if sample.left_out:
        order = sample.chosen
        found.notes.append(bound.note(sample))
    found.candidates = len(order)
    recalled: dict[str, Parsed | str] = {}
    items: list[tuple[bytes, list[str]]] = []
    for raw in order:
        names = sorted(wanted[raw])
        if early and raw in early and names == [found.queries[0].name]:
            recalled[display_path(raw)] = early[raw]
            continue
        kept = _recalled(cwd, raw, names)
        if kept is not None:
            recalled[display_path(raw)] = kept
        else:
            items.append((raw, names))
    left = ctx.time_left()
    stop_at = time.monotonic() + left - max(MIN_RESERVE, RESERVE_SHARE * left) if left is not None else None
    jobs = jobs_for(PARALLEL_FROM if sample.left_out else len(items))  # a sample is megabytes
    outcomes: list[tuple[str, Parsed | str]]
    if jobs > 1:
        outcomes = _in_processes(cwd, items, stop_at, jobs, ctx)
        for (raw, names), (_, outcome) in zip(items, outcomes, strict=True):
            if isinstance(outcome, Parsed):  # kept by the process that classified it, which is gone
                memo.keep(memo.key_of(cwd, raw, names), outcome.stamp, outcome)
    else:
        outcomes = []
        reserve = max(MIN_RESERVE, RESERVE_SHARE * left) if left is not None else 0.0
        for index, (raw, names) in enumerate(items):
            remaining = ctx.time_left()
            if remaining is not None and remaining < reserve:
                outcomes += [(display_path(r), DEADLINE) for r, _ in items[index:]]
                break
            if index % TICK_EVERY == 0:
                ctx.progress(index, len(items), PROGRESS)
            outcomes.append(classify_one(cwd, raw, names))
    merged: dict[str, Parsed | str] = dict(outcomes)
    merged.update(recalled)
    for rel in dict.fromkeys(display_path(raw) for raw in order):
        outcome = merged[rel]
        if isinstance(outcome, Parsed):
            found.parsed[rel] = outcome
        else:
            found.unparsed[rel] = outcome
            found.deadline_cut += outcome == DEADLINE


def _in_processes(
    cwd: Path, items: list[tuple[bytes, list[str]]], stop_at: float | None, jobs: int, ctx: Context
) -> list[tuple[str, Parsed | str]]:
    """The same classification in forked processes, chunk by chunk, reassembled in path order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    chunks = [items[i : i + CHUNK] for i in range(0, len(items), CHUNK)]
    outcomes: list[tuple[str, Parsed | str]] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = [pool.submit(classify_chunk, cwd, chunk, stop_at) for chunk in chunks]
        for index, future in enumerate(futures):
            outcomes += future.result()
            ctx.progress(min((index + 1) * CHUNK, len(items)), len(items), PROGRESS)
    return outcomes


def classify_chunk(
    cwd: Path, items: list[tuple[bytes, list[str]]], stop_at: float | None
) -> list[tuple[str, Parsed | str]]:
    """Classify a run of candidates (in a worker process); those past `stop_at` are left out."""
    outcomes: list[tuple[str, Parsed | str]] = []
    for raw, names in items:
        if stop_at is not None and time.monotonic() > stop_at:
            outcomes.append((display_path(raw), DEADLINE))
        else:
            outcomes.append(classify_one(cwd, raw, names))
    return outcomes


def _recalled(cwd: Path, raw: bytes, names: list[str]) -> Parsed | None:
    """The candidate as classified by an earlier call, when the file is unchanged since."""
    from sofia.providers.refs import memo

    try:
        status = os.stat(cwd / os.fsdecode(raw))
    except OSError:
        return None
    return memo.recall(memo.key_of(cwd, raw, names), memo.stamp_of(status))


def classify_one(cwd: Path, raw: bytes, names: list[str]) -> tuple[str, Parsed | str]:
    """One candidate: its classified occurrences, or why it could not be classified."""
    from sofia.providers.refs import memo
    from sofia.syntax import MAX_PARSE_BYTES, ParseUnavailable, language_for
    from sofia.syntax.uses import analyze, syntax_of

    rel = display_path(raw)
    file = cwd / os.fsdecode(raw)
    lang = language_for(file)
    if lang is None:
        return rel, "unsupported file type"
    key = memo.key_of(cwd, raw, names)
    try:
        stamp = memo.stamp_of(os.stat(file))  # before reading: a change while reading shows next time
        kept = memo.recall(key, stamp)
        if kept is not None:
            return rel, kept
        source = file.read_bytes()
    except FileNotFoundError:
        return rel, "vanished"
    except OSError as error:
        return rel, f"unreadable: {error.strerror or error}"
    if b"\0" in source[:BINARY_PROBE]:
        return rel, "binary"
    if len(source) > MAX_PARSE_BYTES:
        return rel, "too large to parse"
    try:
        syntax = syntax_of(source, lang, names)
    except ParseUnavailable as error:
        return rel, f"not parsed: {error}"
    parsed = summarize(rel, syntax, analyze(syntax, rel, names))
    parsed.stamp = stamp
    memo.keep(key, stamp, parsed)
    return rel, parsed
