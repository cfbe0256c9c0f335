"""Which symbols are asked, reproducibly: the corpus's definitions, grouped into four pools, each
shuffled with a fixed seed, then taken in order while the oracle finds enough uses.

* `class`: a class, interface, trait, enum or type name defined once, asked bare (`Text`).
* `function`: a top-level function defined once, asked bare.
* `method`: a method asked qualified (`Console.print`, `Application::find`); it denotes every
  method of that name in every class or type of that name.
* `ambiguous`: a bare name defined two to six times as classes, functions or methods; it denotes
  every one of those definitions (the union of their uses).

Never chosen: names shorter than three characters, dunder and magic names, constructors, Go's
`main`/`init`/tests, names that are also a field, property, variable or constant somewhere in the
corpus (so the union never depends on whether such definitions count), names with fewer than
MIN_USES uses by the oracle, and names whose word occurs more than MAX_TEXT times in the corpus
(to bound the oracle's time)."""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable

from .locations import Corpus
from .model import CALLABLE_KINDS, CLASS_KINDS, OTHER_KINDS, Definition, Location, Query
from .oracles import Found, Oracle

SEED = 20_261_201
MIN_USES = 2
MAX_TEXT = 1500
MAX_DEFINITIONS = 6
QUOTA = {"class": 10, "function": 10, "method": 12, "ambiguous": 8}
SEPARATOR = {"python": ".", "ts": ".", "go": ".", "php": "::", "java": ".", "c": "::", "cpp": "::"}
SKIP = re.compile(r"^(__.*|constructor|main|init|(Test|Benchmark|Example|Fuzz)[A-Z_].*|Test|Example)$")


def word_counts(corpus: Corpus, files: list[str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    word = re.compile(r"\w+")
    for file in files:
        for line in corpus.lines(file):
            counts.update(word.findall(line))
    return counts


def pools(definitions: list[Definition], lang: str) -> dict[str, list[tuple[str, list[Definition]]]]:
    by_name: dict[str, list[Definition]] = defaultdict(list)
    for d in definitions:
        by_name[d.name].append(d)
    other = {name for name, defs in by_name.items() if any(d.kind in OTHER_KINDS for d in defs)}
    usable = {n for n in by_name if len(n) >= 3 and not SKIP.match(n)}
    out: dict[str, list[tuple[str, list[Definition]]]] = {k: [] for k in QUOTA}
    for name in sorted(usable - other):
        defs = by_name[name]
        if len(defs) == 1 and defs[0].kind in CLASS_KINDS:
            out["class"].append((name, defs))
        elif len(defs) == 1 and defs[0].kind == "function" and defs[0].container is None:
            out["function"].append((name, defs))
        elif 2 <= len(defs) <= MAX_DEFINITIONS and all(d.kind in CLASS_KINDS | CALLABLE_KINDS for d in defs):
            out["ambiguous"].append((name, defs))
    methods: dict[tuple[str, str], list[Definition]] = defaultdict(list)
    for d in definitions:
        if d.kind == "method" and d.container and d.name in usable:
            methods[(d.container, d.name)].append(d)
    for (container, name), defs in sorted(methods.items()):
        out["method"].append((f"{container}{SEPARATOR[lang]}{name}", defs))
    for category, pool in out.items():
        random.Random(f"{SEED}:{category}").shuffle(pool)
    return out


def choose(
    oracle: Oracle,
    corpus: Corpus,
    definitions: list[Definition],
    files: list[str],
    progress: Callable[[str], None],
) -> tuple[list[Query], set[Location]]:
    """The queries with their uses by the oracle, and every definition site (never a use): the
    corpus's definitions and the declarations the oracle returned with references (a member of an
    interface a method implements, an object literal's property)."""
    sites = {d.location() for d in definitions}
    counts = word_counts(corpus, files)
    queries: list[Query] = []
    extra: set[Location] = set()
    for category, pool in pools(definitions, corpus.lang).items():
        wanted = QUOTA[category]
        candidates = [
            (text, defs) for text, defs in pool if len(defs) + MIN_USES <= counts[defs[0].name] <= MAX_TEXT
        ]
        taken = 0
        while candidates and taken < wanted:
            batch, candidates = candidates[: 2 * (wanted - taken)], candidates[2 * (wanted - taken) :]
            flat = [d for _, defs in batch for d in defs]
            found = dict(zip(flat, oracle.references(flat), strict=True))
            for text, defs in batch:
                uses = uses_of([found[d] for d in defs], sites)
                extra.update(loc for d in defs for loc in found[d].declarations)
                if len(uses) >= MIN_USES and taken < wanted:
                    queries.append(Query(text, category, defs, sorted(uses)))
                    taken += 1
            progress(f"{corpus.lang}: {category} {taken}/{wanted}")
    return queries, sites | extra


def uses_of(found: list[Found], sites: set[Location]) -> set[Location]:
    """The union of the definitions' uses, less anything that is itself a definition."""
    declarations = {loc for f in found for loc in f.declarations}
    return {loc for f in found for loc in f.uses} - sites - declarations
