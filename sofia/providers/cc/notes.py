"""The notes and result parts the cc tools share: paths as shown, what could not be read, cuts
by a limit or the budget, and the redaction count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sofia.output import budget as budgets
from sofia.output.notes import Place, not_followed
from sofia.providers.cc.digest import Digest

SHOWN_PATHS = 5
"""Paths named in a note about unreadable or orphaned files."""


def label(path: str, root: Path | None) -> str:
    """How notes name a transcript: relative to the projects root when inside it, else as found."""
    if root is not None:
        prefix = str(root).rstrip("/") + "/"
        if path.startswith(prefix):
            return path[len(prefix) :]
    return path


def reading_notes(sources: Sequence[tuple[str, Digest]]) -> list[str]:
    """What the reader could not follow in these transcripts, each named by file and line: lines
    that are not JSON objects, records of a type it does not know, and user messages in markup it
    does not know. Empty when it followed everything."""
    notes = []
    malformed = sum(digest.malformed_lines for _, digest in sources)
    if malformed:
        places = [Place(name, line) for name, digest in sources for line in digest.malformed_at]
        notes.append(not_followed("transcript lines", places, "not a JSON object", malformed))
    for what, why, attribute in (
        ("records", "a record type sofia does not know", "unknown_types"),
        ("user messages", "markup sofia does not know; not counted as prompts", "unknown_markup"),
    ):
        found = [
            (name, kind, count, line)
            for name, digest in sources
            for kind, (count, line) in getattr(digest, attribute).items()
        ]
        if found:
            found.sort(key=lambda item: (item[0], item[3]))
            places = [Place(name, line, kind) for name, kind, _, line in found]
            notes.append(not_followed(what, places, why, sum(item[2] for item in found)))
    return notes


def named_paths(what: str, paths: Sequence[str]) -> str:
    """`<what>: a, b, c and 4 more`."""
    shown = ", ".join(paths[:SHOWN_PATHS])
    more = f" and {len(paths) - SHOWN_PATHS} more" if len(paths) > SHOWN_PATHS else ""
    return f"{what}: {shown}{more}"


def kept_prompts_note(digest: Digest) -> list[str]:
    """A note when the session has more human turns than are kept."""
    extra = digest.prompts_total - len(digest.prompts)
    if extra <= 0:
        return []
    return [f"only the first {len(digest.prompts)} prompts are kept; {extra} later prompts are not shown"]


def result_tail(redactions: int, notes: list[str], omitted: dict[str, int]) -> dict[str, Any]:
    """The keys every cc result ends with; `omitted` only when something was left out."""
    return budgets.with_omitted({"redactions": redactions, "notes": notes}, omitted)


BIGGER = "a larger budget shows more"
"""The hint of a cut the call itself cannot avoid: the budget alone decides."""


@dataclass(frozen=True)
class Cut:
    """How the list `key` was cut: `total` rows, `capped` allowed by a limit, `kept` after the budget."""

    key: str
    unit: str
    total: int
    capped: int
    kept: int
    limit: str = ""
    """What cut the list besides the budget (`param("limit", 30)`); empty when nothing did."""
    limit_hint: str = ""
    """How to get past `limit`; empty for a fixed cap, which then goes without a note."""


def cut_note(cut: Cut, budget: int | None, budget_hint: str) -> list[str]:
    """The note on a shortened list: when the budget cut it, or a limit the caller can lift did;
    a list cut only by a fixed cap is counted in `omitted` and documented, not noted."""
    if cut.kept >= cut.total:
        return []
    limit = cut.limit if cut.capped < cut.total else ""
    if cut.kept < cut.capped:
        return [budgets.note(cut.key, cut.kept, cut.total, cut.unit, budget, budget_hint, limit=limit)]
    if limit and cut.limit_hint:
        return [budgets.note(cut.key, cut.kept, cut.total, cut.unit, None, cut.limit_hint, limit=limit)]
    return []


def texts_note(
    what: str, texts: Sequence[str], limit: int, default: int, budget: int | None, hint: str
) -> list[str]:
    """The note on texts the budget cut below their usual `default` length to `limit` characters."""
    if limit >= default:
        return []
    count = sum(1 for text in texts if len(text) > limit)
    if not count:
        return []
    return [budgets.shortened_note(what, budgets.texts_cut(count, limit), budget, hint)]
