"""Fitting a `code` result into the output budget (spec tools-code §1.9): whole documents in
order, then the first document shortened, never silently: every cut is counted in a note."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sofia.output.budget import MARGIN, cost, largest_prefix, note
from sofia.providers.code.documents import briefed, count_lines

Fits = Callable[[dict[str, Any]], bool]
FILES_HINT = "request the rest separately, narrow the path or use brief=true"
CONTENT_HINT = "use symbols=[…] or grep for the part you need"


def envelope(
    files: list[dict[str, Any]], omitted: list[dict[str, Any]], notes: list[str], raw_tok: int
) -> dict[str, Any]:
    result: dict[str, Any] = {"files": files}
    if omitted:
        result["omitted"] = omitted
    result["notes"] = notes
    result["stats"] = {"raw_tok": raw_tok}
    return result


def fit_files(
    documents: list[dict[str, Any]], notes: list[str], raw_tok: int, budget: int | None
) -> dict[str, Any]:
    """Every document that fits, in order; the rest in `omitted` with reason "budget"."""
    full = envelope(documents, [], notes, raw_tok)
    if budget is None or cost(full) <= budget:
        return full
    limit = budget - MARGIN

    def build(kept: list[dict[str, Any]], first_notes: tuple[str, ...] = ()) -> dict[str, Any]:
        rest = documents[len(kept) :]
        omitted = [{"path": d["path"], "reason": "budget"} for d in rest]
        extra = [note("code", len(kept), len(documents), "files", budget, FILES_HINT)] if rest else []
        return envelope(kept, omitted, [*notes, *first_notes, *extra], raw_tok)

    count = largest_prefix(len(documents), lambda k: cost(build(documents[:k])) <= limit)
    if count > 0:
        return build(documents[:count])
    first, first_notes = shorten(documents[0], lambda d: cost(build([d])) <= limit, budget)
    return build([first], tuple(first_notes))


def shorten(document: dict[str, Any], fits: Fits, budget: int) -> tuple[dict[str, Any], list[str]]:
    """The first document made to fit: a summary goes brief, then loses rows from the end of its
    largest tables; raw content is cut at a line boundary."""
    path = document["path"]
    if document.get("mode") == "raw":
        return cut_content(document, fits)
    if document.get("mode") != "summary":
        return document, []
    brief = briefed(document)
    notes = [f"{path}: brief form shown to fit the budget ({budget} tok)"]
    if fits(brief):
        return brief, notes
    return cut_rows(brief, fits, notes, budget)


def cut_rows(
    document: dict[str, Any], fits: Fits, notes: list[str], budget: int
) -> tuple[dict[str, Any], list[str]]:
    shortened = dict(document)
    tables = sorted(
        (k for k, v in document.items() if isinstance(v, list) and v and isinstance(v[0], dict)),
        key=lambda k: (-cost(document[k]), k),
    )
    for key in tables:
        rows = shortened[key]
        kept = largest_prefix(len(rows), _rows_fit(shortened, key, fits))
        shortened = {**shortened, key: rows[:kept]}
        notes.append(
            note(
                f"{document['path']} {key}",
                kept,
                len(rows),
                "rows",
                budget,
                "use symbols=[…] or a narrower call",
            )
        )
        if fits(shortened):
            break
    return shortened, notes


def _rows_fit(document: dict[str, Any], key: str, fits: Fits) -> Callable[[int], bool]:
    """Whether `document` fits with only the first `k` rows of table `key`."""
    rows = document[key]
    return lambda k: fits({**document, key: rows[:k]})


def cut_content(document: dict[str, Any], fits: Fits) -> tuple[dict[str, Any], list[str]]:
    content: str = document["content"]
    kept, lines = longest_fitting_lines(content, lambda text: fits({**document, "content": text}))
    total = count_lines(content)
    return {**document, "content": kept}, [
        f"{document['path']}: content cut at line {lines} of {total}; {CONTENT_HINT}"
    ]


def longest_fitting_lines(text: str, fits: Callable[[str], bool]) -> tuple[str, int]:
    """The longest prefix of whole lines of `text` for which `fits` holds, and its line count."""
    ends = [0]
    position = text.find("\n")
    while position >= 0:
        ends.append(position + 1)
        position = text.find("\n", position + 1)
    if ends[-1] < len(text):
        ends.append(len(text))
    count = largest_prefix(len(ends) - 1, lambda k: fits(text[: ends[k]]))
    return text[: ends[count]], count


def fit_slices(result: dict[str, Any], budget: int | None) -> dict[str, Any]:
    """Slices in order; the one crossing the budget is cut at a line boundary, later ones named."""
    if budget is None or cost(result) <= budget:
        return result
    limit = budget - MARGIN
    document = result["files"][0]

    def build(doc: dict[str, Any], extra: list[str]) -> dict[str, Any]:
        return {**result, "files": [doc], "notes": [*result["notes"], *extra]}

    if document["mode"] != "slice":
        doc, extra = cut_content(document, lambda d: cost(build(d, [])) <= limit)
        return build(doc, extra)
    slices = document["slices"]
    count = largest_prefix(
        len(slices), lambda k: cost(build({**document, "slices": slices[:k]}, [])) <= limit
    )
    kept = slices[:count]
    added: list[str] = []
    if count < len(slices):
        crossing = slices[count]

        def with_text(text: str) -> bool:
            piece = {**crossing, "text": text}
            return cost(build({**document, "slices": [*kept, piece]}, [])) <= limit

        text, lines = longest_fitting_lines(crossing["text"], with_text)
        if lines:
            cut = {**crossing, "text": text, "end_line": crossing["line"] + lines - 1}
            kept = [*kept, cut]
            added.append(
                f"{crossing['symbol']}: cut at line {cut['end_line']} of {crossing['line']}-{crossing['end_line']} "
                f"(budget {budget} tok); {CONTENT_HINT}"
            )
        later = [s["symbol"] for s in slices[len(kept) :]]
        if later:
            added.append(
                note(
                    "code",
                    len(kept),
                    len(slices),
                    "slices",
                    budget,
                    f"not shown: {', '.join(later)}; request them separately",
                )
            )
    return build({**document, "slices": kept}, added)
