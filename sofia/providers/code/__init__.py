"""`code`: structure without bodies, or exactly the bodies asked for (docs/code.md).

Only pydantic and the contract are imported here: the CLI imports this module to build `--help`.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from sofia.providers.contract import Cli, Context, Implementation
from sofia.providers.params import Input, PathParam

__all__ = ["IMPLEMENTATION", "CliParams", "Params", "as_text", "prepare", "render", "run"]

FILES_HELP = "Files, directories or globs (src/**/*.php), at most 250 files."
SYMBOLS_HELP = "Symbols to return verbatim, from one file or under a directory/glob: Class::method, Type.Method, bare name."
Files = Annotated[
    list[str],
    Field(min_length=1, description=FILES_HELP),
    Cli(positional=True, metavar="PATH"),
    PathParam(glob=True),
]
Exported = Annotated[bool, Field(default=False, description="Public/exported declarations and members only.")]
Api = Annotated[
    bool,
    Field(
        default=False,
        description="PHP: public surface incl. traits and parents (rows carry via); implies exported.",
    ),
]
Brief = Annotated[
    bool,
    Field(
        default=False,
        description="Names and signatures only.",
    ),
]
Force = Annotated[
    bool,
    Field(default=False, description="Return the result even if this call just returned it."),
]


class Params(Input):
    """Inputs of `code` (MCP and library callers)."""

    files: Files
    symbol: Annotated[str, Field(default="", description="One symbol to slice (joins symbols).")]
    symbols: Annotated[list[str], Field(default_factory=list, description=SYMBOLS_HELP)]
    exported: Exported
    api: Api
    brief: Brief
    force: Force


class CliParams(Input):
    """The CLI spelling: `sf code PATH... [SYMBOL...]`, `--symbol NAME` repeatable; `prepare` turns
    it into `Params` after telling files from symbols among the positionals."""

    files: Annotated[
        list[str],
        Field(min_length=1, description="Files, directories or globs; or one file followed by symbol names"),
        Cli(positional=True, metavar="PATH"),
        PathParam(glob=True),
    ]
    symbols: Annotated[
        list[str], Field(default_factory=list, description=SYMBOLS_HELP), Cli(flag="--symbol", metavar="NAME")
    ]
    exported: Exported
    api: Api
    brief: Brief
    force: Force


def prepare(params: CliParams | Params, ctx: Context) -> Params:
    """Classify CLI positionals: one existing file followed by words means slices of those symbols."""
    from sofia.providers.code.inputs import classify

    values = params.model_dump()
    files, symbols = classify(values["files"], ctx.root)
    return Params.model_validate({**values, "files": files, "symbols": [*symbols, *values["symbols"]]})


def run(params: Params, ctx: Context) -> dict[str, Any]:
    from sofia.providers.code import pipeline

    return pipeline.run(params, ctx)


def render(result: Any, fmt: str) -> str | None:
    """CLI text: file documents one by one, raw files verbatim, slices as source (None for JSON)."""
    from sofia.providers.code import text

    return text.render(result, fmt)


def as_text(result: Any) -> str | None:
    """Slice-mode results travel as the raw source text of the symbols; everything else as JSON."""
    from sofia.providers.code import text

    return text.slice_text(result) if isinstance(result, dict) and text.is_slice_result(result) else None


IMPLEMENTATION = Implementation(
    params=Params, run=run, cli_params=CliParams, prepare=prepare, render=render, as_text=as_text
)
