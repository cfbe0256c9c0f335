"""`refs`: where a symbol is defined and every place that uses it, with no index.

ripgrep's word search on each name's last segment (grep's engine) gives the candidate files and
the exact textual totals; only those files are parsed, and every occurrence is classified on its
syntax tree (`sofia.syntax.uses`). This module holds the input model and `run`; the search, the
matching of uses to the requested names and the result's shape live in the other modules.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from sofia.providers.contract import Cli, Context, Implementation
from sofia.providers.params import Input, PathParam

Kind = Literal["call", "new", "extends", "implements", "use", "import", "type", "tag", "reference"]


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
        list[Kind],
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
