"""The `code` call end to end: validate, expand, decide per file, fit the budget."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sofia.errors import ArgumentError, param, quote
from sofia.providers.code import by_name, documents, fit, inputs, slices, text
from sofia.providers.code.model import SLICE_MODE, SummaryOptions
from sofia.providers.code.unfollowed import Unfollowed
from sofia.providers.contract import Context

if TYPE_CHECKING:
    from sofia.providers.code import Params


def requested_symbols(params: Params) -> list[str]:
    """`symbol` in front of `symbols`, surrounding whitespace and repeats dropped.

    An empty `symbol` is its default (no symbol); any other blank name is refused, because it is
    neither a symbol to slice nor a clear request for summaries.
    """
    named = [("symbol", params.symbol)] if params.symbol else []
    named += [(f"symbols[{i}]", name) for i, name in enumerate(params.symbols)]
    for where, name in named:
        if not name.strip():
            raise ArgumentError(
                f"blank symbol name: {where} is {quote(repr(name))}",
                "name the symbol (Class::method, Type.Method, a bare name) or leave "
                f"{param('symbols')} out for summaries",
            )
    return list(dict.fromkeys(name.strip() for _, name in named))


def run(params: Params, ctx: Context) -> dict[str, Any]:
    """Slice mode when symbols are named, else summaries; the result says which (`mode`)."""
    root = ctx.root
    below = documents.raw_below()
    symbols = requested_symbols(params)
    if symbols and by_name.wants_lookup(params.files, root):
        return by_name.run_by_name(params.files, symbols, ctx)
    if symbols:
        target = inputs.slice_target(params.files, root)
        sliced = slices.run_slices(target, symbols, below)
        return fit.fit_slices({"mode": SLICE_MODE, **sliced}, ctx.budget, text.slice_text)
    walk_notes: list[str] = []
    items = inputs.expand(params.files, root, timeout=ctx.timeout(60.0), notes=walk_notes)
    options = SummaryOptions(exported=params.exported or params.api, brief=params.brief, api=params.api)
    results: list[documents.FileResult] = []
    for index, item in enumerate(items):
        ctx.check_deadline()
        results.append(documents.process(item, root, options, below))
        ctx.progress(index + 1, len(items), item.rel)
    notes = [*walk_notes, *(n for r in results for n in r.notes)]
    found = Unfollowed()
    for done in results:
        found.extend(done.unfollowed)
    notes.extend(found.notes())
    if params.api and any(r.document["lang"] not in ("php", "") for r in results):
        notes.append(
            f"{param('api')} applies to PHP classes; other files are summarised as with {param('exported', True)}"
        )
    raw_tok = sum(r.raw_tok for r in results)
    return fit.fit_files([r.document for r in results], notes, raw_tok, ctx.budget, brief=params.brief)
