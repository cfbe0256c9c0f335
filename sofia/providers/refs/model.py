"""The types every stage of `refs` hands to the next (collect → match → shape): a classified file
(`Parsed`), what the search learnt (`Found`), and one name's definitions and uses (`Matched`).
They live apart from the stages so that each stage imports them and none imports another."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sofia.providers.grep import Request
    from sofia.providers.refs.fields import Fields
    from sofia.runtime.unparsed import Unparsed
    from sofia.syntax.lookup import Query
    from sofia.syntax.tree import Symbol
    from sofia.syntax.uses import FileUses
    from sofia.syntax.uses.model import Path

EXACT = "exact"
NAME = "name"
ELSEWHERE = "elsewhere"
MATCHES = (EXACT, NAME)
"""The kinds of match a use shown can have, in the order they are shown."""
DEADLINE = "deadline"
"""Why a candidate was not classified: the deadline's reserve was reached first."""

Stamp = tuple[int, int, int, int, int]
"""What tells a file changed: device, inode, size, modification and change times (ns)."""


@dataclass(frozen=True)
class Holder:
    """The innermost symbol holding a line: its qualified and bare name and line range."""

    qname: str
    name: str
    line: int
    end_line: int


@dataclass
class Parsed:
    """One classified candidate file, kept without its trees (a large search holds thousands)."""

    rel: str
    lang: str
    uses: FileUses
    lines: int
    texts: dict[int, str]
    """Line -> its text, for every line with an occurrence."""
    source: bytes = field(repr=False)
    """The bytes classified, for the symbol tree a shown use or a definition asks for."""
    stamp: Stamp = (0, 0, 0, 0, 0)
    """The file's identity and times when it was read (`memo.stamp_of`)."""
    _holders: dict[int, Holder | None] | None = field(default=None, init=False, repr=False, compare=False)
    _definers: dict[int, Holder | None] = field(default_factory=dict, init=False, repr=False, compare=False)

    def holder(self, line: int) -> Holder | None:
        """The innermost symbol holding `line` (the same one `grep` names). The symbol tree is
        built on the first question only: classifying needs the syntax tree alone, and most
        candidate files of a common name have no use shown and no definition."""
        if self._holders is None:
            self._holders, self._definers = _holders(self)
        return self._holders.get(line)

    def definer(self, start: int, line: int) -> Holder | None:
        """The innermost symbol holding the definition whose name starts at byte `start`: by
        bytes, so that of two members on one line (`{ void ReSize(int n); void reset(); }`) each
        is its own; the line's holder where the tree does not say."""
        if self._holders is None:
            self._holders, self._definers = _holders(self)
        return self._definers.get(start, self._holders.get(line))


def _holders(parsed: Parsed) -> tuple[dict[int, Holder | None], dict[int, Holder | None]]:
    """Line -> holding symbol, for every line with an occurrence in a parsed file; and byte ->
    the innermost symbol holding it, for every definition's name."""
    from sofia.syntax import ParseUnavailable, parse
    from sofia.syntax.uses.model import DEFINITION

    try:
        tree = parse(parsed.source, parsed.lang, parsed.rel)
    except ParseUnavailable:
        return {}, {}
    holders: dict[int, Holder | None] = {}
    definers: dict[int, Holder | None] = {}
    for found in parsed.uses.occurrences.values():
        for occurrence in found:
            line = occurrence.line
            if line not in holders:
                holders[line] = _holder(tree.enclosing(line))
            if occurrence.role == DEFINITION and occurrence.start not in definers:
                definers[occurrence.start] = _holder(_innermost(tree.symbols, occurrence.start))
    return holders, definers


def _holder(symbol: Symbol | None) -> Holder | None:
    return Holder(symbol.qname, symbol.name, symbol.line, symbol.end_line) if symbol else None


def _innermost(symbols: Sequence[Symbol], start: int) -> Symbol | None:
    """The innermost symbol whose declaration holds byte `start`: of siblings that overlap (C's
    `typedef struct cell_s {...} Cell;` is a struct inside its typedef's bytes, both file-level)
    the narrowest, so the struct is `cell_s`, not `Cell.cell_s`."""
    found: Symbol | None = None
    level = symbols
    while True:
        holding = [s for s in level if s.start_byte <= start < s.end_byte]
        if not holding:
            return found
        found = min(holding, key=lambda s: s.end_byte - s.start_byte)
        level = found.children


Outcome = Parsed | str
"""A candidate classified, or why it could not be (binary, too large, vanished, deadline)."""


@dataclass
class Found:
    """Everything the search learnt, for the matcher and the shaper."""

    request: Request
    queries: list[Query]
    counts: dict[str, dict[bytes, int]]
    """Spelling searched -> raw path -> rg's count of it."""
    spellings: dict[str, list[str]]
    """Name -> the spellings searched for it (itself, a Vue component's kebab-case form)."""
    components: dict[str, list[str]]
    """Component name -> `.vue` files of that name under the root."""
    parsed: dict[str, Parsed] = field(default_factory=dict)
    unparsed: dict[str, str] = field(default_factory=dict)
    """Display path -> why it was not classified (binary, too large, vanished, deadline)."""
    deadline_cut: int = 0
    """Candidate files left unclassified because the deadline came near."""
    candidates: int = 0
    outside: dict[str, Unparsed] = field(default_factory=dict)
    """Name -> its occurrences in files of types no language record parses (no `exts` given)."""
    notes: list[str] = field(default_factory=list)
    """What the walk skipped by default and, for a name in very many files, the sample
    classified (`bound`): shown as they are."""
    fields: Fields | None = None
    """The types of fields declared in other files, read once for all the names (`fields`)."""


@dataclass
class Definition:
    file: str
    line: int
    col: int
    end_line: int
    kind: str
    qname: str
    sig: str
    container: Path | None
    uses: int = 0
    through: Path | None = None
    """The type the container is reached through (a Kotlin companion's class): a name of it too."""


@dataclass
class Use:
    file: str
    line: int
    col: int
    kind: str
    match: str
    definition: int = -1
    """Index of the definition an exact use resolves to."""
    parsed: Parsed | None = field(default=None, repr=False, compare=False)
    """The file it is in, which names the enclosing symbol when (and only if) it is asked."""

    @property
    def enclosing(self) -> str:
        """The qualified name of the innermost symbol holding the use (`grep`'s chain), "" at
        top level: computed for the uses shown, not for every use counted."""
        holder = self.parsed.holder(self.line) if self.parsed is not None else None
        return holder.qname if holder is not None else ""


@dataclass
class Matched:
    query: Query
    definitions: list[Definition]
    uses: list[Use]
    totals: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    text: int = 0
    unclassified: int = 0
    raw_lines: dict[tuple[str, int], str] = field(default_factory=dict)
    outside: Unparsed | None = None
    """With no definition: the name's occurrences in files of types sofia does not parse."""
    narrowing: list[tuple[str, list[int]]] = field(default_factory=list)
    """A bare name defined in several places: per place, the qualified spelling that asks for
    it alone (or its qname when none does) and the indexes of its definitions."""
