"""The records both sides are reduced to: definitions, queries and use locations, as plain JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

CLASS_KINDS = frozenset({"class", "interface", "trait", "enum", "type"})
"""Kinds scored in the `class` category (Go struct and interface types count here)."""
CALLABLE_KINDS = frozenset({"function", "method"})
OTHER_KINDS = frozenset({"field", "property", "variable", "constant"})
"""Kinds that are definitions but never chosen: a bare name that is also one of these is left out,
so what a bare name denotes does not depend on whether they count."""


@dataclass(frozen=True, order=True)
class Location:
    """A use: corpus-relative POSIX path, 1-based line, 1-based column in code points of the first
    character of the identifier (the last segment of a qualified name)."""

    file: str
    line: int
    col: int

    def key(self) -> tuple[str, int, int]:
        return (self.file, self.line, self.col)


@dataclass(frozen=True)
class Definition:
    """One definition as the oracle sees it; `container` is the enclosing class or type, if any."""

    name: str
    kind: str
    container: str | None
    file: str
    line: int
    col: int
    oracle_id: str = ""
    """What the oracle needs to find it again (a position in its own convention)."""

    def location(self) -> Location:
        return Location(self.file, self.line, self.col)


@dataclass
class Query:
    """One symbol asked for: its text, category and the definitions it denotes."""

    text: str
    category: str
    definitions: list[Definition]
    uses: list[Location] = field(default_factory=list)


@dataclass
class Truth:
    """The oracle's answer for one language: what was asked and every use it found."""

    lang: str
    oracle: str
    corpus: str
    corpus_packages: list[str]
    files: int
    unresolved_files: list[str]
    """Files the oracle could not fully resolve: a returned use there is not judged."""
    queries: list[Query]
    definition_sites: list[Location]
    """Every definition in the corpus: never a use on either side."""
    seed: int
    min_uses: int
    unresolved_lines: dict[str, list[int]] = field(default_factory=dict)
    """Lines the oracle does not parse (C and C++: inactive preprocessor branches and macro
    bodies): a returned use there is not judged."""

    def dump(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self), indent=1) + "\n")

    @staticmethod
    def load(path: Path) -> Truth:
        raw: dict[str, Any] = json.loads(path.read_text())
        queries = [
            Query(
                text=q["text"],
                category=q["category"],
                definitions=[Definition(**d) for d in q["definitions"]],
                uses=[Location(**u) for u in q["uses"]],
            )
            for q in raw.pop("queries")
        ]
        sites = [Location(**s) for s in raw.pop("definition_sites")]
        return Truth(queries=queries, definition_sites=sites, **raw)
