"""What the six cc providers share: parameter declarations, opening one session, small notes."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, Field

from sofia.output import budget as budgets
from sofia.output.notes import Place, not_followed
from sofia.providers.cc import latest
from sofia.providers.cc.digest import Digest
from sofia.providers.cc.discovery import Session, parse_since, peek
from sofia.providers.cc.loading import Loader, agent_files, with_agents
from sofia.providers.cc.location import projects_root
from sofia.providers.cc.selector import project_label, select
from sofia.providers.contract import Cli, Context, ProviderError
from sofia.providers.params import Input, PathParam


def is_session_path(selector: str) -> bool:
    """A session selector names a transcript file when it ends in .jsonl or holds a separator."""
    return selector.strip().endswith(".jsonl") or "/" in selector or os.sep in selector


SESSION_PATH = PathParam(when=lambda value, workspace: is_session_path(value))
"""A session selector is confined when it names a transcript file."""

ProjectsDir = Annotated[
    str | None,
    Field(description="Claude Code projects dir (default ~/.claude/projects)"),
    PathParam(),
]
SessionSelector = Annotated[
    str,
    Field(
        description=(
            "empty = newest of this workspace's project (else newest of all); 'last' = newest of all; "
            "else id prefix, project or .jsonl path"
        )
    ),
    Cli(positional=True, metavar="SESSION"),
    SESSION_PATH,
]


def _a_period(value: str) -> str:
    """`since` is checked with the other arguments, before any transcript is looked for."""
    try:
        parse_since(value)
    except ProviderError:
        raise ValueError(f'a period such as 30m, 24h, 7d or 1h30m, not "{value}"') from None
    return value


Since = Annotated[
    str,
    Field(description="only transcripts modified within this period: 30m, 24h, 7d, 1h30m"),
    AfterValidator(_a_period),
]
ProjectFilter = Annotated[
    str,
    Field(description="only projects whose name, dir or cwd contains this (any case)"),
]
Redact = Annotated[
    bool,
    Field(description="replace secrets (API keys, tokens, passwords) with [REDACTED:<kind>]; CLI only"),
]


def data_roots() -> list[Path]:
    """Claude Code's data folder: the cc tools' path parameters may point into it on the server too."""
    return [projects_root()]


SHOWN_PATHS = 5
"""Paths named in a note about unreadable or orphaned files."""


class SessionParams(Input):
    """The input of the tools that read one session: which one, and where sessions live."""

    session: SessionSelector = ""
    projects_dir: ProjectsDir = None


class SessionCliParams(SessionParams):
    redact: Redact = True


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


def wants_redaction(params: BaseModel) -> bool:
    return bool(getattr(params, "redact", True))


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


def label(path: str, root: Path | None) -> str:
    """How notes name a transcript: relative to the projects root when inside it, else as found."""
    if root is not None:
        prefix = str(root).rstrip("/") + "/"
        if path.startswith(prefix):
            return path[len(prefix) :]
    return path


def reading_notes(sources: Sequence[tuple[str, Digest]]) -> list[str]:
    """What the reader could not follow in these transcripts, each named by file and line: lines
    that are not JSON objects, records of a type it does not know, and user messages in markup it
    does not know. Empty when it followed everything."""
    notes = []
    malformed = sum(digest.malformed_lines for _, digest in sources)
    if malformed:
        places = [Place(name, line) for name, digest in sources for line in digest.malformed_at]
        notes.append(not_followed("transcript lines", places, "not a JSON object", malformed))
    for what, why, attribute in (
        ("records", "a record type sofia does not know", "unknown_types"),
        ("user messages", "markup sofia does not know; not counted as prompts", "unknown_markup"),
    ):
        found = [
            (name, kind, count, line)
            for name, digest in sources
            for kind, (count, line) in getattr(digest, attribute).items()
        ]
        if found:
            found.sort(key=lambda item: (item[0], item[3]))
            places = [Place(name, line, kind) for name, kind, _, line in found]
            notes.append(not_followed(what, places, why, sum(item[2] for item in found)))
    return notes


def named_paths(what: str, paths: Sequence[str]) -> str:
    """`<what>: a, b, c and 4 more`."""
    shown = ", ".join(paths[:SHOWN_PATHS])
    more = f" and {len(paths) - SHOWN_PATHS} more" if len(paths) > SHOWN_PATHS else ""
    return f"{what}: {shown}{more}"


def kept_prompts_note(digest: Digest) -> list[str]:
    """A note when the session has more human turns than are kept."""
    extra = digest.prompts_total - len(digest.prompts)
    if extra <= 0:
        return []
    return [f"only the first {len(digest.prompts)} prompts are kept; {extra} later prompts are not shown"]


def result_tail(redactions: int, notes: list[str], omitted: dict[str, int]) -> dict[str, Any]:
    """The keys every cc result ends with; `omitted` only when something was left out."""
    return budgets.with_omitted({"redactions": redactions, "notes": notes}, omitted)


BIGGER = "a larger budget shows more"
"""The hint of a cut the call itself cannot avoid: the budget alone decides."""


@dataclass(frozen=True)
class Cut:
    """How the list `key` was cut: `total` rows, `capped` allowed by a limit, `kept` after the budget."""

    key: str
    unit: str
    total: int
    capped: int
    kept: int
    limit: str = ""
    """What cut the list besides the budget (`param("limit", 30)`); empty when nothing did."""
    limit_hint: str = ""
    """How to get past `limit`; empty for a fixed cap, which then goes without a note."""


def cut_note(cut: Cut, budget: int | None, budget_hint: str) -> list[str]:
    """The note on a shortened list: when the budget cut it, or a limit the caller can lift did;
    a list cut only by a fixed cap is counted in `omitted` and documented, not noted."""
    if cut.kept >= cut.total:
        return []
    limit = cut.limit if cut.capped < cut.total else ""
    if cut.kept < cut.capped:
        return [budgets.note(cut.key, cut.kept, cut.total, cut.unit, budget, budget_hint, limit=limit)]
    if limit and cut.limit_hint:
        return [budgets.note(cut.key, cut.kept, cut.total, cut.unit, None, cut.limit_hint, limit=limit)]
    return []


def texts_note(
    what: str, texts: Sequence[str], limit: int, default: int, budget: int | None, hint: str
) -> list[str]:
    """The note on texts the budget cut below their usual `default` length to `limit` characters."""
    if limit >= default:
        return []
    count = sum(1 for text in texts if len(text) > limit)
    if not count:
        return []
    return [budgets.shortened_note(what, budgets.texts_cut(count, limit), budget, hint)]
