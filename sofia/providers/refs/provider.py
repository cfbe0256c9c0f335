"""The `refs` call end to end: collect (count, then classify the candidates), match each name's
occurrences, count a name found in no parsed file where sofia does not parse, shape to the budget."""

from __future__ import annotations

from typing import Any

from sofia.providers.contract import Context, Implementation
from sofia.providers.refs.params import Params


def run(params: Params, ctx: Context) -> dict[str, Any]:
    """Every input problem is a ProviderError before anything runs (`engine.plan`)."""
    from sofia.providers.refs.engine import collect, count_unparsed
    from sofia.providers.refs.match import match
    from sofia.providers.refs.shape import shape

    found = collect(params, ctx)
    matched = [match(query, found) for query in found.queries]
    count_unparsed(found, matched)
    return shape(params, found, matched, ctx.budget)


def render(result: Any, fmt: str) -> str | None:
    """CLI text: TOON and Markdown print each match's uses as one flat table (`tables`)."""
    from sofia.providers.refs import tables

    return tables.render(result, fmt)


__all__ = ["IMPLEMENTATION", "Params", "render", "run"]

IMPLEMENTATION = Implementation(params=Params, run=run, render=render)
