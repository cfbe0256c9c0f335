"""`vue_routes`: the vue-router route table of an app, flattened across modules, parsed with
tree-sitter (docs/vue.md)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from sofia.errors import param
from sofia.output import budget as budgets
from sofia.output.notes import Place
from sofia.output.tables import elide
from sofia.output.tokens import estimate
from sofia.providers.contract import Cli, Context, Implementation, ProviderError
from sofia.providers.params import Input, PathParam
from sofia.providers.vue.evaluate import MAX_STEPS
from sofia.providers.vue.globs import MAX_LISTED
from sofia.providers.vue.modules import Module, ModuleLoader
from sofia.providers.vue.routes import RouteWalker, find_routes, place
from sofia.providers.vue.values import Unknown
from sofia.runtime import paths, rg, skips

ELIDABLE = {"name": "", "component": "", "meta": "", "depth": 0, "redirect": "", "alias": "", "file": 0}
DIRECTORIES = ("router", "routers", "routes")
"""Directories a router module is usually in, as `<dir>/index.*`, in tie-break order."""
MODULE_NAMES = ("router", "routers", "routes")
"""Router modules named for what they hold, `<name>.*`, after the directory forms."""
SUFFIXES = ("ts", "js", "mts", "mjs")
ROUTER_NAMES = tuple(f"{d}/index.{s}" for d in DIRECTORIES for s in SUFFIXES) + tuple(
    f"{n}.{s}" for n in MODULE_NAMES for s in SUFFIXES
)
"""Router module names in tie-break order."""
TRIED = f"{'|'.join(DIRECTORIES)}/index.{{{','.join(SUFFIXES)}}} and {'|'.join(MODULE_NAMES)}.{{{','.join(SUFFIXES)}}}"


class Params(Input):
    file: Annotated[
        str,
        Field(description="router module, relative to the workspace root; skips the search"),
        Cli(positional=True, metavar="FILE"),
        PathParam(),
    ] = ""
    root: Annotated[str, Field(description="tree to search; base of / globs and @/ aliases"), PathParam()] = (
        "."
    )


def locate(base: Path, shown: str, ctx: Context, notes: list[str]) -> list[str]:
    """Candidate router modules under `base` (printed as `shown`), relative to it, best first: the
    shallowest (a `router/` directory counts as deep as a `router.ts` beside it), then name
    preference, then path order; entries the search could not read are named in `notes`."""
    names = "{" + ",".join(("index", *MODULE_NAMES)) + "}"
    listing = rg.walk(["."], cwd=base, globs=[f"{names}.{{{','.join(SUFFIXES)}}}"], timeout=ctx.timeout(60))
    if listing.skipped:
        skipped = [replace(entry, path=paths.under(shown, entry.path)) for entry in listing.skipped]
        notes.append(rg.skipped_note(skipped, "were not searched for a router"))
    notes.extend(skips.notes(listing.defaults, lambda rel: paths.under(shown, rel), "root"))
    found = listing.files
    candidates = [p for p in found if any(p == n or p.endswith("/" + n) for n in ROUTER_NAMES)]
    if not candidates:
        raise ProviderError(
            f"no router file under {shown}",
            f"looked for {TRIED} at any depth (src/ or not) outside node_modules, dist and ignored "
            f"directories; pass {param('file', ...)} (src/router.ts, say)",
        )

    def rank(path: str) -> tuple[int, int, bytes]:
        preference = next(i for i, n in enumerate(ROUTER_NAMES) if path == n or path.endswith("/" + n))
        depth = path.count("/") - ROUTER_NAMES[preference].count("/")
        return (depth, preference, os.fsencode(path))

    return sorted(candidates, key=rank)


def run(params: Params, ctx: Context) -> dict[str, Any]:
    from sofia.runtime import files as kinds

    base = (ctx.root / params.root).resolve()
    shown = paths.shown(ctx.root / params.root, ctx.root)
    kinds.require(base, params.root, what="root", file=False)
    if not base.is_dir():
        raise ProviderError(f"root not found: {params.root}", f"paths are relative to {ctx.root}")
    notes: list[str] = []
    candidates = _candidates(params, ctx, base, shown, notes)
    loader, walker, module, router, skipped = _first_table(base, shown, candidates, params.file, ctx)
    others: list[Path] = []
    if not params.file:
        others = candidates[candidates.index(router) + 1 :]
        if skipped:
            notes.append(f"not a router (no route table): {', '.join(skipped)}")
    _note_run_time(walker, module)
    if others:
        loaded = set(loader.order)
        also = [loader.rel(o.resolve()) for o in others]
        also = [o for o in also if o not in loaded]
        if also:
            notes.append(f"also found: {', '.join(also)}; pass {param('file', ...)} to choose")
    notes.extend(loader.misses.notes())
    notes.extend(walker.misses.notes())
    files, rows = _by_first_route(list(loader.order), walker.rows)
    raw_tok = sum(estimate(m.source) for m in loader.modules.values() if m is not None)
    return _fitted(files, rows, notes, raw_tok, ctx.budget)


def _candidates(params: Params, ctx: Context, base: Path, shown: str, notes: list[str]) -> list[Path]:
    """The router modules to try, most likely first: the one `file` names, else those found."""
    from sofia.runtime import files as kinds

    if not params.file:
        return [base / rel for rel in locate(base, shown, ctx, notes)]
    router = (ctx.root / params.file).resolve()
    kinds.require(router, params.file, what="router file", directory=False)
    if not router.is_file():
        raise ProviderError(f"router file not found: {params.file}", f"paths are relative to {ctx.root}")
    return [router]


def _first_table(
    base: Path, shown: str, candidates: list[Path], file: str, ctx: Context
) -> tuple[ModuleLoader, RouteWalker, Module, Path, list[str]]:
    """The first candidate holding a route table, walked, with the modules tried before it;
    an error naming every candidate when none holds one."""
    skipped: list[str] = []
    for router in candidates:
        loader, walker, module, found = _attempt(base, shown, router, file, ctx)
        if found:
            return loader, walker, module, router, skipped
        skipped.append(module.rel)
    first = skipped[0]
    tried = "" if len(skipped) == 1 else f" (nor in {', '.join(skipped[1:])})"
    raise ProviderError(
        f"no route array in {first}{tried}",
        "expected createRouter({ routes }), export default [...] or const routes = [...]; "
        f"pass {param('file', ...)} for the module that declares them",
    )


def _fitted(
    files: list[str], rows: list[dict[str, Any]], notes: list[str], raw_tok: int, budget: int | None
) -> dict[str, Any]:
    """The result with as many routes as the budget holds, the rest counted."""
    hint = f"pass {param('file', ...)} for a single route module"

    def build(count: int) -> dict[str, Any]:
        result: dict[str, Any] = {"files": files, "routes": elide(rows[:count], ELIDABLE)}
        cut = [budgets.note("routes", count, len(rows), "routes", budget, hint)] * (count < len(rows))
        result["notes"] = notes + cut
        result["stats"] = {"raw_tok": raw_tok}
        return budgets.with_omitted(result, {"routes": len(rows) - count})

    keep = budgets.largest_prefix(len(rows), lambda k: budgets.fits(build(k), budget))
    result = build(keep)
    budgets.add_floor_note(result, budget)
    return result


def _note_run_time(walker: RouteWalker, module: Module) -> None:
    """What the table depends on at run time, and the limits the evaluation reached."""
    walker.note_other_tables()
    walker.note_added_routes()
    evaluator = walker.evaluator
    for origin in evaluator.undecided:
        walker.misses.add("conditions", "decided at run time; routes of every branch listed", place(origin))
    for origin in evaluator.empty:
        walker.misses.add("loaders", "they match no file", place(origin))
    for origin in evaluator.truncated:
        walker.misses.add("loaders", f"listing stopped at {MAX_LISTED} entries", place(origin))
    if evaluator.exhausted:
        walker.misses.add("statements", f"evaluation stopped after {MAX_STEPS} steps", Place(module.rel))


def _attempt(
    base: Path, shown: str, router: Path, file: str, ctx: Context
) -> tuple[ModuleLoader, RouteWalker, Module, bool]:
    """Read one candidate router module and walk its table (found: False when it has none)."""
    loader = ModuleLoader(base, shown)
    if not loader.inside(router):
        loader = ModuleLoader(router.parent, paths.shown(router.parent, ctx.root))
    module = loader.load(router)
    if module is None:
        raise ProviderError(f"cannot read the router module {file or loader.rel(router)}", "check the file")
    walker = RouteWalker(loader)
    try:
        found = _walked(walker, module)
    except RecursionError:
        raise ProviderError(
            f"the route table of {module.rel} nests too deep to follow",
            f"pass {param('file', ...)} for a route module",
        ) from None
    return loader, walker, module, found


def _walked(walker: RouteWalker, module: Module) -> bool:
    """Find and walk the table; False when the module has none."""
    table = find_routes(walker, module)
    if table is None:
        return False
    if isinstance(table, Unknown):
        walker.misses.add("route tables", table.why, place(table.origin))
    else:
        walker.walk(table, "", 0)
    return True


def _by_first_route(order: list[str], rows: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """`files` with the modules holding routes first, in the order of their first route (so a
    table from one module needs no `file` column), then the others in the order read; each row's
    `file` renumbered to match."""
    first: list[int] = []
    for row in rows:
        if row["file"] not in first:
            first.append(row["file"])
    ranked = first + [i for i in range(len(order)) if i not in first]
    position = {old: new for new, old in enumerate(ranked)}
    return [order[i] for i in ranked], [{**row, "file": position[row["file"]]} for row in rows]


IMPLEMENTATION = Implementation(params=Params, run=run)
