"""Turning git's view of a diff into `changed` rows: category, language, churn, touched symbols,
plus totals and the budget (spec tools-code §3.4–3.7)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

from sofia.output import budget as budgets
from sofia.output.tables import elide
from sofia.providers.contract import Context

from . import classify, gitdiff
from .symbols import MAX_SIDE_BYTES, SymbolFinder

ELIDABLE = {"old_path": "", "lang": "", "binary": False, "symbols": ""}
SUBMODULE_MODE = "160000"
SYMLINK_MODE = "120000"


def _row(
    status: str, path: str, old_path: str, adds: int, dels: int, binary: bool, symbols: str
) -> dict[str, Any]:
    return {
        "status": status,
        "path": path,
        "old_path": old_path,
        "category": classify.category(path),
        "lang": classify.language(path),
        "adds": adds,
        "dels": dels,
        "binary": binary,
        "symbols": symbols,
    }


def tracked_rows(
    top: Path,
    sides: gitdiff.Sides,
    entries: list[gitdiff.Entry],
    pathspecs: list[str],
    with_symbols: bool,
    ctx: Context,
) -> list[dict[str, Any]]:
    finder: SymbolFinder | None = None
    if with_symbols and entries:
        by_new, by_old = gitdiff.hunks(top, sides, pathspecs, ctx)
        finder = SymbolFinder(top, sides, entries, by_new, by_old, ctx)
    rows = []
    for entry in entries:
        if SUBMODULE_MODE in (entry.old_mode, entry.new_mode):
            new_sha = entry.new_sha
            if not new_sha and sides.new is None and not sides.index and entry.status != "D":
                new_sha = gitdiff.submodule_head(top, entry.path, ctx)
            old, new = entry.old_sha[:7] or "0000000", new_sha[:7] or "0000000"
            row = _row("M", entry.path, "", entry.adds, entry.dels, False, f"submodule {old}..{new}")
            row["category"], row["lang"] = "other", ""
            rows.append(row)
            continue
        symbols = ""
        plain = (
            entry.status != "U" and not entry.binary and SYMLINK_MODE not in (entry.old_mode, entry.new_mode)
        )
        if finder is not None and plain:
            symbols = _join(finder.for_entry(entry))
        adds, dels = (0, 0) if entry.status == "U" else (entry.adds, entry.dels)
        rows.append(_row(entry.status, entry.path, entry.old_path, adds, dels, entry.binary, symbols))
    return rows


def untracked_rows(top: Path, names: list[str], with_symbols: bool, ctx: Context) -> list[dict[str, Any]]:
    rows = []
    for name in names:
        path = top / name
        try:
            if path.is_symlink():
                data = os.fsencode(os.readlink(path))
            else:
                data = path.read_bytes()
        except OSError:
            data = b""
        binary = b"\0" in data[:8000]
        lines = 0 if binary else data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
        symbols = ""
        if with_symbols and not binary and not path.is_symlink() and len(data) <= MAX_SIDE_BYTES and lines:
            symbols = _join(SymbolFinder.new_file(name, data))
        rows.append(_row("?", name, "", lines, 0, binary, symbols))
        ctx.check_deadline()
    return rows


def _join(names: list[str], limit: int = 8) -> str:
    if len(names) <= limit:
        return "; ".join(names)
    return "; ".join(names[:limit]) + f" (+{len(names) - limit} more)"


def _shorten_symbols(symbols: str, limit: int = 3) -> str:
    names = [n for n in symbols.split("; ") if n]
    if not names:
        return symbols
    more = 0
    if names[-1].startswith("(+") and " more)" in names[-1]:
        last_name, _, tail = names[-1].partition(" (+")
        names[-1] = last_name
        more = int(tail.split(" ")[0])
    if len(names) <= limit:
        return symbols
    return "; ".join(names[:limit]) + f" (+{len(names) - limit + more} more)"


def document(spec: str, rows: list[dict[str, Any]], budget: int | None) -> dict[str, Any]:
    """The result: rows in path order, exact totals and per-category figures, fitted to `budget`."""
    totals = {"files": len(rows), "adds": sum(r["adds"] for r in rows), "dels": sum(r["dels"] for r in rows)}
    per: dict[str, list[int]] = {}
    for row in rows:
        figures = per.setdefault(row["category"], [0, 0, 0])
        figures[0] += 1
        figures[1] += row["adds"]
        figures[2] += row["dels"]
    by_category = [
        {"category": name, "files": f[0], "adds": f[1], "dels": f[2]}
        for name, f in sorted(per.items(), key=lambda item: (-item[1][0], item[0]))
    ]
    notes = []
    unmerged = sum(1 for r in rows if r["status"] == "U")
    if unmerged:
        notes.append(f"{unmerged} unmerged file{'s' if unmerged != 1 else ''}")

    def build(kept: list[dict[str, Any]], extra: list[str]) -> dict[str, Any]:
        return {
            "spec": spec,
            "files": elide(kept, ELIDABLE),
            "totals": totals,
            "by_category": by_category,
            "notes": notes + extra,
        }

    result = build(rows, [])
    if budgets.fits(result, budget):
        return result
    rows = [{**r, "symbols": _shorten_symbols(r["symbols"])} for r in rows]
    result = build(rows, ["changed: symbols cut to 3 names per file to fit the budget"])
    if budgets.fits(result, budget):
        return result
    removal = [
        index
        for category in classify.CATEGORY_PRIORITY
        for index in reversed([i for i, r in enumerate(rows) if r["category"] == category])
    ]

    def attempt(kept_count: int) -> dict[str, Any]:
        dropped = set(removal[: len(removal) - kept_count])
        kept = [r for i, r in enumerate(rows) if i not in dropped]
        left_out = Counter(rows[i]["category"] for i in dropped)
        detail = ", ".join(
            f"{name} {left_out[name]}" for name in classify.CATEGORY_PRIORITY if left_out[name]
        )
        note = (
            f"changed: showing {len(kept)} of {len(rows)} files (budget {budget} tok); "
            f"left out: {detail}; narrow with paths=[…]"
        )
        return build(kept, ["changed: symbols cut to 3 names per file to fit the budget", note])

    keep = budgets.largest_prefix(len(rows), lambda k: budgets.fits(attempt(k), budget))
    return attempt(keep)


__all__ = ["document", "tracked_rows", "untracked_rows"]
