"""The `session` selector: a file path, `last`, an id prefix, or a project name; empty is the
newest session of the workspace's own project when it has one (an agent asking about "the session"
means the one in the directory it works in), else the newest of all, as `last`.

Ambiguity is an error that lists the candidates instead of a silent guess.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sofia.errors import param, tool
from sofia.providers.cc import timefmt
from sofia.providers.cc.discovery import (
    SUFFIX,
    Listing,
    Session,
    list_sessions,
    peek,
    resolve_root,
    session_from_path,
)
from sofia.providers.cc.latest import newest
from sofia.providers.contract import Context, ProviderError
from sofia.runtime import files

if TYPE_CHECKING:
    from sofia.providers.cc.loading import Loader

Newest = Callable[[Sequence[Session]], Session]

SHOWN = 5
"""Candidates named in an ambiguity or no-match message."""


def project_label(cwd: str, project_dir: str) -> str:
    """The project's name: the last part of its working directory, else the encoded directory name."""
    name = os.path.basename(cwd.rstrip("/")) if cwd else ""
    return name or project_dir.lstrip("-") or project_dir


def is_path(selector: str) -> bool:
    return selector.endswith(SUFFIX) or "/" in selector or os.sep in selector


def select(
    selector: str, projects_dir: str | None, ctx: Context, loader: Loader
) -> tuple[Session, Listing | None]:
    """The session `selector` names, and the listing it was found in (None for a file path).

    `last` and a project name pick the latest session by `latest.newest`, reading digests through
    `loader` (the cache makes that cheap), so they agree with the first row of `cc_ls`."""
    text = selector.strip()
    if is_path(text):
        path = Path(os.path.expanduser(text))
        if not path.is_absolute():
            path = ctx.root / path
        files.require(path, text, what="session file", directory=False)
        if not path.is_file():
            raise ProviderError(f"session file not found: {path}", "pass an existing .jsonl transcript")
        return session_from_path(path), None
    listing = list_sessions(resolve_root(projects_dir, ctx))
    if not listing.sessions:
        raise ProviderError(
            f"no sessions under {listing.root}", f"set {param('projects_dir')} or $CC_PROJECTS_DIR"
        )
    return pick(text, listing, lambda candidates: newest(candidates, loader), ctx.root), listing


def pick(text: str, listing: Listing, latest: Newest, workspace: Path | None = None) -> Session:
    sessions = listing.sessions
    if text == "" and workspace is not None:
        own = workspace_sessions(sessions, workspace)
        if own:
            return latest(own)
    if text == "" or text.lower() == "last":
        return latest(sessions)
    wanted = text.lower()
    by_prefix = [s for s in sessions if s.full_id.lower().startswith(wanted)]
    exact = [s for s in by_prefix if s.full_id.lower() == wanted]
    if exact or len(by_prefix) == 1:
        return (exact or by_prefix)[0]
    if by_prefix:
        raise ProviderError(
            f'session prefix "{text}" is ambiguous: {_describe(by_prefix)}; use more characters'
        )
    labels = _labels(sessions)
    projects = list(dict.fromkeys(s.project_dir for s in sessions))
    named = [d for d in projects if labels[d].lower() == wanted]
    if not named:
        named = [d for d in projects if wanted in labels[d].lower() or wanted in d.lower()]
    if len(named) == 1:
        return latest([s for s in sessions if s.project_dir == named[0]])
    if named:
        listed = ", ".join(f"{labels[d]} ({d})" for d in named[:SHOWN])
        more = f" and {len(named) - SHOWN} more" if len(named) > SHOWN else ""
        raise ProviderError(
            f'session selector "{text}" matches {len(named)} projects: {listed}{more}; '
            "use the exact project name or a session id prefix"
        )
    choices = [s.short_id for s in sessions] + [labels[d] for d in projects]
    close = difflib.get_close_matches(wanted, list(dict.fromkeys(choices)), n=SHOWN, cutoff=0.5)
    suffix = f"; close matches: {', '.join(close)}" if close else ""
    raise ProviderError(
        f'no session matched "{text}"{suffix}',
        f"pass last, a session id prefix, a project name or a .jsonl path; {tool('cc_ls')} lists sessions",
    )


def encoded(directory: str) -> str:
    """Claude Code's name for the project directory of sessions started in `directory`: every
    character but a letter or a digit becomes `-` (`/home/dev/src/web` is `-home-dev-src-web`)."""
    return re.sub(r"[^A-Za-z0-9]", "-", directory)


def workspace_sessions(sessions: Sequence[Session], workspace: Path) -> list[Session]:
    """The sessions Claude Code ran with `workspace` as its project: those of the project directory
    it names for the workspace, else those of a project whose sessions' `cwd` is the workspace
    (one transcript head read per project)."""
    spellings = {str(workspace).rstrip("/") or "/", os.path.realpath(workspace)}
    names = {encoded(spelling) for spelling in spellings}
    own = [s for s in sessions if s.project_dir in names]
    if own:
        return own
    first: dict[str, Session] = {}
    for session in sessions:
        first.setdefault(session.project_dir, session)
    matched = {d for d, s in first.items() if (peek(s.file.path)[0].rstrip("/") or "/") in spellings}
    return [s for s in sessions if s.project_dir in matched]


def _labels(sessions: list[Session]) -> dict[str, str]:
    """Project directory -> label, from the newest session of each directory."""
    labels: dict[str, str] = {}
    for session in sessions:
        if session.project_dir not in labels:
            labels[session.project_dir] = project_label(peek(session.file.path)[0], session.project_dir)
    return labels


def _describe(sessions: list[Session]) -> str:
    shown = [
        f"{s.short_id} {project_label(peek(s.file.path)[0], s.project_dir)} {timefmt.minutes(s.file.mtime)}"
        for s in sessions[:SHOWN]
    ]
    more = f" and {len(sessions) - SHOWN} more" if len(sessions) > SHOWN else ""
    return ", ".join(shown) + more
