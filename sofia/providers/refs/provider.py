"""The `refs` input model and `run`: the parameters as agents and the CLI send them, and the call
that hands them to the engine and the shaper."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from sofia.providers.contract import Cli, Context, Implementation
from sofia.providers.params import Input, PathParam
from sofia.syntax.uses.model import UseKind


class Params(Input):
    """Definitions and classified uses of 1-8 symbols."""

    symbols: Annotated[
        list[str],
        Field(
            min_length=1,
            max_length=8,
            description="Names, bare or qualified (Class::method, App\\Http\\User, Repo.fetch).",
        ),
        Cli(positional=True, metavar="SYMBOL"),
    ]
    root: Annotated[
        str,
        Field(description="Directory to search."),
        Cli(flag="--root", metavar="DIR"),
        PathParam(),
    ] = "."
    exts: Annotated[
        list[str],
        Field(default_factory=list, description="Extensions (php, ts); empty = all supported."),
        Cli(flag="--ext", split=True, metavar="EXT"),
    ]
    ignore_dirs: Annotated[
        list[str],
        Field(default_factory=list, description="Directory names to skip."),
        Cli(flag="--ignore-dir", split=True, metavar="NAME"),
    ]
    kinds: Annotated[
        list[UseKind],
        Field(default_factory=list, description="Use kinds to show; empty = all."),
        Cli(flag="--kind", split=True, metavar="KIND"),
    ]
    definitions: Annotated[bool, Field(description="List the definitions.")] = True
    max_per_symbol: Annotated[
        int,
        Field(ge=0, description="Uses shown per symbol; 0 = budget allows."),
    ] = 50


def run(params: Params, ctx: Context) -> dict[str, Any]:
    """Find, classify and shape; every input problem is a ProviderError before anything runs."""
    from sofia.providers.refs.engine import search

    return search(params, ctx)


IMPLEMENTATION = Implementation(params=Params, run=run)
