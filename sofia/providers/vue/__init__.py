"""`vue_routes`: the vue-router route table of an app, flattened across modules, parsed with
tree-sitter (spec tools-code §4)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from sofia.output import budget as budgets
from sofia.output.tables import elide
from sofia.output.tokens import estimate
from sofia.providers.contract import Cli, Context, ProviderError
from sofia.runtime import rg

from .modules import Loader
from .routes import RouteWalker, find_routes_array

ELIDABLE = {"name": "", "component": "", "meta": "", "depth": 0, "redirect": "", "alias": ""}
ROUTER_NAMES = (
    "router/index.ts", "router/index.js", "router.ts", "router.js",
    "router/index.mts", "router/index.mjs", "router.mts", "router.mjs",
)  # fmt: skip
"""Router module names in tie-break order."""


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file: Annotated[
        str,
        Field(description="router module, relative to the workspace root; skips the search"),
        Cli(positional=True, metavar="FILE"),
    ] = ""
    root: Annotated[str, Field(description="tree to search; base for output paths and @/ aliases")] = "."


def locate(base: Path, ctx: Context, notes: list[str] | None = None) -> tuple[Path, list[str]]:
    """The router module under `base` (fewest path segments, then name preference) and the others;
    entries the search could not read are named in `notes`."""
    listing = rg.walk(["."], cwd=base, globs=["{index,router}.{ts,js,mts,mjs}"], timeout=ctx.timeout(60))
    if listing.skipped and notes is not None:
        notes.append(rg.skipped_note(listing.skipped, "were not searched for a router"))
    found = listing.files
    candidates = [p for p in found if any(p == n or p.endswith("/" + n) for n in ROUTER_NAMES)]
    if not candidates:
        raise ProviderError(
            f"no router file under {_shown(base, ctx)}",
            "looked for router/index.ts|js and router.ts|js outside node_modules, dist and ignored directories; "
            "pass file=path/to/router.ts",
        )

    def rank(path: str) -> tuple[int, int, bytes]:
        preference = next(i for i, n in enumerate(ROUTER_NAMES) if path == n or path.endswith("/" + n))
        return (path.count("/"), preference, os.fsencode(path))

    ordered = sorted(candidates, key=rank)
    return base / ordered[0], ordered[1:]


def _shown(path: Path, ctx: Context) -> str:
    try:
        rel = os.path.relpath(path, ctx.root)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def run(params: Params, ctx: Context) -> dict[str, Any]:
    from sofia.runtime import files

    base = (ctx.root / params.root).resolve()
    files.require(base, params.root, what="root", file=False)
    if not base.is_dir():
        raise ProviderError(f"root not found: {params.root}", f"paths are relative to {ctx.root}")
    notes: list[str] = []
    if params.file:
        router = (ctx.root / params.file).resolve()
        files.require(router, params.file, what="router file", directory=False)
        if not router.is_file():
            raise ProviderError(f"router file not found: {params.file}", f"paths are relative to {ctx.root}")
    else:
        router, others = locate(base, ctx, notes)
        if others:
            notes.append(f"also found: {', '.join(others)}; pass file= to choose")
    loader = Loader(base)
    if not loader.inside(router):
        loader = Loader(router.parent)
    module = loader.load(router)
    if module is None:
        raise ProviderError(f"cannot read the router module {params.file or router}", "check the file")
    walker = RouteWalker(loader)
    array = find_routes_array(walker, module)
    if array is None:
        raise ProviderError(
            f"no route array in {module.rel}",
            "expected createRouter({ routes }), export default [...] or const routes = [...]; "
            "pass file= for the module that declares them",
        )
    walker.walk_array(array, "", 0)
    notes.extend(loader.notes)
    notes.extend(walker.notes)
    rows = walker.rows
    raw_tok = sum(estimate(m.source) for m in loader.modules.values() if m is not None)

    def build(count: int, extra: list[str]) -> dict[str, Any]:
        return {
            "files": list(loader.order),
            "routes": elide(rows[:count], ELIDABLE),
            "total": len(rows),
            "notes": notes + extra,
            "stats": {"raw_tok": raw_tok},
        }

    result = build(len(rows), [])
    if budgets.fits(result, ctx.budget):
        return result

    def note(count: int) -> list[str]:
        hint = "pass file= for a single route module"
        return [budgets.note("routes", count, len(rows), "routes", ctx.budget, hint)]

    keep = budgets.largest_prefix(len(rows), lambda k: budgets.fits(build(k, note(k)), ctx.budget))
    return build(keep, note(keep))
