"""What the six cc providers share: parameter declarations, opening one session, small notes."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field

from sofia.providers.contract import Cli, Context, ProviderError
from sofia.providers.params import Input, PathParam

from .digest import Digest
from .discovery import DEFAULT_ROOT, Session, parse_since, peek
from .loading import Loader, agent_files, with_agents
from .selector import project_label, select


def is_session_path(selector: str) -> bool:
    """A session selector names a transcript file when it ends in .jsonl or holds a separator."""
    return selector.strip().endswith(".jsonl") or "/" in selector or os.sep in selector


SESSION_PATH = PathParam(when=lambda value, workspace: is_session_path(value))
"""A session selector is confined when it names a transcript file."""

ProjectsDir = Annotated[
    str | None,
    Field(description="Claude Code projects dir (default $CC_PROJECTS_DIR or ~/.claude/projects)"),
    PathParam(),
]
SessionSelector = Annotated[
    str,
    Field(description=("empty or 'last' = newest; else an id prefix, project name or .jsonl path")),
    Cli(positional=True, metavar="SESSION"),
    SESSION_PATH,
]
Since = Annotated[
    str,
    Field(description="only transcripts modified within this period: 30m, 24h, 7d, 1h30m"),
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
    chosen = os.environ.get("CC_PROJECTS_DIR", "") or DEFAULT_ROOT
    return [Path(os.path.abspath(os.path.expanduser(chosen)))]


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

    @property
    def updated(self) -> float:
        return self.digest.end if self.digest.end is not None else self.session.file.mtime


def open_session(
    selector: str, projects_dir: str | None, ctx: Context, redact: bool, subagents: bool
) -> Opened:
    """Resolve `selector`, read the session (cache first) and, if asked, its subagent files."""
    session, _ = select(selector, projects_dir, ctx)
    agents = agent_files(session) if subagents else []
    loader = Loader(ctx, redact)
    digests = loader.digests([(session.file, None), *((file, agent) for agent, file in agents)])
    main = digests.get(session.file.path)
    if main is None:
        raise ProviderError(f"cannot read session file: {session.file.path}", "check its permissions")
    digest = with_agents(main, agents, digests) if agents else main
    return Opened(session, digest, project_label(digest.cwd, session.project_dir))


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
    """The keys every cc result ends with."""
    return {"redactions": redactions, "notes": notes, "omitted": {k: v for k, v in omitted.items() if v}}
