"""The provider contract: what a provider receives (`Context`), raises and returns.

Kept free of heavy imports: the CLI imports it on every start.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sofia import settings

# Re-exported: providers import the contract alone.
from sofia.errors import DeadlineExceeded as DeadlineExceeded
from sofia.errors import ProviderError as ProviderError

if TYPE_CHECKING:
    from pydantic import BaseModel

# Re-exported: the default budget is a setting (`sofia.settings`).
from sofia.settings import DEFAULT_BUDGET as DEFAULT_BUDGET

ProgressFn = Callable[[int, "int | None", str], None]
ConfirmFn = Callable[[str], bool]


@dataclass(frozen=True)
class Cli:
    """How a model field is spelled on the command line; never part of the MCP schema.

    Put it in the field's `Annotated[...]` metadata. Without it a field becomes `--field-name`.
    """

    positional: bool = False
    flag: str = ""
    short: str = ""
    off_short: str = ""
    """Booleans on by default: a short flag that turns the field off, as a familiar tool spells
    it (grep's `-i` for `--no-case`)."""
    metavar: str = ""
    split: bool = False
    """List fields: accept comma-separated values (`--ext php,ts`)."""
    after_dashdash: bool = False
    """List fields: take every argument after a bare `--` (`sf changed -- src/`)."""


@dataclass(frozen=True)
class Outcome:
    """A result that carries its own CLI exit status (CLI-only modes such as `github ci --watch`)."""

    result: dict[str, Any] | str
    exit_code: int


def _no_progress(done: int, total: int | None, message: str) -> None:
    return None


def _never_confirm(question: str) -> bool:
    return False


def system_clock() -> float:
    """Current time as epoch seconds; `SOFIA_NOW` (epoch seconds) pins it for reproducible tests."""
    pinned: float | None = settings.get("SOFIA_NOW")
    return time.time() if pinned is None else pinned


@dataclass(frozen=True)
class Context:
    """Everything a provider may know about the call beyond its parameters."""

    root: Path
    """Absolute workspace root (the CLI's cwd; the server's first client root, else its cwd)."""
    budget: int | None = DEFAULT_BUDGET
    """Output budget in estimated tokens; None means unlimited."""
    deadline: float | None = None
    """`time.monotonic()` instant after which the call should give up."""
    progress: ProgressFn = field(default=_no_progress)
    """`progress(done, total, message)`: a no-op when nobody listens."""
    confirm: ConfirmFn = field(default=_never_confirm)
    """Asks the person at the terminal a yes/no question; always False where nobody can answer."""
    clock: Callable[[], float] = field(default=system_clock)
    """Epoch seconds; injectable so time-dependent values (ages) are testable."""
    allowed: tuple[Path, ...] = ()
    """The directories the caller may see (the MCP server's allowed roots, resolved); empty: no
    limit (a person at the CLI). A provider that would list files it was not asked for by path
    (`changed` over a whole repository) leaves out, and counts, those outside them."""

    def may_see(self, path: Path) -> bool:
        """Whether `path` (absolute, resolved) lies inside the allowed directories."""
        return not self.allowed or any(path == root or path.is_relative_to(root) for root in self.allowed)

    def time_left(self) -> float | None:
        """Seconds until the deadline, or None without one."""
        if self.deadline is None:
            return None
        return self.deadline - time.monotonic()

    def timeout(self, wanted: float) -> float:
        """A subprocess or network timeout: `wanted`, shortened to what the deadline leaves."""
        left = self.time_left()
        if left is None:
            return wanted
        return max(0.05, min(wanted, left))

    def check_deadline(self) -> None:
        """Raise DeadlineExceeded once the deadline has passed (call it in long loops)."""
        left = self.time_left()
        if left is not None and left <= 0:
            raise DeadlineExceeded("deadline exceeded")


@dataclass(frozen=True)
class Implementation:
    """What a provider module implements, exposed as its module-level `IMPLEMENTATION`.

    The registry record names the module (so listing commands imports nothing); everything the
    CLI, the workers and the server need from the module itself is here, typed, so a misspelt hook
    fails at import and in the conformance test rather than in the first user's call.
    """

    params: type[BaseModel]
    """The input model: the MCP schema and the CLI arguments are generated from it."""
    run: Callable[[Any, Context], Any]
    """`run(params, ctx)`: a JSON-serialisable dict (or `str` for raw text)."""
    cli_params: type[BaseModel] | None = None
    """A subclass of `params` adding CLI-only fields (`--no-redact`); None: the CLI uses `params`."""
    prepare: Callable[[Any, Context], Any] | None = None
    """CLI-only interpretation of the parsed arguments (`code`: files vs symbols among positionals)."""
    render: Callable[[Any, str], str | None] | None = None
    """`render(result, fmt)`: a custom CLI rendering; None falls back to the generic renderers."""
    as_text: Callable[[Any], str | None] | None = None
    """`as_text(result)`: the raw text to send instead of JSON for this result, or None (code slices)."""
    extra_roots: Callable[[], Sequence[Path]] | None = None
    """Directories the tool's path parameters may also point into on the server (Claude Code's data)."""
