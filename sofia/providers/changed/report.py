"""Turning git's view of a diff into `changed` rows: category, language, churn, touched symbols,
plus totals, the notes and the budget (docs/changed.md, "Output" and "Output budget").

Rows keep git's top-level-relative paths until the document is built; `PathSpace.show` turns
them into the workspace-relative paths every sofia tool prints."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sofia.errors import param
from sofia.output import budget as budgets
from sofia.output.notes import Place, not_followed
from sofia.output.tables import elide
from sofia.providers.changed import classify, gitdiff, names
from sofia.providers.changed.symbols import PROBLEMS, Found, SymbolFinder, read_worktree
from sofia.providers.contract import Context

ELIDABLE = {"old_path": "", "lang": "", "symbols": ""}
SUBMODULE_MODE = "160000"
SYMLINK_MODE = "120000"
NARROW = f"narrow with {param('paths', [...])}"


@dataclass
class Row:
    """One changed file; paths relative to the repository's top level."""

    status: str
    path: str
    old_path: str = ""
    adds: int = 0
    dels: int = 0
    binary: bool = False
    found: Found = field(default_factory=lambda: Found([]))
    fixed: str = ""
    """A symbols cell that is not a list of names (a submodule's `submodule a..b`)."""

    @property
    def category(self) -> str:
        return "other" if self.fixed else classify.category(self.path)

    @property
    def lang(self) -> str:
        return "" if self.fixed else classify.language(self.path)

    def symbols(self, limit: int) -> str:
        if self.fixed:
            return self.fixed
        return names.cell(self.found.names, self.status, self.found.contexts, limit)


def tracked_rows(
    top: Path,
    sides: gitdiff.Sides,
    entries: list[gitdiff.Entry],
    patch: gitdiff.Patch | None,
    unhashable: dict[str, str],
    ctx: Context,
) -> list[Row]:
    """A row per entry; touched symbols when `patch` (the hunks) is given."""
    finder = SymbolFinder(top, sides, entries, patch, ctx) if patch is not None and entries else None
    rows = []
    for entry in entries:
        if SUBMODULE_MODE in (entry.old_mode, entry.new_mode):
            new_sha = entry.new_sha
            if not new_sha and sides.new is None and not sides.index and entry.status != "D":
                new_sha = gitdiff.submodule_head(top, entry.path, ctx)
            old, new = entry.old_sha[:7] or "0000000", new_sha[:7] or "0000000"
            rows.append(Row("M", entry.path, "", entry.adds, entry.dels, fixed=f"submodule {old}..{new}"))
            continue
        row = Row(entry.status, entry.path, entry.old_path, entry.adds, entry.dels, entry.binary)
        if entry.status == "U":
            row.adds = row.dels = 0
        elif entry.path in unhashable:
            row.found = Found([], "unhashable", unhashable[entry.path])
        elif finder is not None and SYMLINK_MODE not in (entry.old_mode, entry.new_mode):
            if entry.binary:
                row.found = Found([], "binary" if row.lang else "")
            else:
                row.found = finder.for_entry(entry)
        rows.append(row)
        ctx.check_deadline()
    return rows


def untracked_rows(top: Path, found_names: list[str], with_symbols: bool, ctx: Context) -> list[Row]:
    rows = []
    for name in found_names:
        if name.endswith("/"):
            rows.append(Row("?", name))  # an untracked nested repository: one row, as git lists it
            continue
        path = top / name
        if path.is_symlink():
            rows.append(Row("?", name, adds=1))  # a symlink's content is its target: one line
            continue
        read = read_worktree(path)
        row = Row("?", name, adds=read.lines, binary=read.binary)
        if read.problem:
            row.found = Found([], read.problem, read.detail)
        elif with_symbols:
            row.found = SymbolFinder.new_file(name, read)
        rows.append(row)
        ctx.check_deadline()
    return rows


@dataclass(frozen=True)
class Document:
    """Everything the result says besides the rows."""

    spec: str
    notes: list[str]
    show: Callable[[str], str]
    """Top-level-relative path → the path printed."""


def problem_notes(rows: list[Row], show: Callable[[str], str]) -> list[str]:
    """One note per kind of file whose symbols could not be computed, naming each file."""
    places: dict[str, list[Place]] = {}
    for row in rows:
        if row.found.problem:
            places.setdefault(row.found.problem, []).append(Place(show(row.path), 0, row.found.detail))
    return [not_followed("files", places[key], why) for key, why in PROBLEMS.items() if key in places]


def nested_note(rows: list[Row], show: Callable[[str], str]) -> list[str]:
    nested = [show(row.path) for row in rows if row.status == "?" and row.path.endswith("/")]
    if not nested:
        return []
    places = [Place(path) for path in nested]
    return [
        not_followed("untracked nested repositories", places, "listed as one row each; their files are not")
    ]


def document(head: Document, rows: list[Row], budget: int | None) -> dict[str, Any]:
    """The result: rows in path order, exact totals and per-category figures, fitted to `budget`."""
    show = head.show
    totals = {"files": len(rows), "adds": sum(r.adds for r in rows), "dels": sum(r.dels for r in rows)}
    per: dict[str, list[int]] = {}
    for row in rows:
        figures = per.setdefault(row.category, [0, 0, 0])
        figures[0] += 1
        figures[1] += row.adds
        figures[2] += row.dels
    by_category = [
        {"category": name, "files": f[0], "adds": f[1], "dels": f[2]}
        for name, f in sorted(per.items(), key=lambda item: (-item[1][0], item[0]))
    ]
    notes = list(head.notes)
    unmerged = sum(1 for r in rows if r.status == "U")
    if unmerged:
        notes.append(f"{unmerged} unmerged file{'s' if unmerged != 1 else ''}")
    notes += problem_notes(rows, show) + nested_note(rows, show)
    shown_path = {id(row): show(row.path) for row in rows}
    removal = [
        index
        for category in classify.CATEGORY_PRIORITY
        for index in reversed([i for i, r in enumerate(rows) if r.category == category])
    ]
    many_names = [r for r in rows if not r.fixed and len(r.found.names) > names.SHORT_LIMIT]

    def build(k: budgets.Knobs) -> dict[str, Any]:
        dropped = set(removal[: len(rows) - k["files"]])
        kept = [r for i, r in enumerate(rows) if i not in dropped]
        table = [
            {
                "status": r.status,
                "path": shown_path[id(r)],
                "old_path": show(r.old_path) if r.old_path else "",
                "category": r.category,
                "lang": r.lang,
                "adds": r.adds,
                "dels": r.dels,
                "symbols": r.symbols(k["symbols"]),
            }
            for r in kept
        ]
        result: dict[str, Any] = {"spec": head.spec, "files": elide(table, ELIDABLE)}
        binary = [shown_path[id(r)] for r in kept if r.binary]
        if binary:
            result["binary"] = binary
        result.update(
            totals=totals,
            by_category=by_category,
            notes=notes + _cut_notes(rows, dropped, many_names, k, budget),
        )
        return budgets.with_omitted(result, {"files": len(dropped)})

    ladder: list[budgets.Step] = [budgets.Lower({"symbols": names.SHORT_LIMIT}), budgets.Shrink("files")]
    return budgets.fit(build, {"symbols": names.LIMIT, "files": len(rows)}, ladder, budget)


def _cut_notes(
    rows: list[Row], dropped: set[int], many_names: list[Row], k: budgets.Knobs, budget: int | None
) -> list[str]:
    """What the budget cut: symbols cells, then whole rows by category priority."""
    notes = []
    cut_cells = (
        sum(1 for r in many_names if len(r.found.names) > k["symbols"]) if k["symbols"] < names.LIMIT else 0
    )
    if cut_cells:
        change = budgets.texts_cut(cut_cells, k["symbols"], "names", noun="cell")
        notes.append(budgets.shortened_note("symbols", change, budget, NARROW))
    if dropped:
        left_out = Counter(rows[i].category for i in dropped)
        detail = ", ".join(
            f"{name} {left_out[name]}" for name in classify.CATEGORY_PRIORITY if left_out[name]
        )
        hint = f"left out: {detail}; {NARROW}"
        notes.append(budgets.note("files", len(rows) - len(dropped), len(rows), "files", budget, hint))
    return notes


__all__ = ["Document", "Row", "document", "tracked_rows", "untracked_rows"]
