"""A test tool whose errors, notes and text name its parameters in every form `param` has.

Registered only when `SOFIA_TEST_PROVIDERS=tests.hints.referring`; the CLI and the server import it
through PYTHONPATH set by the tests.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from sofia.errors import MESSAGE_LIMIT, param, tool
from sofia.providers.contract import Cli, Context, Implementation, ProviderError
from sofia.providers.params import Input
from sofia.providers.registry import Provider

EVERY_FORM = " | ".join(
    [
        param("exts"),
        param("root", ...),
        param("paths", [...]),
        param("file", ...),
        param("file", "src/router.ts"),
        param("max_per_pattern", 5),
        param("regex", True),
        param("case", False),
        param("scope", "repo"),
        param("exts", ["php", "ts"]),
        param("nope", 3),
        tool("grep"),
        tool("cc_ls"),
    ]
)
"""Every kind of reference, between ` | ` so a test can split the spellings apart."""


class Params(Input):
    mode: Annotated[Literal["error", "notes", "text", "long"], Field(description="what to answer")] = "notes"
    file: Annotated[str, Field(description="one file"), Cli(positional=True, metavar="FILE")] = ""
    root: Annotated[str, Field(description="a directory"), Cli(metavar="DIR")] = ""
    regex: Annotated[bool, Field(description="a flag off by default")] = False
    case: Annotated[bool, Field(description="a flag on by default")] = True
    exts: Annotated[
        list[str],
        Field(default_factory=list, description="a list option"),
        Cli(flag="--ext", metavar="EXT", split=True),
    ]
    max_per_pattern: Annotated[int, Field(description="a number")] = 0
    scope: Annotated[Literal["workspace", "repo"], Field(description="a choice")] = "workspace"
    paths: Annotated[
        list[str],
        Field(default_factory=list, description="after --"),
        Cli(after_dashdash=True, metavar="PATH"),
    ]


def run(params: Params, ctx: Context) -> dict[str, Any] | str:
    if params.mode == "error":
        raise ProviderError(f"bad call: {EVERY_FORM}", f"pass {EVERY_FORM}")
    if params.mode == "long":
        # The bound falls inside a reference: the cut must not leave half of one.
        head = "x" * (MESSAGE_LIMIT - 5)
        raise ProviderError(head + param("max_per_pattern", 5) + " and more", "")
    if params.mode == "text":
        return f"text: {EVERY_FORM}\n"
    return {
        "rows": [{"path": "a.php", "error": f"row: {EVERY_FORM}"}],
        "nested": {"deeper": [[f"cell: {EVERY_FORM}"]]},
        "notes": [f"note: {EVERY_FORM}"],
    }


REFER = Implementation(params=Params, run=run)

PROVIDERS: tuple[Provider, ...] = (
    Provider(
        name="hints_refer",
        cli=("hints", "refer"),
        module=f"{__name__}:REFER",
        description="Test provider: names its parameters in errors, notes and text.",
    ),
)
