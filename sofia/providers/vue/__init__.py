"""`vue_routes`: the vue-router route table of an app, flattened across modules, parsed with
tree-sitter (spec tools-code §4)."""

from __future__ import annotations

import os
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
from sofia.runtime import rg

from .evaluate import MAX_STEPS
from .globs import MAX_LISTED
from .modules import Loader, Module
from .routes import RouteWalker, find_routes, place
from .values import Unknown

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
    root: Annotated[
        str, Field(description="tree to search; base for output paths and @/ aliases"), PathParam()
    ] = "."


def locate(base: Path, ctx: Context, notes: list[str]) -> list[str]:
    """Candidate router modules under `base`, best first: the shallowest (a `router/` directory
    counts as deep as a `router.ts` beside it), then name preference, then path order; entries the
    search could not read are named in `notes`."""
    names = "{" + ",".join(("index", *MODULE_NAMES)) + "}"
    listing = rg.walk(["."], cwd=base, globs=[f"{names}.{{{','.join(SUFFIXES)}}}"], timeout=ctx.timeout(60))
    if listing.skipped:
        notes.append(rg.skipped_note(listing.skipped, "were not searched for a router"))
    found = listing.files
    candidates = [p for p in found if any(p == n or p.endswith("/" + n) for n in ROUTER_NAMES)]
    if not candidates:
        raise ProviderError(
            f"no router file under {_shown(base, ctx)}",
            f"looked for {TRIED} at any depth (src/ or not) outside node_modules, dist and ignored "
            f"directories; pass {param('file', ...)} (src/router.ts, say)",
        )

    def rank(path: str) -> tuple[int, int, bytes]:
        preference = next(i for i, n in enumerate(ROUTER_NAMES) if path == n or path.endswith("/" + n))
        depth = path.count("/") - ROUTER_NAMES[preference].count("/")
        return (depth, preference, os.fsencode(path))

    return sorted(candidates, key=rank)


def _shown(path: Path, ctx: Context) -> str:
    try:
        rel = os.path.relpath(path, ctx.root)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def run(params: Params, ctx: Context) -> dict[str, Any]:
    from sofia.runtime import files as kinds

    base = (ctx.root / params.root).resolve()
    kinds.require(base, params.root, what="root", file=False)
    if not base.is_dir():
        raise ProviderError(f"root not found: {params.root}", f"paths are relative to {ctx.root}")
    notes: list[str] = []
    others: list[str] = []
    if params.file:
        router = (ctx.root / params.file).resolve()
        kinds.require(router, params.file, what="router file", directory=False)
        if not router.is_file():
            raise ProviderError(f"router file not found: {params.file}", f"paths are relative to {ctx.root}")
        candidates = [router]
    else:
        ordered = locate(base, ctx, notes)
        candidates = [base / rel for rel in ordered]
    skipped: list[str] = []
    for router in candidates:
        loader, walker, module, found = _attempt(base, router, params.file)
        if found:
            break
        skipped.append(module.rel)
    else:
        first = skipped[0]
        tried = "" if len(skipped) == 1 else f" (nor in {', '.join(skipped[1:])})"
        raise ProviderError(
            f"no route array in {first}{tried}",
            "expected createRouter({ routes }), export default [...] or const routes = [...]; "
            f"pass {param('file', ...)} for the module that declares them",
        )
    if not params.file:
        chosen = candidates.index(router)
        others = [_rel(c, base) for c in candidates[chosen + 1 :]]
        if skipped:
            notes.append(
                f"not a router (no route table): {', '.join(_rel(c, base) for c in candidates[:chosen])}"
            )
    _note_run_time(walker, module)
    if others:
        loaded = set(loader.order)
        others = [o for o in others if _shown_rel(base / o, loader) not in loaded]
        if others:
            notes.append(f"also found: {', '.join(others)}; pass {param('file', ...)} to choose")
    notes.extend(loader.misses.notes())
    notes.extend(walker.misses.notes())
    files, rows = _by_first_route(list(loader.order), walker.rows)
    raw_tok = sum(estimate(m.source) for m in loader.modules.values() if m is not None)

    def build(count: int, extra: list[str]) -> dict[str, Any]:
        result: dict[str, Any] = {"files": files, "routes": elide(rows[:count], ELIDABLE)}
        if count < len(rows):
            result["total"] = len(rows)
        result["notes"] = notes + extra
        result["stats"] = {"raw_tok": raw_tok}
        return result

    result = build(len(rows), [])
    if budgets.fits(result, ctx.budget):
        return result

    def note(count: int) -> list[str]:
        hint = f"pass {param('file', ...)} for a single route module"
        return [budgets.note("routes", count, len(rows), "routes", ctx.budget, hint)]

    keep = budgets.largest_prefix(len(rows), lambda k: budgets.fits(build(k, note(k)), ctx.budget))
    return build(keep, note(keep))


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


def _attempt(base: Path, router: Path, file: str) -> tuple[Loader, RouteWalker, Module, bool]:
    """Read one candidate router module and walk its table (found: False when it has none)."""
    loader = Loader(base)
    if not loader.inside(router):
        loader = Loader(router.parent)
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


def _rel(path: Path, base: Path) -> str:
    return os.path.relpath(path, base).replace(os.sep, "/")


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


def _shown_rel(path: Path, loader: Loader) -> str:
    return loader.rel(path.resolve())


IMPLEMENTATION = Implementation(params=Params, run=run)
