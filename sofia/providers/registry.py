"""The provider registry: the single source of truth the CLI and the MCP server are generated from.

A record names its module instead of holding the model and function, so listing commands
(`sf --help`, the server's tool names) imports nothing heavy; `load()` imports on demand.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from sofia import settings
from sofia.errors import UsageError
from sofia.providers.contract import Context, Implementation, ProviderError

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = [
    "GROUPS",
    "PROVIDERS",
    "Annotations",
    "Group",
    "Provider",
    "ProviderError",
    "by_name",
    "command_entries",
    "group_named",
    "served",
]


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
    """Every fact about one tool. The module it names exposes the rest, typed, as `IMPLEMENTATION`
    (`sofia.providers.contract.Implementation`); the CLI, the workers and the server read tools
    only through these records and know none by name."""

    name: str
    """MCP tool name: the CLI path joined with `_` (a CLI-only mode adds its flag: `github_ci_watch`)."""
    cli: tuple[str, ...]
    module: str
    """The module holding the implementation, as `package.module` (its `IMPLEMENTATION`) or
    `package.module:NAME` for a module that holds several."""
    description: str
    """One or two sentences for the agent: what it returns and when to use it."""
    annotations: Annotations = LOCAL
    mcp: bool = True
    """False for CLI-only commands and modes; they never reach the tool list."""
    examples: tuple[str, ...] = ()
    """CLI examples shown in `--help` (each is run by the test suite)."""
    timeout: float = 120.0
    """Default per-call deadline in seconds on the server."""
    guide: str = ""
    """The server's one-line instructions for this tool; a group's guide, when it has one, covers
    all its tools instead."""
    dedup_bypass: str = ""
    """Name of the boolean parameter that bypasses the server's repeat-call stub; empty: results are
    never replaced by a stub."""
    mode_flag: str = ""
    """For a CLI-only mode of a command another record serves (`sf github ci --watch`): the boolean
    parameter that selects this record; the CLI mounts both under the one command."""
    head_start: str = ""
    """Module of a pydantic-free `start(args, workspace)` the CLI calls before loading the provider,
    to begin slow work (grep's ripgrep walk) while the input model is still being imported, and
    `discard()` it calls when the command ends, for whatever the provider did not claim."""
    self_check: Mapping[str, Any] | None = None
    """Arguments of a harmless call `sf doctor` makes over MCP in an empty git repository; None: none."""
    familiar: Mapping[str, str] = field(default_factory=dict)
    """Short flags an agent brings from the tool this one replaces (`grep -rn`) that sofia does not
    take, each with why and what to do instead: the unrecognized-argument error says so."""
    list_tokens: int = 250
    """The most estimated tokens the tool's `tools/list` definition (description, schema,
    annotations) may cost: every agent turn pays it. `tests/server/test_tools_list.py` holds each
    tool to its ceiling and the ceilings of all served tools to the whole list's budget."""

    @cached_property
    def implementation(self) -> Implementation:
        path, _, attribute = self.module.partition(":")
        found = getattr(importlib.import_module(path), attribute or "IMPLEMENTATION", None)
        if not isinstance(found, Implementation):
            raise TypeError(
                f"{path} must define {attribute or 'IMPLEMENTATION'} = Implementation(...) for {self.name}"
            )
        return found

    def start_early(self, args: list[str], workspace: Path) -> HeadStart | None:
        """Begin the head start (see `head_start`) for CLI `args`; its module, whose `discard()`
        ends what the call did not claim, or None. A head start is an optimisation only: any
        failure to start one is ignored, and the normal path reports real problems."""
        if not self.head_start:
            return None
        try:
            module = cast(HeadStart, importlib.import_module(self.head_start))
            module.start(args, workspace)
        except Exception:
            return None
        return module

    @property
    def module_path(self) -> str:
        """The importable module (`module` without a `:NAME`)."""
        return self.module.partition(":")[0]

    @property
    def group(self) -> str:
        """The CLI group the command belongs to (its first word)."""
        return self.cli[0]

    # The hooks of `Implementation`, forwarded under their own names.
    @property
    def params(self) -> type[BaseModel]:
        return self.implementation.params

    @property
    def cli_params(self) -> type[BaseModel]:
        """The CLI's input model: the hook's, else `params`."""
        return self.implementation.cli_params or self.implementation.params

    def run(self, params: Any, ctx: Context) -> Any:
        return self.implementation.run(params, ctx)

    @property
    def render(self) -> Callable[[Any, str], str | None] | None:
        return self.implementation.render

    @property
    def prepare(self) -> Callable[[Any, Context], Any] | None:
        return self.implementation.prepare

    def as_text(self, result: Any) -> str | None:
        """The raw text payload for `result`, when the provider sends this result as text."""
        hook = self.implementation.as_text
        return hook(result) if hook is not None else None

    def extra_roots(self) -> list[Path]:
        hook = self.implementation.extra_roots
        return list(hook()) if hook is not None else []


class HeadStart(Protocol):
    """What a head-start module (`Provider.head_start`) exposes."""

    def start(self, args: list[str], workspace: Path) -> None: ...

    def discard(self) -> None: ...


@dataclass(frozen=True)
class Group:
    """A CLI group holding several commands (`sf cc ...`)."""

    name: str
    help: str
    guide: str = ""
    """The server's one-line instructions covering every served tool of the group."""


GROUPS: tuple[Group, ...] = (
    Group("vue", "Vue project maps"),
    Group(
        "cc",
        "Claude Code session transcripts: index, digest, restart brief, prompts, shell commands, tool candidates",
        guide="`cc_*`: what happened in earlier Claude Code sessions",
    ),
    Group(
        "github",
        "GitHub CI runs, pull requests and branch cleanup (through the gh CLI)",
        guide="`github_*`: CI runs, open pull requests and stale branches",
    ),
    Group(
        "composer",
        "Composer packages of a tree: digests, one package in full, and their check scripts",
        guide="`composer_*`: PHP package metadata and their check scripts",
    ),
    Group(
        "packagist",
        "Packagist release health per package, and a guarded release (tag, push, update, verify)",
        guide="`packagist_status`: release state of PHP packages",
    ),
)
"""The CLI groups that hold several commands."""


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
        guide=(
            "`code`: a file's structure (types, signatures, line ranges) or the exact source of named "
            "symbols; pass every file you need in one call"
        ),
        dedup_bypass="force",
        examples=(
            "sf code src/Controller/UserController.php",
            "sf code src/Entity 'src/**/*.vue' --exported",
            "sf code internal/server/server.go Server.Routes New",
            "sf code app/Models/User.php --api",
        ),
        list_tokens=360,
    ),
    Provider(
        name="grep",
        cli=("grep",),
        module="sofia.providers.grep.provider",
        head_start="sofia.providers.grep.head_start",
        guide="`grep`: where names or text occur, each hit with its enclosing symbol",
        description=(
            "Search 1-32 literal or regex patterns at once: hits per file with line, column, text and "
            "enclosing symbol (a code slice key), exact totals per pattern. Use instead of grep -rn and "
            "follow-up reads."
        ),
        examples=(
            "sf grep deleteUser",
            "sf grep deleteUser UserService --ext php --word",
            'sf grep "fn\\w+\\(" --regex --root src --ignore-dir generated',
            "sf grep --no-case --max-per-pattern 5 -- -foo",
        ),
        familiar={
            "-r": "the whole tree is always searched (.gitignore applies)",
            "-R": "the whole tree is always searched (.gitignore applies)",
            "-n": "every hit has its line and column",
            "-H": "hits are always grouped by file",
            "-l": "hits are always grouped by file",
            "-c": "every pattern's exact totals are always given",
            "-F": "patterns are literal unless --regex",
            "-e": "patterns are positional: sf grep A B (-- before one that starts with -)",
            "-A": "a hit is its line; sf code FILE SYMBOL shows the enclosing symbol",
            "-B": "a hit is its line; sf code FILE SYMBOL shows the enclosing symbol",
            "-C": "a hit is its line; sf code FILE SYMBOL shows the enclosing symbol",
            "-t": "use --ext EXT (php, ts)",
            "-g": "use --root PATH or --ext EXT",
        },
        list_tokens=380,
    ),
    Provider(
        name="refs",
        cli=("refs",),
        module="sofia.providers.refs.provider",
        head_start="sofia.providers.refs.head_start",
        description=(
            "Definitions and every use of 1-8 symbols, syntax-aware: per file each use's line, kind and "
            "enclosing symbol, exact matches apart from same-name ones, comment/string mentions counted. "
            "Use instead of grep -w."
        ),
        guide="`refs`: where a symbol is defined and who uses it, each use classified",
        self_check={"symbols": ["main"]},
        examples=(
            "sf refs UserController::destroy",
            "sf refs Repo.fetch get_user --root src --ext py",
            "sf refs useCartStore --kind call --max-per-symbol 0",
        ),
        list_tokens=360,
    ),
    Provider(
        name="changed",
        cli=("changed",),
        module="sofia.providers.changed",
        description=(
            "Classified git diff: every changed file with status, churn, category, language and the "
            "symbols its hunks touch, plus totals per category. Use instead of reading `git diff`."
        ),
        guide="`changed`: what changed in git, classified, with the symbols touched",
        self_check={},
        examples=(
            "sf changed",
            "sf changed main...feature",
            "sf changed --staged",
            "sf changed HEAD~3 -- src/",
        ),
        list_tokens=340,
    ),
    Provider(
        name="vue_routes",
        cli=("vue", "routes"),
        module="sofia.providers.vue",
        description=(
            "The vue-router table flattened: full path, name, component, meta, depth, redirect, alias and "
            "source module (`file` indexes `files`), across imported and glob-loaded modules. Use instead of "
            "reading router files."
        ),
        guide="`vue_routes`: which view serves which URL",
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
        examples=(
            "sf cc bash",
            "sf cc bash 3f2a --category test --min-count 2",
            "sf cc bash --full --no-subagents",
        ),
        list_tokens=340,
    ),
    Provider(
        name="cc_candidates",
        cli=("cc", "candidates"),
        module="sofia.providers.cc.candidates",
        description=(
            "Across Claude Code sessions: tool-result tokens per tool and the commands and file reads that "
            "repeat, as evidence for which dedicated tool would save the most."
        ),
        examples=("sf cc candidates", "sf cc candidates --since 7d --project api", "sf cc candidates 3f2a"),
        list_tokens=300,
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
        list_tokens=340,
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
        examples=(
            "sf github ci",
            "sf github ci acme/http-client --log-lines 40",
            "sf github ci --root ~/src/packages",
        ),
    ),
    Provider(
        name="github_ci_watch",
        cli=("github", "ci"),
        module="sofia.providers.github.watch",
        description=(
            "Waits for the newest workflow run of a repository to complete, then shows it; the exit status "
            "says how it ended. CLI only: it blocks for minutes."
        ),
        annotations=REMOTE,
        mcp=False,
        mode_flag="watch",
        examples=("sf github ci --watch --timeout 20m",),
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
            "(merged, closed, stale, no-pr, open), to find branches to clean up."
        ),
        annotations=REMOTE,
        examples=(
            "sf github branches",
            "sf github branches --owner acme --stale-days 60",
        ),
    ),
    Provider(
        name="github_branches_delete",
        cli=("github", "branches"),
        module="sofia.providers.github.delete",
        description=(
            "Deletes the branches the report calls merged (and closed, unless --merged-only) after "
            "confirmation; never default, protected or moved branches. CLI only."
        ),
        annotations=MUTATES,
        mcp=False,
        mode_flag="delete",
        examples=("sf github branches --delete --merged-only",),
    ),
    # New records go above this line; scripts/new_tool.py inserts them here.
)


def _test_providers() -> tuple[Provider, ...]:
    """The test suite's extra providers (hanging, crashing, printing ones for the MCP server's fault
    paths): the `PROVIDERS` tuple of the module named in `SOFIA_TEST_PROVIDERS`. Unset, nothing is added."""
    module: str = settings.get("SOFIA_TEST_PROVIDERS")
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


def command_entries(path: tuple[str, ...]) -> list[Provider]:
    """The records the CLI command `path` runs: the command's own first, then its CLI-only modes."""
    entries = [p for p in PROVIDERS if p.cli == path]
    return sorted(entries, key=lambda p: p.mode_flag != "")


def group_named(name: str) -> Group | None:
    return next((group for group in GROUPS if group.name == name), None)


def served(providers: Sequence[Provider] | None = None, wanted: Sequence[str] = ()) -> list[Provider]:
    """The MCP providers selected by `wanted` (tool names or CLI groups; empty: all), in registry order."""
    candidates = [p for p in (PROVIDERS if providers is None else providers) if p.mcp]
    if not wanted:
        return candidates
    names = {p.name for p in candidates}
    groups = {p.group for p in candidates}
    unknown = [w for w in wanted if w not in names and w not in groups]
    if unknown:
        from sofia.errors import did_you_mean

        guesses = [guess for guess in (did_you_mean(w, [*names, *groups]) for w in unknown) if guess]
        said = f" ({'; '.join(guesses)})" if guesses else ""
        raise UsageError(
            f"--tools: unknown {', '.join(unknown)}{said}; tools: {', '.join(sorted(names))}; "
            f"groups: {', '.join(sorted(groups))}"
        )
    return [p for p in candidates if p.name in wanted or p.group in wanted]
