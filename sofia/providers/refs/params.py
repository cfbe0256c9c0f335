"""The `refs` input model: the parameters as agents and the CLI send them. The walk's parameters
(`root`, `exts`, `ignore_dirs`) are grep's, declared once in grep's face."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from sofia.providers.contract import Cli
from sofia.providers.grep import Extensions, IgnoredDirs, SearchRoot
from sofia.providers.params import Input
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
    root: SearchRoot = "."
    exts: Extensions
    ignore_dirs: IgnoredDirs
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
