"""The parameters the cc tools share: which session, where sessions live, since when, which
projects, whether to redact; and the data folder their paths may point into on the server."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field

from sofia.providers.cc.discovery import parse_since
from sofia.providers.cc.location import projects_root
from sofia.providers.contract import Cli, ProviderError
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


class SessionParams(Input):
    """The input of the tools that read one session: which one, and where sessions live."""

    session: SessionSelector = ""
    projects_dir: ProjectsDir = None


class SessionCliParams(SessionParams):
    redact: Redact = True


def wants_redaction(params: BaseModel) -> bool:
    return bool(getattr(params, "redact", True))
