"""The provider registry: the single source of truth the CLI and the MCP server are generated from.

A record names its module instead of holding the model and function, so listing commands
(`sf --help`, the server's tool names) imports nothing heavy; `load()` imports on demand.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any

from sofia.providers.contract import Context, ProviderError

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["GROUPS", "PROVIDERS", "Annotations", "Provider", "ProviderError", "by_cli", "by_name"]


@dataclass(frozen=True)
class Annotations:
    """MCP tool annotations, honest for what the provider does."""

    read_only: bool = True
    destructive: bool = False
    idempotent: bool = True
    open_world: bool = False


LOCAL = Annotations()
"""Reads the workspace only."""
REMOTE = Annotations(open_world=True)
"""Reads external services (GitHub, Packagist) but changes nothing."""
RUNS_PROJECT_CODE = Annotations(read_only=False, destructive=False, idempotent=False, open_world=True)
"""Executes the project's own scripts (composer check)."""
MUTATES = Annotations(read_only=False, destructive=True, idempotent=False, open_world=True)
"""Changes the world (tags, pushes, deletes): CLI only."""


@dataclass(frozen=True)
class Provider:
    """One provider: a pydantic input model and a `run(params, ctx)` function in `module`."""

    name: str
    """MCP tool name: the CLI path joined with `_`."""
    cli: tuple[str, ...]
    module: str
    description: str
    """One or two sentences for the agent: what it returns and when to use it."""
    annotations: Annotations = LOCAL
    mcp: bool = True
    """False for CLI-only commands; they never reach the tool list."""
    examples: tuple[str, ...] = ()
    timeout: float = 120.0
    """Default per-call deadline in seconds on the server."""
    input_attr: str = "Params"
    run_attr: str = "run"
    cli_input_attr: str = ""
    """A subclass of the input model adding CLI-only fields (`--watch`, `--no-redact`)."""
    render_attr: str = ""
    """`render(result, fmt) -> str | None`: a custom CLI rendering (None falls back to the generic one)."""
    head_start: str = ""
    """Module of a pydantic-free `start(args, workspace)` the CLI calls before loading the provider,
    to begin slow work (grep's ripgrep walk) while the input model is still being imported, and
    `discard()` it calls when the command ends, for whatever the provider did not claim."""
    cli_prepare_attr: str = ""
    """`prepare(params, ctx) -> params`: CLI-only interpretation of positionals (e.g. code's files vs symbols)."""

    @cached_property
    def _module(self) -> ModuleType:
        return importlib.import_module(self.module)

    @property
    def input_model(self) -> type[BaseModel]:
        model: type[BaseModel] = getattr(self._module, self.input_attr)
        return model

    @property
    def cli_input_model(self) -> type[BaseModel]:
        if self.cli_input_attr:
            model: type[BaseModel] = getattr(self._module, self.cli_input_attr)
            return model
        return self.input_model

    def run(self, params: Any, ctx: Context) -> Any:
        fn: Callable[[Any, Context], Any] = getattr(self._module, self.run_attr)
        return fn(params, ctx)

    def renderer(self) -> Callable[[Any, str], str | None] | None:
        if not self.render_attr:
            return None
        fn: Callable[[Any, str], str | None] = getattr(self._module, self.render_attr)
        return fn

    def cli_prepare(self) -> Callable[[Any, Context], Any] | None:
        if not self.cli_prepare_attr:
            return None
        fn: Callable[[Any, Context], Any] = getattr(self._module, self.cli_prepare_attr)
        return fn


GROUPS: dict[str, str] = {
    "vue": "Vue project maps",
    "cc": "Claude Code session transcripts: index, digest, restart brief, prompts, shell commands, tool candidates",
    "github": "GitHub CI runs, pull requests and branch cleanup (through the gh CLI)",
    "composer": "Composer packages of a tree: digests, one package in full, and their check scripts",
    "packagist": "Packagist release health per package, and a guarded release (tag, push, update, verify)",
}
"""Help text of the CLI groups that hold several commands."""


PROVIDERS: tuple[Provider, ...] = (
    Provider(
        name="code",
        cli=("code",),
        module="sofia.providers.code",
        description=(
            "Structure of source files without bodies (imports, types, signatures with line ranges, properties, "
            "constants, Vue props/emits), or the exact source of named symbols. Use instead of reading files; "
            "small files come back raw."
        ),
        examples=(
            "sf code src/Controller/UserController.php",
            "sf code src/Entity 'src/**/*.vue' --exported",
            "sf code internal/server/server.go Server.Routes New",
            "sf code app/Models/User.php --api",
        ),
        cli_input_attr="CliParams",
        cli_prepare_attr="prepare",
        render_attr="render",
    ),
    Provider(
        name="grep",
        cli=("grep",),
        module="sofia.providers.grep.provider",
        head_start="sofia.providers.grep.head_start",
        description=(
            "Search for 1-32 literal or regex patterns at once: each hit with file, line, column, text and "
            "enclosing symbol (a code slice key), exact totals per pattern, files with unshown hits. "
            "Use instead of grep -rn and follow-up reads."
        ),
        examples=(
            "sf grep deleteUser",
            "sf grep deleteUser UserService --ext php --word",
            'sf grep "fn\\w+\\(" --regex --root src --ignore-dir generated',
            "sf grep -- -foo --no-case --max-per-pattern 5",
        ),
    ),
    Provider(
        name="refs",
        cli=("refs",),
        module="sofia.providers.refs",
        head_start="sofia.providers.refs.head_start",
        description=(
            "Definitions and every use of 1-8 symbols, syntax-aware: per file each use's line, kind and "
            "enclosing symbol, exact matches apart from same-name ones, comment/string mentions counted. "
            "Use instead of grep -w."
        ),
        examples=(
            "sf refs UserController::destroy",
            "sf refs Repo.fetch get_user --root src --ext py",
            "sf refs useCartStore --kind call --max-per-symbol 0",
        ),
    ),
    Provider(
        name="changed",
        cli=("changed",),
        module="sofia.providers.changed",
        description=(
            "Classified git diff: every changed file with status, churn, category, language and the "
            "symbols its hunks touch, plus totals per category. Use instead of reading `git diff`."
        ),
        examples=(
            "sf changed",
            "sf changed main...feature",
            "sf changed --staged",
            "sf changed HEAD~3 -- src/",
        ),
    ),
    Provider(
        name="vue_routes",
        cli=("vue", "routes"),
        module="sofia.providers.vue",
        description=(
            "The vue-router route table flattened: full path, name, component file, meta, depth, redirect and "
            "alias, resolved across imported route modules. Use instead of reading router files."
        ),
        examples=("sf vue routes", "sf vue routes src/router/index.ts", "sf vue routes --root apps/admin"),
    ),
    Provider(
        name="cc_ls",
        cli=("cc", "ls"),
        module="sofia.providers.cc.ls",
        description=(
            "Index of Claude Code sessions across projects, newest first: id, project, title, last activity, "
            "messages, prompts, subagents, tokens, branch, PRs. Use to pick a session for the other cc_* tools."
        ),
        cli_input_attr="CliParams",
        render_attr="render",
        examples=("sf cc ls", "sf cc ls --project api --since 7d", "sf cc ls --limit 0 --json"),
    ),
    Provider(
        name="cc_show",
        cli=("cc", "show"),
        module="sofia.providers.cc.show",
        description=(
            "One-screen digest of a Claude Code session: span, token usage, human prompts, tool histogram with "
            "result sizes, Bash categories, files touched, heaviest results, subagents, PRs, last assistant text."
        ),
        cli_input_attr="CliParams",
        render_attr="render",
        examples=("sf cc show", "sf cc show 3f2a", "sf cc show acme-api --md"),
    ),
    Provider(
        name="cc_resume",
        cli=("cc", "resume"),
        module="sofia.providers.cc.resume",
        description=(
            "Restart brief of a Claude Code session: original goal, latest ask, the assistant's last words, "
            "open todos and the working set of files. Use to continue that work in a fresh session."
        ),
        cli_input_attr="CliParams",
        examples=("sf cc resume", "sf cc resume 3f2a"),
    ),
    Provider(
        name="cc_prompts",
        cli=("cc", "prompts"),
        module="sofia.providers.cc.prompts",
        description=(
            "The human prompts of a Claude Code session, verbatim and in order, to recover requirements a "
            "digest shortens; continue a shortened list with offset."
        ),
        cli_input_attr="CliParams",
        examples=("sf cc prompts", "sf cc prompts 3f2a --offset 20"),
    ),
    Provider(
        name="cc_bash",
        cli=("cc", "bash"),
        module="sofia.providers.cc.bash",
        description=(
            "Shell commands of a Claude Code session grouped by exact text with counts and categories "
            "(test, git, build, ...) and a per-category summary, so repeated runs stand out."
        ),
        cli_input_attr="CliParams",
        examples=(
            "sf cc bash",
            "sf cc bash 3f2a --category test --min-count 2",
            "sf cc bash --full --no-subagents",
        ),
    ),
    Provider(
        name="cc_candidates",
        cli=("cc", "candidates"),
        module="sofia.providers.cc.candidates",
        description=(
            "Across Claude Code sessions: tool-result tokens per tool and the commands and file reads that "
            "repeat, as evidence for which dedicated tool would save the most."
        ),
        cli_input_attr="CliParams",
        examples=("sf cc candidates", "sf cc candidates --since 7d --project api", "sf cc candidates 3f2a"),
    ),
    Provider(
        name="composer_ls",
        cli=("composer", "ls"),
        module="sofia.providers.composer.ls",
        description=(
            "One row per Composer package under a tree: name, dir, version (highest stable git tag), type, PHP "
            "constraint, PHPStan level, namespaces, scripts and dependencies. Use instead of reading every composer.json."
        ),
        examples=("sf composer ls", "sf composer ls --root packages"),
    ),
    Provider(
        name="composer_show",
        cli=("composer", "show"),
        module="sofia.providers.composer.show",
        description=(
            "One Composer package in full: scripts with their commands, autoload maps, all constraints, and "
            "whether composer.lock is fresh, with the locked versions of the direct dependencies."
        ),
        examples=(
            "sf composer show acme/array-reader",
            "sf composer show enum",
            "sf composer show packages/enum",
        ),
    ),
    Provider(
        name="composer_check",
        cli=("composer", "check"),
        module="sofia.providers.composer.check",
        description=(
            "Runs each package's composer check script (executes project code), in parallel with timeouts, and "
            "returns one row per package: ok/fail/skip/timeout/error with the first failing line."
        ),
        annotations=RUNS_PROJECT_CODE,
        timeout=1860.0,
        examples=(
            "sf composer check",
            "sf composer check enum",
            "sf composer check --script lint --jobs 2 --timeout 120",
        ),
    ),
    Provider(
        name="packagist_status",
        cli=("packagist", "status"),
        module="sofia.providers.packagist.status",
        description=(
            "Release health per package: highest stable local tag, whether it is pushed to origin, the newest "
            "stable version on Packagist, and a state (in-sync, needs-update, unpublished, ...)."
        ),
        annotations=REMOTE,
        examples=("sf packagist status", "sf packagist status enum", "sf packagist status --offline"),
    ),
    Provider(
        name="packagist_release",
        cli=("packagist", "release"),
        module="sofia.providers.packagist.release",
        description=(
            "Publishes a version: annotated tag, push to origin, Packagist update, then waits until Packagist "
            "lists it. Checks every precondition first; --dry-run prints the exact plan. CLI only."
        ),
        annotations=MUTATES,
        mcp=False,
        examples=(
            "sf packagist release acme/enum 1.4.0 --dry-run",
            "sf packagist release enum v1.4.0 --yes",
        ),
    ),
    Provider(
        name="github_ci",
        cli=("github", "ci"),
        module="sofia.providers.github.ci",
        description=(
            "Latest GitHub Actions runs of a repository (or the latest run of every package repository under "
            "a tree), failing first, with failed jobs, steps and a log tail each. Use instead of gh run list/view."
        ),
        annotations=REMOTE,
        cli_input_attr="CliParams",
        examples=(
            "sf github ci",
            "sf github ci acme/http-client --log-lines 40",
            "sf github ci --root ~/src/packages",
            "sf github ci --watch --timeout 20m",
        ),
    ),
    Provider(
        name="github_pr",
        cli=("github", "pr"),
        module="sofia.providers.github.pr",
        description=(
            "Your open pull requests: authored, review-requested, and those on your own public repositories, "
            "with CI and review state and the action each needs, action-needed first."
        ),
        annotations=REMOTE,
        examples=("sf github pr", "sf github pr --limit 10"),
    ),
    Provider(
        name="github_branches",
        cli=("github", "branches"),
        module="sofia.providers.github.branches",
        description=(
            "Non-default branches across your own repositories with age, newest pull request and a verdict "
            "(merged, closed, stale, no-pr, open), to find branches to clean up. Reports only."
        ),
        annotations=REMOTE,
        cli_input_attr="CliParams",
        examples=(
            "sf github branches",
            "sf github branches --owner acme --stale-days 60",
            "sf github branches --delete --merged-only",
        ),
    ),
)


def _test_providers() -> tuple[Provider, ...]:
    """The test suite's extra providers (hanging, crashing, printing ones for the MCP server's fault
    paths): the `PROVIDERS` tuple of the module named in `SOFIA_TEST_PROVIDERS`. Unset, nothing is added."""
    module = os.environ.get("SOFIA_TEST_PROVIDERS", "")
    if not module:
        return ()
    extra: tuple[Provider, ...] = importlib.import_module(module).PROVIDERS
    return extra


PROVIDERS += _test_providers()


def by_name(name: str) -> Provider | None:
    """The provider whose MCP tool name is `name`."""
    for provider in PROVIDERS:
        if provider.name == name:
            return provider
    return None


def by_cli(path: tuple[str, ...]) -> Provider | None:
    """The provider reached by the CLI path `path` (`("cc", "show")`)."""
    for provider in PROVIDERS:
        if provider.cli == path:
            return provider
    return None
