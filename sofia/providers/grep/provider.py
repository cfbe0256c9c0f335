"""The `grep` provider: its input model and `run`. The engine is imported when a search runs."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from sofia.errors import param
from sofia.providers.contract import Cli, Context, Implementation
from sofia.providers.grep.params import Extensions, IgnoredDirs, SearchRoot
from sofia.providers.grep.request import Request, build
from sofia.providers.params import Input


class Params(Input):
    """Search the workspace for patterns; every hit comes with its enclosing symbol."""

    patterns: Annotated[
        list[str],
        Field(description=f"1-32 patterns, searched independently; literal unless {param('regex', True)}."),
        Cli(positional=True, metavar="PATTERN"),
    ]
    root: SearchRoot = "."
    regex: Annotated[
        bool,
        Field(description="Patterns are ripgrep regexes (no look-around or backreferences)."),
        Cli(short="-E"),
    ] = False
    word: Annotated[
        bool,
        Field(description="Whole words only."),
        Cli(short="-w"),
    ] = False
    case: Annotated[
        bool,
        Field(description="Case-sensitive matching."),
        Cli(off_short="-i"),
    ] = True
    exts: Extensions
    ignore_dirs: IgnoredDirs
    max_per_pattern: Annotated[
        int,
        Field(
            ge=0,
            description="Hits shown per pattern (totals stay exact; more_in lists the rest); 0 = budget allows.",
        ),
    ] = 30


def run(params: Params, ctx: Context) -> dict[str, Any]:
    """Search, then shape the result (hits, exact totals, more_in, notes) to the cap and the budget."""
    request = validate(params, ctx)
    from sofia.providers.grep.engine import search

    return search(request, ctx)


def validate(params: Params, ctx: Context) -> Request:
    """Check every input before anything runs; each problem is a ProviderError naming the value."""
    return build(
        params.patterns,
        workspace=ctx.root,
        root=params.root,
        regex=params.regex,
        word=params.word,
        case=params.case,
        exts=params.exts,
        ignore_dirs=params.ignore_dirs,
        cap=params.max_per_pattern,
    )


IMPLEMENTATION = Implementation(params=Params, run=run)
