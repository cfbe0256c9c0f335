"""`changed`: a classified git diff with churn and touched symbols, about the size of `git diff --stat`.

Every path it prints, and every path it takes (`root`, `paths`), is relative to the workspace
root, as in every other tool: a path out of `changed` goes straight back into `code` or `grep`.
By default only the workspace's part of the repository is listed (a package of a monorepo), with
a count of the rest; `scope="repo"` lists the rest too, as `../` paths.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from sofia.errors import param
from sofia.output.tables import cut
from sofia.providers.changed import classify, gitdiff, report
from sofia.providers.changed.scope import PathSpace, plain_pathspec
from sofia.providers.contract import Cli, Context, Implementation, ProviderError
from sofia.providers.params import Input, PathParam
from sofia.runtime import git

RANGE_MAX = 1024
"""Longest `range` accepted: two revision names and `...` fit many times over."""
ECHO_PATHS = 3
"""Pathspecs `spec` names before it counts the rest."""
ECHO_CUT = 60
"""Characters of one pathspec `spec` shows."""


class Params(Input):
    range: Annotated[
        str,
        Field(
            description=(
                "REV (working tree vs REV), A..B, or A...B (merge-base vs B); empty = working tree vs HEAD"
            )
        ),
        Cli(positional=True, metavar="RANGE"),
    ] = ""
    staged: Annotated[
        bool, Field(description="compare the index instead of the working tree (vs HEAD, or vs REV)")
    ] = False
    root: Annotated[
        str,
        Field(description="selects the repository: any directory inside it, relative to the workspace"),
        PathParam(),
        Cli(metavar="DIR"),
    ] = "."
    paths: Annotated[
        list[str],
        Field(
            default_factory=list,
            description="git pathspecs limiting the diff, relative to the workspace like every path",
        ),
        Cli(after_dashdash=True, metavar="PATH"),
        PathParam(glob=True, when=plain_pathspec),
    ]
    scope: Annotated[
        Literal["workspace", "repo"],
        Field(
            description=(
                "workspace: changes inside it, with a count of the rest; repo: all, outside paths as ../…"
            )
        ),
    ] = "workspace"
    no_symbols: Annotated[bool, Field(description="skip symbol detection (no file contents are read)")] = (
        False
    )

    @field_validator("range")
    @classmethod
    def _bounded_range(cls, value: str) -> str:
        if len(value) > RANGE_MAX:
            raise PydanticCustomError(
                "range_too_long",
                "a range of {size} characters is longer than {limit}; pass one or two revisions "
                "such as HEAD~3 or main..feature",
                {"size": f"{len(value):,}", "limit": f"{RANGE_MAX:,}"},
            )
        return value


def run(params: Params, ctx: Context) -> dict[str, Any]:
    top, space = _repository(params, ctx)
    include = tuple(space.pathspec(given) for given in params.paths)
    sides = gitdiff.sides(top, params.range, params.staged, ctx)
    found = gitdiff.changes(top, sides, gitdiff.Selection(include), ctx)
    entries = found.entries
    if sides.new is None and entries:
        conflicted = gitdiff.unmerged(top, found.selection, ctx)
        for entry in entries:
            if entry.path in conflicted:
                entry.status = "U"
    ctx.check_deadline()
    # a root naming a repository apart from the workspace asks for that repository: its part in
    # the workspace would be empty by construction
    whole = params.scope == "repo" or space.whole or space.apart
    listed = [e for e in entries if whole or space.inside(e.path) or space.inside(e.old_path or e.path)]
    outside = len(entries) - len(listed)
    hidden = [e for e in listed if not _visible(top, e.path, ctx) or not _visible(top, e.old_path, ctx)]
    listed = [e for e in listed if e not in hidden]
    patch = None
    if not params.no_symbols and listed:
        patch = _patch(top, sides, found, listed, space, bool(include) or whole, ctx)
    rows = report.tracked_rows(top, sides, listed, patch, found.unhashable, ctx)
    hidden_count = len(hidden)
    if sides.untracked:
        known = {row.path for row in rows}
        names = [n for n in gitdiff.untracked(top, found.selection, ctx) if n not in known]
        kept = [n for n in names if whole or space.inside(n)]
        outside += len(names) - len(kept)
        unseen = [n for n in kept if not _visible(top, n, ctx)]
        hidden_count += len(unseen)
        kept = [n for n in kept if n not in unseen]
        rows.extend(report.untracked_rows(top, kept, not params.no_symbols, ctx))
    rows.sort(key=lambda row: os.fsencode(space.show(row.path)))
    notes = _scope_notes(rows, outside, space, "repo" if space.apart else params.scope)
    if hidden_count:
        notes.append(
            f"{hidden_count:,} changed file{'s' if hidden_count != 1 else ''} outside the server's allowed roots "
            f"not listed; start the server with --root {top} to see the whole repository"
        )
    if found.runs > 1:
        notes.append(
            f"paths: {len(include):,} pathspecs were given to git in {found.runs} runs (one command line "
            "cannot hold them all); a rename whose two sides fell in different runs shows as D and A"
        )
    spec = sides.spec + (f" in {_echo(params.paths)}" if params.paths else "")
    return report.document(report.Document(spec, notes, space.show), rows, ctx.budget)


def _repository(params: Params, ctx: Context) -> tuple[Path, PathSpace]:
    """The top level of the repository `root` is in, and the path space between it and the
    workspace; an error for a root that is no directory in a repository, or an empty pathspec."""
    base = (ctx.root / params.root).resolve() if params.root else ctx.root
    if not base.is_dir():
        what = "root is not a directory" if base.exists() else "root not found"
        raise ProviderError(f"{what}: {cut(params.root, 200)}", f"paths are relative to {ctx.root}")
    top = git.toplevel(base, timeout=ctx.timeout(30))
    if top is None:
        raise ProviderError(
            f"not a git repository: {cut(params.root, 200) if params.root not in ('', '.') else base}",
            f"run inside a repository or pass {param('root', ...)}, a directory inside one",
        )
    space = PathSpace.of(ctx.root, top)
    for given in params.paths:
        if not given.strip():
            raise ProviderError(
                "paths: an empty pathspec", f"pass directories or files, or leave {param('paths')} out"
            )
    return top, space


def _visible(top: Path, path: str | None, ctx: Context) -> bool:
    """Whether the caller may see the top-level-relative `path` (always, outside the server)."""
    return not path or ctx.may_see(Path(os.path.realpath(top / path)))


def _patch(
    top: Path,
    sides: gitdiff.Sides,
    found: gitdiff.Changes,
    listed: list[gitdiff.Entry],
    space: PathSpace,
    same_as_listing: bool,
    ctx: Context,
) -> gitdiff.Patch:
    """The hunks of the listed files. Without pathspecs of the caller's, only the workspace (and
    the far side of a rename crossing into or out of it) is diffed; should git pair the files
    differently there than in the listing, the listing's own pathspecs are diffed instead."""
    if same_as_listing or space.prefix is None:
        return gitdiff.hunks(top, sides, found.selection, ctx)
    partners = sorted(
        {e.old_path for e in listed if e.old_path and not space.inside(e.old_path)}
        | {e.path for e in listed if e.old_path and not space.inside(e.path)}
    )
    narrow = gitdiff.Selection(
        tuple(gitdiff.literal(path) for path in [space.prefix, *partners]), found.selection.exclude
    )
    patch = gitdiff.hunks(top, sides, narrow, ctx)
    if patch.agrees(listed):
        return patch
    return gitdiff.hunks(top, sides, found.selection, ctx)


def _scope_notes(rows: list[report.Row], outside: int, space: PathSpace, scope: str) -> list[str]:
    notes = []
    if outside:
        notes.append(
            f"{outside:,} changed file{'s' if outside != 1 else ''} outside the workspace not listed; "
            f"{param('scope', 'repo')} lists them as ../ paths"
        )
    crossing = [r for r in rows if r.old_path and space.inside(r.path) != space.inside(r.old_path)]
    beyond = [r for r in rows if not space.inside(r.path)]
    if scope == "repo" and beyond:
        notes.append(
            f"{len(beyond):,} listed file{'s' if len(beyond) != 1 else ''} lie outside the workspace, "
            "shown as ../ paths; the MCP server refuses to read paths outside its allowed roots"
        )
    elif crossing:
        notes.append(
            f"{len(crossing):,} rename{'s' if len(crossing) != 1 else ''} cross the workspace boundary: "
            "the side outside it is shown as a ../ path"
        )
    return notes


def _echo(paths: list[str]) -> str:
    """The pathspecs as `spec` names them: the first few, cut, and a count of the rest."""
    shown = " ".join(cut(path, ECHO_CUT) for path in paths[:ECHO_PATHS])
    rest = len(paths) - ECHO_PATHS
    return f"{shown} (+{rest:,} more pathspecs)" if rest > 0 else shown


__all__ = ["Params", "classify", "run"]


IMPLEMENTATION = Implementation(params=Params, run=run)
