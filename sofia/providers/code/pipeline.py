"""The `code` call end to end: validate, expand, decide per file, fit the budget."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sofia.providers.code import by_name, documents, fit, inputs, slices
from sofia.providers.code.model import SummaryOptions
from sofia.providers.contract import Context

if TYPE_CHECKING:
    from sofia.providers.code import Params


def requested_symbols(params: Params) -> list[str]:
    """`symbol` in front of `symbols`, blanks and repeats dropped."""
    names = [params.symbol, *params.symbols] if params.symbol else list(params.symbols)
    return list(dict.fromkeys(n.strip() for n in names if n.strip()))


def run(params: Params, ctx: Context) -> dict[str, Any]:
    root = ctx.root
    below = documents.raw_below()
    symbols = requested_symbols(params)
    if symbols and by_name.wants_lookup(params.files, root):
        return by_name.run_by_name(params.files, symbols, ctx)
    if symbols:
        target = inputs.slice_target(params.files, root)
        return fit.fit_slices(slices.run_slices(target, symbols, below), ctx.budget)
    items = inputs.expand(params.files, root, timeout=ctx.timeout(60.0))
    options = SummaryOptions(exported=params.exported or params.api, brief=params.brief, api=params.api)
    results: list[documents.FileResult] = []
    for index, item in enumerate(items):
        ctx.check_deadline()
        results.append(documents.process(item, root, options, below))
        ctx.progress(index + 1, len(items), item.rel)
    notes = [n for r in results for n in r.notes]
    if params.api and any(r.document["lang"] not in ("php", "") for r in results):
        notes.append("api applies to PHP classes; other files are summarised as with exported=true")
    raw_tok = sum(r.raw_tok for r in results)
    return fit.fit_files([r.document for r in results], notes, raw_tok, ctx.budget)
