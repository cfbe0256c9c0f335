"""The parameters of a walk with grep's engine, shared by every tool that walks with it (`grep`,
`refs`): one declaration each, so their names, CLI flags and descriptions cannot drift apart."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from sofia.providers.contract import Cli
from sofia.providers.params import PathParam

SearchRoot = Annotated[
    str,
    Field(description="Directory or file to search."),
    Cli(flag="--root", metavar="DIR"),
    PathParam(),
]
"""`root`: where the walk starts (default `.`)."""
Extensions = Annotated[
    list[str],
    Field(default_factory=list, description="Extensions to search (php, ts); empty = all."),
    Cli(flag="--ext", split=True, metavar="EXT"),
]
"""`exts`: the file extensions kept (grep reads every file, refs every supported source file)."""
IgnoredDirs = Annotated[
    list[str],
    Field(
        default_factory=list,
        description="Directory names (not paths) to skip too, tracked or not; .gitignore always applies.",
    ),
    Cli(flag="--ignore-dir", split=True, metavar="NAME"),
]
"""`ignore_dirs`: directory names skipped at any depth besides the default skips."""
