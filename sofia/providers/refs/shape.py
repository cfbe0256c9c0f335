"""The `refs` result: per symbol its exact totals, definitions and uses grouped per file (exact
matches first), cut to `max_per_symbol` and then to the output budget, every cut counted in the
one `omitted` shape (`symbols[0].uses`, `symbols[0].definitions`) and named in a note worded by
`sofia.output.budget.note` that says how to narrow. Paths are printed relative to the workspace."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sofia.errors import param
from sofia.output import budget as budgets
from sofia.output.grouped import by_file
from sofia.output.notes import Place, not_followed
from sofia.output.tokens import estimate
from sofia.providers.refs.model import DEADLINE, EXACT, MATCHES, NAME, Found, Matched, Use

if TYPE_CHECKING:
    from sofia.providers.refs.params import Params

MAX_DEFINITIONS = 20
"""Definitions listed per symbol; the rest are counted."""
AMBIGUOUS_SHOWN = 5
NARROW = f"narrow with {param('root')}, {param('exts')}, {param('kinds')} or a qualified name"
OPTIONAL_TOTALS = ("in_comments", "in_strings", "locals", "elsewhere", "other", "unclassified", "unparsed")
"""`unparsed`: occurrences in files of types sofia does not parse (counted when nothing parsed
defines the name)."""
USES_SHOWN = "uses_per_symbol"
"""The budget's first knob: uses shown per symbol (the same for every symbol)."""
DEFINITIONS_SHOWN = "definitions_per_symbol"
"""Its second: definitions listed per symbol, cut only when not even one use each fits."""


def shape(params: Params, found: Found, matched: Sequence[Matched], budget: int | None) -> dict[str, Any]:
    """The answer: the cap first, then the budget's knobs, shrunk in turn until it fits."""
    kinds = set(params.kinds)
    shown = [[u for u in _ordered(m.uses) if not kinds or u.kind in kinds] for m in matched]
    cap = params.max_per_symbol
    top = max((len(s) for s in shown), default=0)
    notes = _notes(params, found, matched)

    def build(knobs: budgets.Knobs) -> dict[str, Any]:
        return _result(params, found, matched, shown, knobs, notes, budget)

    knobs = {
        USES_SHOWN: min(top, cap) if cap else top,
        DEFINITIONS_SHOWN: MAX_DEFINITIONS if params.definitions else 0,
    }
    ladder = [budgets.Shrink(USES_SHOWN), budgets.Shrink(DEFINITIONS_SHOWN)]
    return budgets.fit(build, knobs, ladder, budget)


def _ordered(uses: list[Use]) -> list[Use]:
    """Exact matches first, then name matches; each in path, line and column order."""
    rank = {match: index for index, match in enumerate(MATCHES)}
    return sorted(uses, key=lambda u: (rank[u.match], os.fsencode(u.file), u.line, u.col))


def _by_file(uses: Sequence[Use], found: Found) -> dict[str, list[dict[str, Any]]]:
    """Uses grouped under their file, as grep's hits are: a path is written once, not per use."""
    return by_file(
        (found.request.shown(u.file), {"line": u.line, "col": u.col, "kind": u.kind, "in": u.enclosing})
        for u in uses
    )


def _result(
    params: Params,
    found: Found,
    matched: Sequence[Matched],
    shown: Sequence[list[Use]],
    knobs: budgets.Knobs,
    notes: list[str],
    budget: int | None,
) -> dict[str, Any]:
    """The result with the uses and definitions per symbol the knobs allow, and one note for
    each list so shortened."""
    uses_shown, definitions_shown = knobs[USES_SHOWN], knobs[DEFINITIONS_SHOWN]
    entries: list[dict[str, Any]] = []
    cut_notes: list[str] = []
    omitted: dict[str, int] = {}
    for index, (m, uses) in enumerate(zip(matched, shown, strict=True)):
        entries.append(_entry(params, found, m, uses[:uses_shown], definitions_shown))
        key = f"symbols[{index}]"
        if len(uses) > uses_shown:
            omitted[f"{key}.uses"] = len(uses) - uses_shown
            cut_notes.append(_uses_note(params, m, key, len(uses), uses_shown, budget))
        if params.definitions and len(m.definitions) > definitions_shown:
            omitted[f"{key}.definitions"] = len(m.definitions) - definitions_shown
            cut_notes.append(_definitions_note(m, key, definitions_shown, budget))
    result: dict[str, Any] = {
        "root": found.request.root_display,
        "symbols": entries,
        "notes": [*notes, *cut_notes],
        "stats": {"raw_tok": _grep_cost(matched)},
    }
    return budgets.with_omitted(result, omitted)


def _grep_cost(matched: Sequence[Matched]) -> int:
    """What `grep -rn -w` would print for the classified files: the CLI footer's baseline."""
    return sum(estimate(f"{f}:{line}:{text}\n") for m in matched for (f, line), text in m.raw_lines.items())


def _entry(params: Params, found: Found, m: Matched, visible: list[Use], definitions: int) -> dict[str, Any]:
    """One symbol's entry: its totals and kinds, its first `definitions` definitions, its visible uses."""
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
            for x in m.definitions[:definitions]
        ]
    for match in MATCHES:
        uses = [u for u in visible if u.match == match]
        if uses:
            entry[match] = _by_file(uses, found)
    return entry


def _uses_note(params: Params, m: Matched, key: str, total: int, shown: int, budget: int | None) -> str:
    """Why a symbol shows `shown` of its `total` uses: the cap (`max_per_symbol`), the budget, or both."""
    cap = params.max_per_symbol
    by_cap = bool(cap) and total > cap
    by_budget = shown < (min(cap, total) if cap else total)
    hint = f"{m.query.text}: " + ("" if by_budget else f"raise {param('max_per_symbol')} or ") + NARROW
    limit = param("max_per_symbol", cap) if by_cap else ""
    return budgets.note(f"{key}.uses", shown, total, "uses", budget if by_budget else None, hint, limit=limit)


def _definitions_note(m: Matched, key: str, shown: int, budget: int | None) -> str:
    total = len(m.definitions)
    limit = f"at most {MAX_DEFINITIONS}" if total > MAX_DEFINITIONS else ""
    cut = budget if shown < min(MAX_DEFINITIONS, total) else None
    hint = f"{m.query.text}: qualify the name or narrow {param('root')}"
    return budgets.note(f"{key}.definitions", shown, total, "definitions", cut, hint, limit=limit)


def _notes(params: Params, found: Found, matched: Sequence[Matched]) -> list[str]:
    """What the answer cannot show by its rows: a name defined in several places, a name without
    a definition, the kinds filter, the deadline's cut, the files not classified."""
    notes: list[str] = []
    for m in matched:
        if m.narrowing:
            notes.append(_ambiguity_note(m))
        notes.extend(_definition_notes(m, found))
    if params.kinds:
        notes.append(f"showing uses of kind {', '.join(params.kinds)}; totals count every kind")
    if found.deadline_cut:
        classified = found.candidates - found.deadline_cut
        notes.append(
            f"classified {classified} of {found.candidates} candidate files before the deadline; text totals are "
            "exact, the other totals cover the classified files and the rest are counted as unclassified; "
            f"narrow with {param('root')} or {param('exts')}"
        )
    others = [(path, why) for path, why in sorted(found.unparsed.items()) if why != DEADLINE]
    if others:
        places = [Place(found.request.shown(path), 0, why) for path, why in others]
        notes.append(not_followed("files", places, "their occurrences are counted as unclassified"))
    notes.extend(found.notes)
    return notes


def _ambiguity_note(m: Matched) -> str:
    """A bare name defined in several places: each place as the spelling that asks for it alone
    (so the example narrows), with its uses."""
    defined = m.narrowing
    listed = ", ".join(
        f"{spelled} ({_uses(sum(m.definitions[i].uses for i in indexes))})"
        for spelled, indexes in defined[:AMBIGUOUS_SHOWN]
    )
    more = f" and {len(defined) - AMBIGUOUS_SHOWN} more" if len(defined) > AMBIGUOUS_SHOWN else ""
    narrowed = next((spelled for spelled, _ in defined if spelled != m.query.text), "")
    advice = (
        f"qualify it (e.g. {narrowed}) to tell exact uses from same-named ones"
        if narrowed
        else f"narrow {param('root')} to tell exact uses from same-named ones"
    )
    return f"{m.query.text} is defined {len(m.definitions)} times: {listed}{more}; {advice}"


def _definition_notes(m: Matched, found: Found) -> list[str]:
    """For a name without a definition: why none is shown, so "none" never reads as "not found"."""
    if m.definitions:
        return []
    name = m.query.text
    elsewhere = m.outside.note(name) if m.outside is not None else ""
    if not m.totals["uses"] and not m.text and not elsewhere:
        exts = found.request.exts
        only = f" in the {', '.join(f'.{ext}' for ext in exts)} files" if exts else ""
        return [f"{name}: not found{only} under {found.request.root_display}"]
    if elsewhere and not m.totals["uses"]:
        return [f"{name}: no definition in a parsed language; {elsewhere.split(': ', 1)[1]}"]
    if m.unclassified:
        return [
            f"{name}: no definition in the files classified; {m.unclassified:,} occurrences in "
            f"files not classified may hold one (pass {param('max_per_symbol', 0)} to classify every file)"
        ]
    return [
        f"{name}: no definition under {found.request.root_display} (defined outside the root, "
        "in an unsupported file, or generated); uses whose receiver is known are exact",
        *([elsewhere] if elsewhere else []),
    ]


def _uses(count: int) -> str:
    """`1 use`, `3 uses` (`notes.plural` reads "uses" as a plural in -es: "1 us")."""
    return "1 use" if count == 1 else f"{count} uses"
