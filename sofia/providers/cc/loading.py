"""Turning transcript files into digests: from the cache when valid, else parsed (in parallel when
there is enough to parse), with unreadable files counted instead of failing the call."""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sofia.providers.cc.digest import Digest
from sofia.providers.cc.discovery import Listing, Session, TranscriptFile, legacy_agents_in, peek
from sofia.providers.contract import Context

if TYPE_CHECKING:
    from sofia.providers.cc.parallel import Job

log = logging.getLogger("sofia.cc")

PARALLEL_MIN_BYTES = 48 * 1024 * 1024
"""Below this much uncached transcript, starting processes costs more than it saves."""


class Loader:
    """Digests for one call: cache first, then parsing; remembers what could not be read."""

    def __init__(self, ctx: Context, redact: bool, store: bool = True) -> None:
        """`store=False` reads cache entries but never writes one."""
        from sofia.providers.cc import cache

        self.ctx = ctx
        self.redact = redact
        self.store = store and redact
        self.cache = cache.Cache(cache.directory() if redact else None)
        self.unreadable: list[str] = []
        self._known: dict[TranscriptFile, Digest] = {}
        """Digests this call already has (a selector and the tool read the same files)."""

    def digests(self, jobs: Iterable[Job], label: str = "transcripts") -> dict[str, Digest]:
        """path -> digest for every readable job."""
        out: dict[str, Digest] = {}
        missing: list[Job] = []
        for job in jobs:
            file = job[0]
            if file.path in out:
                continue
            known = self._known.get(file)
            if known is not None:
                out[file.path] = known
                continue
            cached = self.cache.get(file.path, file.size, file.mtime_ns)
            if cached is not None:
                out[file.path] = self._known[file] = cached
            else:
                missing.append(job)
        total = len(out) + len(missing)
        done = len(out)
        if len(missing) > 1:
            self.ctx.progress(done, total, f"reading {label}")
        for job, digest in self._parse(missing):
            done += 1
            if isinstance(digest, OSError):
                if job[0].path not in self.unreadable:
                    self.unreadable.append(job[0].path)
            else:
                out[job[0].path] = digest
            if len(missing) > 1:
                self.ctx.progress(done, total, f"reading {label}")
        self._known.update((job[0], out[job[0].path]) for job in missing if job[0].path in out)
        log.debug(
            "cc cache: %d hits, %d misses, %d writes", self.cache.hits, self.cache.misses, self.cache.writes
        )
        return out

    def _parse(self, jobs: list[Job]) -> Iterable[tuple[Job, Digest | OSError]]:
        from sofia.providers.cc import parallel
        from sofia.providers.cc.reader import read_transcript

        size = sum(job[0].size for job in jobs)
        workers = parallel.worker_count(len(jobs))
        cache_dir = str(self.cache.root) if self.cache.root is not None and self.store else None
        if workers > 1 and size >= PARALLEL_MIN_BYTES:
            from concurrent.futures.process import BrokenProcessPool

            done: set[str] = set()
            try:
                for job, digest in parallel.parse_in_pool(
                    jobs, self.redact, cache_dir, workers, self.ctx.check_deadline
                ):
                    done.add(job[0].path)
                    yield job, digest
                return
            except BrokenProcessPool as error:
                log.debug("parse pool failed (%s); parsing the rest in this process", error)
            jobs = [job for job in jobs if job[0].path not in done]
        for job in jobs:
            self.ctx.check_deadline()
            file, agent = job
            try:
                digest = read_transcript(file.path, agent, self.redact)
            except OSError as error:
                yield job, error
                continue
            if self.store:
                parallel.store(self.cache, file, digest)
            yield job, digest


@dataclass
class Attribution:
    """Which session each project-level agent file belongs to."""

    by_session: dict[str, list[tuple[str, TranscriptFile]]] = field(default_factory=dict)
    orphans: list[str] = field(default_factory=list)


def attribute_legacy_agents(listing: Listing) -> Attribution:
    """Match project-level `agent-*.jsonl` files to their parent through the `sessionId` they carry."""
    known = {session.full_id for session in listing.sessions}
    result = Attribution(orphans=list(listing.orphan_sidecars))
    for _, agent, file in listing.legacy_agents:
        parent = peek(file.path)[1]
        if parent in known:
            result.by_session.setdefault(parent, []).append((agent, file))
        else:
            result.orphans.append(file.path)
    result.orphans.sort()
    return result


def agent_files(session: Session, attribution: Attribution | None = None) -> list[tuple[str, TranscriptFile]]:
    """The sidecar and project-level agent files of `session`, sorted by agent id."""
    found = list(session.agent_files)
    if attribution is not None:
        found += attribution.by_session.get(session.full_id, [])
    else:
        for agent, file in legacy_agents_in(Path(session.file.path).parent):
            if peek(file.path)[1] == session.full_id:
                found.append((agent, file))
    return sorted(found, key=lambda pair: (pair[0], pair[1].path))


def with_agents(main: Digest, agents: list[tuple[str, TranscriptFile]], digests: dict[str, Digest]) -> Digest:
    """`main` with its subagent files folded into the subagent bucket (main itself is not changed)."""
    merged = copy.deepcopy(main)
    for _, file in agents:
        agent_digest = digests.get(file.path)
        if agent_digest is not None:
            merged.absorb_agent_file(agent_digest)
    return merged
