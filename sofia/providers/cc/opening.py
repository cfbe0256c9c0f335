"""Choosing and opening sessions for the cc tools: filtering by period and project, and opening one
session (with its subagents) by its selector."""

from __future__ import annotations

from dataclasses import dataclass, field

from sofia.providers.cc import latest
from sofia.providers.cc.digest import Digest
from sofia.providers.cc.discovery import Session, parse_since, peek
from sofia.providers.cc.loading import Loader, agent_files, with_agents
from sofia.providers.cc.notes import label
from sofia.providers.cc.selector import project_label, select
from sofia.providers.contract import Context, ProviderError


def project_matches(session: Session, cwd: str, wanted: str) -> bool:
    """Whether the lower-cased filter `wanted` is in the session's project label, directory or cwd;
    a session whose cwd is not known yet is kept (undecided)."""
    if not cwd:
        return True
    label = project_label(cwd, session.project_dir)
    return wanted in label.lower() or wanted in session.project_dir.lower() or wanted in cwd.lower()


def filter_sessions(sessions: list[Session], since: str, project: str, ctx: Context) -> list[Session]:
    """Sessions modified within `since` whose project may match `project`, decided on a cheap look at
    each transcript's head (callers re-check `project_matches` with the parsed cwd)."""
    window = parse_since(since)
    if window is not None:
        threshold = ctx.clock() - window
        sessions = [s for s in sessions if s.file.mtime >= threshold]
    wanted = project.strip().lower()
    if wanted:
        sessions = [s for s in sessions if project_matches(s, peek(s.file.path)[0], wanted)]
    return sessions


@dataclass
class Opened:
    """One session with its digest (subagent files folded in when asked for)."""

    session: Session
    digest: Digest
    project: str
    sources: list[tuple[str, Digest]] = field(default_factory=list)
    """(label, digest) of every file read: the session's, then its subagents' (for notes)."""

    @property
    def updated(self) -> float:
        return latest.updated(self.session, self.digest)


def selecting(loader: Loader) -> Loader:
    """A loader for choosing a session: `loader` itself, or, when `loader` bypasses the cache, one
    that reads cached entries without writing any (choosing needs only times, which redaction
    never changes)."""
    return loader if loader.redact else Loader(loader.ctx, True, store=False)


def open_session(
    selector: str, projects_dir: str | None, ctx: Context, redact: bool, subagents: bool
) -> Opened:
    """Resolve `selector`, read the session (cache first) and, if asked, its subagent files."""
    loader = Loader(ctx, redact)
    session, listing = select(selector, projects_dir, ctx, selecting(loader))
    agents = agent_files(session) if subagents else []
    digests = loader.digests([(session.file, None), *((file, agent) for agent, file in agents)])
    main = digests.get(session.file.path)
    if main is None:
        raise ProviderError(f"cannot read session file: {session.file.path}", "check its permissions")
    digest = with_agents(main, agents, digests) if agents else main
    root = listing.root if listing is not None else None
    sources = [(label(session.file.path, root), main)]
    sources += [(label(file.path, root), digests[file.path]) for _, file in agents if file.path in digests]
    return Opened(session, digest, project_label(digest.cwd, session.project_dir), sources)
