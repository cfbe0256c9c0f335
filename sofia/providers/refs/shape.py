"""The `refs` result: per symbol its exact totals, definitions and uses grouped per file (exact
matches first), cut to `max_per_symbol` and then to the output budget, every cut counted in the
one `omitted` shape (`symbols[0].uses`, `symbols[0].definitions`) and named in a note worded by
`sofia.output.budget.note` that says how to narrow. Paths are printed relative to the workspace."""

from __future__ import annotations

import os
from collections.abc import Sequence
from itertools import groupby
from typing import TYPE_CHECKING, Any

from sofia.errors import param
from sofia.output import budget as budgets
from sofia.output.notes import Place, not_followed
from sofia.output.tokens import estimate
from sofia.providers.refs.match import EXACT, NAME, Matched, Use

if TYPE_CHECKING:
    from sofia.providers.refs.engine import Found
    from sofia.providers.refs.provider import Params

MAX_DEFINITIONS = 20
"""Definitions listed per symbol; the rest are counted."""
AMBIGUOUS_SHOWN = 5
NARROW = f"narrow with {param('root')}, {param('exts')}, {param('kinds')} or a qualified name"
OPTIONAL_TOTALS = ("in_comments", "in_strings", "locals", "elsewhere", "other", "unclassified", "unparsed")
"""`unparsed`: occurrences in files of types sofia does not parse (counted when nothing parsed
defines the name)."""


def shape(params: Params, found: Found, matched: Sequence[Matched], budget: int | None) -> dict[str, Any]:
    kinds = set(params.kinds)
    shown = [[u for u in _ordered(m.uses) if not kinds or u.kind in kinds] for m in matched]
    cap = params.max_per_symbol
    top = max((len(s) for s in shown), default=0)
    wanted = min(top, cap) if cap else top
    definitions = MAX_DEFINITIONS if params.definitions else 0
    notes = _notes(params, found, matched)

    def build(knobs: budgets.Knobs) -> dict[str, Any]:
        return _result(params, found, matched, shown, knobs["k"], knobs["d"], notes, budget)

    knobs = {"k": wanted, "d": definitions}
    return budgets.fit(build, knobs, [budgets.Shrink("k"), budgets.Shrink("d")], budget)


def _ordered(uses: list[Use]) -> list[Use]:
    """Exact matches first, then name matches; each in path, line and column order."""
    rank = {EXACT: 0, NAME: 1}
    return sorted(uses, key=lambda u: (rank[u.match], os.fsencode(u.file), u.line, u.col))


def _rows(uses: Sequence[Use], found: Found) -> list[dict[str, Any]]:
    """One flat row per use; `file` is written on a file's first row only ("" below it), so the
    path costs once per file and the table stays one header plus short rows."""
    rows: list[dict[str, Any]] = []
    for file, group in groupby(uses, key=lambda u: u.file):
        shown = found.request.shown(file)
        for index, u in enumerate(group):
            rows.append(
                {
                    "file": "" if index else shown,
                    "line": u.line,
                    "col": u.col,
                    "kind": u.kind,
                    "in": u.enclosing,
                }
            )
    return rows


def _result(
    params: Params,
    found: Found,
    matched: Sequence[Matched],
    shown: Sequence[list[Use]],
    k: int,
    d: int,
    notes: list[str],
    budget: int | None,
) -> dict[str, Any]:
    """The result with at most `k` uses and `d` definitions per symbol, and one note for each list
    so shortened."""
    entries: list[dict[str, Any]] = []
    extra: list[str] = []
    omitted: dict[str, int] = {}
    for index, (m, uses) in enumerate(zip(matched, shown, strict=True)):
        entries.append(_entry(params, found, m, uses[:k], d))
        key = f"symbols[{index}]"
        if len(uses) > k:
            omitted[f"{key}.uses"] = len(uses) - k
            extra.append(_uses_note(params, m, key, len(uses), k, budget))
        if params.definitions and len(m.definitions) > d:
            omitted[f"{key}.definitions"] = len(m.definitions) - d
            extra.append(_definitions_note(m, key, d, budget))
    result: dict[str, Any] = {
        "root": found.request.root_display,
        "symbols": entries,
        "notes": [*notes, *extra],
    }
    raw = sum(estimate(f"{f}:{line}:{text}\n") for m in matched for (f, line), text in m.raw_lines.items())
    result["stats"] = {"raw_tok": raw}
    return budgets.with_omitted(result, omitted)


def _entry(params: Params, found: Found, m: Matched, visible: list[Use], d: int) -> dict[str, Any]:
    """One symbol's entry: its totals and kinds, its first `d` definitions, its visible uses."""
    totals: dict[str, int] = {
        "text": m.text,
        "uses": m.totals["uses"],
        EXACT: m.totals[EXACT],
        NAME: m.totals[NAME],
        "definitions": len(m.definitions),
    }
    optional = {
        **m.totals,
        "unclassified": m.unclassified,
        "unparsed": m.outside.occurrences if m.outside is not None else 0,
    }
    totals.update({key: optional[key] for key in OPTIONAL_TOTALS if optional.get(key)})
    entry: dict[str, Any] = {"symbol": m.query.text, "totals": totals, "kinds": dict(sorted(m.kinds.items()))}
    if params.definitions and m.definitions:
        entry["definitions"] = [
            {
                "file": found.request.shown(x.file),
                "line": x.line,
                "col": x.col,
                "end_line": x.end_line,
                "kind": x.kind,
                "qname": x.qname,
                "sig": x.sig,
                "uses": x.uses,
            }
            for x in m.definitions[:d]
        ]
    exact = [u for u in visible if u.match == EXACT]
    names = [u for u in visible if u.match == NAME]
    if exact:
        entry[EXACT] = _rows(exact, found)
    if names:
        entry[NAME] = _rows(names, found)
    return entry


def _uses_note(params: Params, m: Matched, key: str, total: int, k: int, budget: int | None) -> str:
    """Why a symbol shows `k` of its `total` uses: the cap (`max_per_symbol`), the budget, or both."""
    cap = params.max_per_symbol
    by_cap = bool(cap) and total > cap
    by_budget = k < (min(cap, total) if cap else total)
    hint = f"{m.query.text}: " + ("" if by_budget else f"raise {param('max_per_symbol')} or ") + NARROW
    limit = param("max_per_symbol", cap) if by_cap else ""
    return budgets.note(f"{key}.uses", k, total, "uses", budget if by_budget else None, hint, limit=limit)


def _definitions_note(m: Matched, key: str, d: int, budget: int | None) -> str:
    total = len(m.definitions)
    limit = f"at most {MAX_DEFINITIONS}" if total > MAX_DEFINITIONS else ""
    cut = budget if d < min(MAX_DEFINITIONS, total) else None
    hint = f"{m.query.text}: qualify the name or narrow {param('root')}"
    return budgets.note(f"{key}.definitions", d, total, "definitions", cut, hint, limit=limit)


def _notes(params: Params, found: Found, matched: Sequence[Matched]) -> list[str]:
    notes: list[str] = []
    for m in matched:
        query = m.query
        if m.narrowing:
            # Each place is listed as the spelling that asks for it alone, so the example narrows.
            defined = m.narrowing
            listed = ", ".join(
                f"{spelled} ({_uses(sum(m.definitions[i].uses for i in indexes))})"
                for spelled, indexes in defined[:AMBIGUOUS_SHOWN]
            )
            more = f" and {len(defined) - AMBIGUOUS_SHOWN} more" if len(defined) > AMBIGUOUS_SHOWN else ""
            narrowed = next((spelled for spelled, _ in defined if spelled != query.text), "")
            advice = (
                f"qualify it (e.g. {narrowed}) to tell exact uses from same-named ones"
                if narrowed
                else f"narrow {param('root')} to tell exact uses from same-named ones"
            )
            notes.append(f"{query.text} is defined {len(m.definitions)} times: {listed}{more}; {advice}")
        elsewhere = m.outside.note(query.text) if m.outside is not None else ""
        if not m.definitions and not m.totals["uses"] and not m.text and not elsewhere:
            notes.append(f"{query.text}: not found under {found.request.root_display}")
        elif not m.definitions and elsewhere and not m.totals["uses"]:
            notes.append(f"{query.text}: no definition in a parsed language; {elsewhere.split(': ', 1)[1]}")
        elif not m.definitions and m.unclassified:
            notes.append(
                f"{query.text}: no definition in the files classified; {m.unclassified:,} occurrences in "
                f"files not classified may hold one (pass {param('max_per_symbol', 0)} to classify every file)"
            )
        elif not m.definitions:
            notes.append(
                f"{query.text}: no definition under {found.request.root_display} (defined outside the root, "
                "in an unsupported file, or generated); uses whose receiver is known are exact"
            )
            if elsewhere:
                notes.append(elsewhere)
    if params.kinds:
        notes.append(f"showing uses of kind {', '.join(params.kinds)}; totals count every kind")
    if found.deadline_cut:
        classified = found.candidates - found.deadline_cut
        notes.append(
            f"classified {classified} of {found.candidates} candidate files before the deadline; text totals are "
            "exact, the other totals cover the classified files and the rest are counted as unclassified; "
            f"narrow with {param('root')} or {param('exts')}"
        )
    others = [(path, why) for path, why in sorted(found.unparsed.items()) if why != "deadline"]
    if others:
        places = [Place(found.request.shown(path), 0, why) for path, why in others]
        notes.append(not_followed("files", places, "their occurrences are counted as unclassified"))
    notes.extend(found.notes)
    return notes


def _uses(count: int) -> str:
    return f"{count} use{'s' * (count != 1)}"
