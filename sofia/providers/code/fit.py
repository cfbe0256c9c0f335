"""Fitting a `code` result into the output budget (docs/code.md, "Output budget"): whole documents
in order, then the first document shortened, never silently: every cut is counted in `omitted`
and said in one note, in the toolkit's wording (sofia/output/budget.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sofia.errors import param
from sofia.output import budget as budgets
from sofia.output.tokens import estimate
from sofia.providers.code.documents import briefed, count_lines

FILES_HINT = f"request them separately, narrow the path or use {param('brief', True)}"
BRIEF_FILES_HINT = "request them separately or narrow the path"
"""FILES_HINT for a call that is brief already: a note never suggests what the call did."""
ROWS_HINT = f"use {param('symbols', [...])} or a narrower call"
CONTENT_HINT = f"use {param('symbols', [...])} or grep for the part you need"


def fit_files(
    documents: list[dict[str, Any]], notes: list[str], raw_tok: int, budget: int | None, brief: bool = False
) -> dict[str, Any]:
    """Every document that fits, in order; when not even the first does, the first shortened:
    a summary goes brief, then loses rows from the end of its largest tables; raw content is
    cut at a line boundary. `brief`: the call already asked for it, so no note suggests it."""
    whole = {"files": documents, "notes": notes, "stats": {"raw_tok": raw_tok}}
    if budgets.fits(whole, budget):
        return whole  # the common case, without preparing the ladder
    shape = _First(documents[0] if documents else {})
    knobs = {"files": len(documents), **shape.knobs}
    ladder: list[budgets.Step] = [budgets.Shrink("files", 1), *shape.ladder]

    def build(k: budgets.Knobs) -> dict[str, Any]:
        kept = documents[: k["files"]]
        counts = {"files": len(documents) - len(kept)}
        extra: list[str] = []
        if kept:
            shaped, first_notes, first_counts = shape.build(k, budget)
            kept = [shaped, *kept[1:]]
            extra += first_notes
            counts.update(first_counts)
        if counts["files"]:
            rest = ", ".join(d["path"] for d in documents[len(kept) :])
            hint = f"not shown: {rest}; {BRIEF_FILES_HINT if brief else FILES_HINT}"
            extra.append(budgets.note("files", len(kept), len(documents), "files", budget, hint))
        result = {"files": kept, "notes": [*notes, *extra], "stats": {"raw_tok": raw_tok}}
        return budgets.with_omitted(result, counts)

    return budgets.fit(build, knobs, ladder, budget)


class _First:
    """The knobs and ladder that shorten the first document, and the document they describe."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.mode = document.get("mode")
        self.knobs: dict[str, int] = {}
        self.ladder: list[budgets.Step] = []
        if self.mode == "raw":
            self.lines = _line_ends(document["content"])
            self.knobs["lines"] = len(self.lines) - 1
            self.ladder.append(budgets.Shrink("lines"))
        elif self.mode == "summary":
            self.brief = briefed(document)
            self.tables = sorted(
                (k for k, v in self.brief.items() if isinstance(v, list) and v and isinstance(v[0], dict)),
                key=lambda k: (-budgets.cost(self.brief[k]), k),
            )
            self.can_brief = self.brief != document
            if self.can_brief:
                self.knobs["full"] = 1
                self.ladder.append(budgets.Lower({"full": 0}))
            self.knobs.update({f"rows:{key}": len(self.brief[key]) for key in self.tables})
            self.ladder += [budgets.Shrink(f"rows:{key}") for key in self.tables]

    def build(self, k: budgets.Knobs, budget: int | None) -> tuple[dict[str, Any], list[str], dict[str, int]]:
        """The first document at knobs `k`, the notes on its cuts and what they left out."""
        document = self.document
        path = document.get("path", "")
        if self.mode == "raw" and k["lines"] < len(self.lines) - 1:
            content: str = document["content"]
            change = f"content cut at line {k['lines']} of {len(self.lines) - 1}"
            note = budgets.shortened_note(path, change, budget, CONTENT_HINT)
            return {**document, "content": content[: self.lines[k["lines"]]]}, [note], {}
        if self.mode != "summary" or (self.can_brief and k["full"]):
            return document, [], {}
        shaped = dict(self.brief)
        notes = [budgets.shortened_note(path, "brief form", budget, ROWS_HINT)] if self.can_brief else []
        counts = {}
        for key in self.tables:
            rows = self.brief[key]
            keep = k[f"rows:{key}"]
            if keep < len(rows):
                shaped[key] = rows[:keep]
                where = f"files[0].{key}"
                notes.append(budgets.note(where, keep, len(rows), "rows", budget, f"{path}: {ROWS_HINT}"))
                counts[where] = len(rows) - keep
        return shaped, notes, counts


def _line_ends(text: str) -> list[int]:
    """Offsets just past each line of `text` (a last line without a newline counts), after a 0:
    the first `n` lines are `text[: ends[n]]`."""
    ends = [0]
    position = text.find("\n")
    while position >= 0:
        ends.append(position + 1)
        position = text.find("\n", position + 1)
    if ends[-1] < len(text):
        ends.append(len(text))
    return ends


def fit_slices(
    result: dict[str, Any], budget: int | None, text: Callable[[dict[str, Any]], str]
) -> dict[str, Any]:
    """Slices in order, as many lines of them as fit: the one crossing the budget is cut at a line
    boundary, later ones named. The result travels as `text(result)`, so the larger of its JSON
    and its text is what must fit."""
    document = result["files"][0]

    def measure(candidate: dict[str, Any]) -> int:
        return max(budgets.cost(candidate), estimate(text(candidate)))

    if document["mode"] != "slice":
        shape = _First(document)

        def whole(k: budgets.Knobs) -> dict[str, Any]:
            doc, notes, _ = shape.build(k, budget)
            return {**result, "files": [doc], "notes": [*result["notes"], *notes]}

        return budgets.fit(whole, dict(shape.knobs), shape.ladder, budget, measure)
    slices = document["slices"]
    sizes = [count_lines(piece["text"]) for piece in slices]

    def build(k: budgets.Knobs) -> dict[str, Any]:
        kept, notes = _slice_lines(slices, sizes, k["lines"], budget)
        if len(kept) < len(slices):
            later = ", ".join(s["symbol"] for s in slices[len(kept) :])
            hint = f"not shown: {later}; request them separately"
            notes.append(budgets.note("files[0].slices", len(kept), len(slices), "slices", budget, hint))
        shaped = {**result, "files": [{**document, "slices": kept}], "notes": [*result["notes"], *notes]}
        return budgets.with_omitted(shaped, {"files[0].slices": len(slices) - len(kept)})

    ladder: list[budgets.Step] = [budgets.Shrink("lines")]
    return budgets.fit(build, {"lines": sum(sizes)}, ladder, budget, measure)


def _slice_lines(
    slices: list[dict[str, Any]], sizes: list[int], lines: int, budget: int | None
) -> tuple[list[dict[str, Any]], list[str]]:
    """The first `lines` lines of the slices in order: whole slices, then the crossing one cut
    (when at least one of its lines is left), with the note on the cut."""
    kept: list[dict[str, Any]] = []
    for piece, size in zip(slices, sizes, strict=True):
        if lines >= size:
            kept.append(piece)
            lines -= size
            continue
        if lines > 0:
            end = piece["line"] + lines - 1
            cut = {**piece, "text": piece["text"][: _line_ends(piece["text"])[lines]], "end_line": end}
            change = f"cut at line {end} of {piece['line']}-{piece['end_line']}"
            return [*kept, cut], [budgets.shortened_note(piece["symbol"], change, budget, CONTENT_HINT)]
        break
    return kept, []
