"""The fault-path test providers plus one that says where a call runs, for the workspace tests.

Registered with `SOFIA_TEST_PROVIDERS=tests.server.where`: `test_where` answers the workspace
(`Context.root`), the allowed roots (`Context.allowed`) and the worker's working directory, and
takes one confined `root`, so a walk of the whole workspace is refused like any tool's.
"""

from __future__ import annotations

import os
from typing import Annotated, Any

from pydantic import Field

from sofia.providers.contract import Context, Implementation
from sofia.providers.params import Input, PathParam
from sofia.providers.registry import LOCAL, Provider
from tests.server.faulty import PROVIDERS as FAULTY


class WhereParams(Input):
    root: Annotated[str, Field(description="a directory, confined like any tool's"), PathParam()] = "."


def where(params: WhereParams, ctx: Context) -> dict[str, Any]:
    return {
        "root": str(ctx.root),
        "allowed": [str(path) for path in ctx.allowed],
        "cwd": os.getcwd(),
        "listed": sorted(os.listdir(ctx.root / params.root)),
    }


WHERE = Implementation(params=WhereParams, run=where)

PROVIDERS: tuple[Provider, ...] = (
    *FAULTY,
    Provider(
        name="test_where",
        cli=("test", "where"),
        module=f"{__name__}:WHERE",
        description="Test provider: where a call runs.",
        annotations=LOCAL,
    ),
)
