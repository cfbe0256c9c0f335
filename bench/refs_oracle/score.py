"""Scoring one language: the oracle's uses against what `sf refs` returned, per query and pooled
per category. A returned use in a file the oracle could not fully resolve is not judged; a
definition site is never a use on either side."""

from __future__ import annotations

from dataclasses import dataclass, field

from .locations import Corpus
from .model import Location, Query, Truth
from .refs_client import RefsAnswer, Use


@dataclass
class Tally:
    symbols: int = 0
    oracle: int = 0
    found: int = 0
    returned: int = 0
    correct: int = 0
    exact: int = 0
    exact_ok: int = 0
    name: int = 0
    name_ok: int = 0
    unjudged: int = 0
    failed: int = 0

    def add(self, other: Tally) -> None:
        for key, value in vars(other).items():
            setattr(self, key, getattr(self, key) + value)


@dataclass
class Scored:
    query: Query
    tally: Tally
    missed: list[Location] = field(default_factory=list)
    false: list[Use] = field(default_factory=list)
    answer: RefsAnswer | None = None


def score(query: Query, answer: RefsAnswer, truth: Truth, sites: set[Location]) -> Scored:
    tally = Tally(symbols=1, oracle=len(query.uses))
    if answer.error:
        tally.failed = 1
        return Scored(query, tally, missed=list(query.uses), answer=answer)
    never = sites | set(answer.definitions)
    unresolved = set(truth.unresolved_files)
    returned: dict[Location, Use] = {}
    for use in answer.uses:
        if use.location in never:
            continue
        if use.location not in returned or use.match == "exact":
            returned[use.location] = use
    oracle = set(query.uses)
    tally.found = len(oracle & returned.keys())
    lines = {file: set(numbers) for file, numbers in truth.unresolved_lines.items()}
    judged = {
        loc: use
        for loc, use in returned.items()
        if loc.file not in unresolved and loc.line not in lines.get(loc.file, ())
    }
    tally.unjudged = len(returned) - len(judged)
    tally.returned = len(judged)
    tally.correct = sum(loc in oracle for loc in judged)
    for loc, use in judged.items():
        if use.match == "exact":
            tally.exact += 1
            tally.exact_ok += loc in oracle
        else:
            tally.name += 1
            tally.name_ok += loc in oracle
    missed = sorted(oracle - returned.keys())
    false = sorted((u for loc, u in judged.items() if loc not in oracle), key=lambda u: u.location)
    return Scored(query, tally, missed, false, answer)


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "–"


CATEGORIES = ("class", "function", "method", "ambiguous")


def pooled(scored: list[Scored], category: str) -> Tally:
    tally = Tally()
    for s in scored:
        if category in ("all", s.query.category):
            tally.add(s.tally)
    return tally


def rows(lang: str, scored: list[Scored], baseline: list[Scored]) -> list[list[str]]:
    """Table rows for one language: one per category, then the language overall; the last two
    columns are `rg -w` on the same queries."""
    out = []
    for category in (*CATEGORIES, "all"):
        tally = pooled(scored, category)
        if tally.symbols:
            plain = pooled(baseline, category)
            out.append(
                [
                    *row(lang, category, tally),
                    percent(plain.found, plain.oracle),
                    percent(plain.correct, plain.returned),
                ]
            )
    return out


def row(lang: str, category: str, t: Tally) -> list[str]:
    methodish = category in ("method", "ambiguous", "all")
    return [
        lang,
        category,
        str(t.symbols) + (f" ({t.failed} failed)" if t.failed else ""),
        str(t.oracle),
        str(t.returned) + (f" (+{t.unjudged})" if t.unjudged else ""),
        percent(t.found, t.oracle),
        percent(t.exact_ok, t.exact),
        percent(t.correct, t.returned),
        percent(t.exact_ok, t.correct) if methodish else "",
        percent(t.name_ok, t.name) if methodish else "",
    ]


HEADER = [
    "lang",
    "category",
    "symbols",
    "oracle uses",
    "returned",
    "recall",
    "precision exact",
    "precision all",
    "exact share",
    "precision name",
    "rg -w recall",
    "rg -w precision",
]


def worst(corpus: Corpus, scored: list[Scored], count: int = 6, examples: int = 3) -> list[str]:
    """The queries with the most misses and false uses, a few examples each."""
    ranked = sorted(scored, key=lambda s: -(len(s.missed) + len(s.false)))
    lines = []
    for s in ranked[:count]:
        if not s.missed and not s.false:
            break
        t = s.tally
        lines.append(
            f"* `{s.query.text}` ({s.query.category}): {len(s.missed)} of {t.oracle} missed, "
            f"{len(s.false)} of {t.returned} returned not confirmed"
        )
        if s.answer is not None and s.answer.error:
            lines.append(f"  * refs failed: {s.answer.error[:300]}")
            continue
        for loc in s.missed[:examples]:
            lines.append(f"  * missed `{loc.file}:{loc.line}:{loc.col}`: `{corpus.text(loc)[:140]}`")
        for use in s.false[:examples]:
            loc = use.location
            lines.append(
                f"  * false ({use.match}, {use.kind}) `{loc.file}:{loc.line}:{loc.col}`: `{corpus.text(loc)[:140]}`"
            )
    return lines
