"""The one wording of "what I could not follow", so an agent can always tell "none" from "could not tell".

A provider that meets input it cannot interpret (a spread of a table built at run time, a file
whose symbols could not be computed, a manifest that does not parse) names each place in a note
with its file and line, and counts them; no provider drops such input silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sofia.errors import quote

SHOWN_PLACES = 10
"""Places named in one note; the rest are counted."""
EXCERPT_LIMIT = 60
"""Characters of source text quoted per place."""


@dataclass(frozen=True)
class Place:
    """Where something was not followed: a workspace-relative path, a 1-based line (0: the whole
    file) and, optionally, the text found there."""

    path: str
    line: int = 0
    text: str = ""

    def render(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        if not self.text:
            return where
        excerpt = " ".join(self.text.split())
        return f"{where} {quote(excerpt, EXCERPT_LIMIT)}"


def not_followed(what: str, places: Sequence[Place], why: str = "", total: int | None = None) -> str:
    """`3 <what> not followed (<why>): a.ts:12 ...routes; b.ts:40 router.addRoute(…) (+1 more)`.

    `what` is a plural noun ("spreads", "files"); `why` says what kind of input it was. `total` is
    the count when only the first places are known (a provider keeping bounded memory); it defaults
    to the number of places.
    """
    count = max(len(places), total or 0)
    shown = "; ".join(place.render() for place in places[:SHOWN_PLACES])
    named = min(len(places), SHOWN_PLACES)
    more = f" (+{count - named} more)" if count > named else ""
    reason = f" ({why})" if why else ""
    return f"{count} {plural(what, count)} not followed{reason}: {shown}{more}"


def plural(noun: str, count: int) -> str:
    """`noun` (a plural: "files", "entries", "route tables") as `count` of them reads: "1 file"."""
    if count != 1:
        return noun
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if noun.endswith(("sses", "ches", "shes", "xes", "uses")):
        return noun[:-2]
    return noun[:-1] if noun.endswith("s") else noun
