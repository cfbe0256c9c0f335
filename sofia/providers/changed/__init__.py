"""`changed`: a classified git diff with churn and touched symbols, about the size of `git diff --stat`.

Pathspecs in `paths` are relative to `root` (like any path typed where one stands); pathspecs
with git magic (`:(glob)…`) pass through unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from sofia.providers.contract import Cli, Context, Implementation, ProviderError
from sofia.providers.params import Input, PathParam
from sofia.runtime import git

from . import classify, gitdiff, report


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
        Field(description="any directory inside the repository; the whole repository is reported"),
        PathParam(),
    ] = "."
    paths: Annotated[
        list[str],
        Field(default_factory=list, description="git pathspecs (relative to root) limiting the diff"),
        Cli(after_dashdash=True, metavar="PATH"),
        PathParam(glob=True, also_under="root"),
    ]
    no_symbols: Annotated[bool, Field(description="skip symbol detection (no file contents are read)")] = (
        False
    )


def run(params: Params, ctx: Context) -> dict[str, Any]:
    base = (ctx.root / params.root).resolve() if params.root else ctx.root
    if not base.is_dir():
        raise ProviderError(f"root not found: {params.root}", f"paths are relative to {ctx.root}")
    top = git.toplevel(base, timeout=ctx.timeout(30))
    if top is None:
        raise ProviderError(
            f"not a git repository: {params.root if params.root not in ('', '.') else base}",
            "run inside a repository or pass root=<a directory inside one>",
        )
    pathspecs = _pathspecs(params.paths, base, top)
    sides = gitdiff.sides(top, params.range, params.staged, ctx)
    entries = gitdiff.changes(top, sides, pathspecs, ctx)
    if sides.new is None and entries:
        conflicted = gitdiff.unmerged(top, pathspecs, ctx)
        for entry in entries:
            if entry.path in conflicted:
                entry.status = "U"
    ctx.check_deadline()
    rows = report.tracked_rows(top, sides, entries, pathspecs, not params.no_symbols, ctx)
    if sides.untracked:
        known = {row["path"] for row in rows}
        names = [n for n in gitdiff.untracked(top, pathspecs, ctx) if n not in known]
        rows.extend(report.untracked_rows(top, names, not params.no_symbols, ctx))
    rows.sort(key=lambda row: os.fsencode(row["path"]))
    spec = sides.spec + (f" in {' '.join(params.paths)}" if params.paths else "")
    return report.document(spec, rows, ctx.budget)


def _pathspecs(paths: list[str], base: Path, top: Path) -> list[str]:
    """Pathspecs relative to `base`, rewritten relative to the top level git runs in."""
    offset = os.path.relpath(base, top)
    out = []
    for path in paths:
        if path.startswith(":") or offset == ".":
            out.append(path)
        else:
            out.append(os.path.normpath(os.path.join(offset, path)))
    return out


__all__ = ["Params", "classify", "run"]


IMPLEMENTATION = Implementation(params=Params, run=run)
