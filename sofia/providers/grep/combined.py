"""Several patterns from one walk, with each pattern's totals exactly what its own rg run counts.

One `rg --json -e P1 … -e Pn` walk yields every line that any pattern matches (a line a pattern
matches on its own also matches the alternation, whatever the options). Each pattern is then
counted on those lines alone, as rg would count it in the whole tree:

* a case-sensitive literal without `word` is counted here: rg counts a literal's non-overlapping
  occurrences from the left, which is what successive `bytes.find`s give; the lines are searched
  as one buffer joined by newlines, which no such literal can hold, so no match spans two lines;
* any other pattern (regex, case-insensitive, whole word) is handed back to rg: the candidate
  lines go to one `rg --json -e P -` on standard input per pattern, whose submatches are that
  pattern's own matches line by line (rg never matches across a line end).

So a line matching several patterns counts for each, overlapping patterns each keep their own
matches, and nothing of rg's case folding or word rules is re-implemented.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from sofia.providers.grep.matches import Hit, data_bytes

if TYPE_CHECKING:
    from sofia.providers.grep.request import Request


@dataclass
class Walked:
    """The combined walk: every matching line in (path, line) order, and what it skipped."""

    paths: list[bytes] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    contents: list[bytes] = field(default_factory=list)
    """Each line as rg printed it, with its terminator when it had one (hits keep it whole)."""
    problems: dict[str, str] = field(default_factory=dict)
    binary: set[bytes] = field(default_factory=set)
    """Files rg stopped reading at a NUL byte; they are skipped as binary, as the detail phase does."""

    @cached_property
    def joined(self) -> tuple[bytes, list[int]]:
        """Every line without its terminator, joined by newlines, and where each line starts."""
        bodies = [content[:-1] if content.endswith(b"\n") else content for content in self.contents]
        starts = list(accumulate(map(len, bodies), lambda at, size: at + size + 1, initial=0))
        starts.pop()
        return b"\n".join(bodies), starts

    @cached_property
    def segments(self) -> tuple[list[int], list[int], list[bytes]]:
        """Per file, in order: where its lines start in `joined`'s buffer, where they end, its path."""
        buffer, starts = self.joined
        begins: list[int] = []
        paths: list[bytes] = []
        for index, path in enumerate(self.paths):
            if not paths or paths[-1] != path:
                begins.append(starts[index])
                paths.append(path)
        ends = [*begins[1:], len(buffer)]
        return begins, ends, paths

    def keep(self, unwanted: set[bytes]) -> None:
        """Drop the lines of `unwanted` files (skipped as binary or unreadable); before `joined`."""
        kept = [i for i, path in enumerate(self.paths) if path not in unwanted]
        self.paths = [self.paths[i] for i in kept]
        self.numbers = [self.numbers[i] for i in kept]
        self.contents = [self.contents[i] for i in kept]


@dataclass
class Attributed:
    """One pattern's share of the walk: exact per-file counts, and where its matches are."""

    counts: dict[bytes, int] = field(default_factory=dict)
    positions: list[tuple[int, int]] = field(default_factory=list)
    """(line index in the walk, 1-based byte column), in path/line/column order; for a literal
    counted here, filled on demand by `hits`."""
    needle: bytes = b""

    def add(self, walked: Walked, index: int, col: int) -> None:
        self.positions.append((index, col))
        path = walked.paths[index]
        self.counts[path] = self.counts.get(path, 0) + 1

    def hits(self, walked: Walked, count: int) -> list[Hit]:
        """The first `count` matches as hits."""
        if self.needle:
            self.positions = _literal_positions(self.needle, walked, count)
        return [
            Hit(walked.paths[i], walked.numbers[i], col, walked.contents[i])
            for i, col in self.positions[:count]
        ]


def counted_here(request: Request) -> bool:
    """Whether this request's patterns are counted in Python (plain case-sensitive literals)."""
    return request.fixed and request.case and not request.word


def parse(stdout: bytes, into: Walked) -> None:
    """A whole `rg --json` output into `into` (see `Reader`)."""
    reader = Reader()
    reader.feed(stdout)
    reader.finish(into)


class Reader:
    """`rg --json` messages read as they arrive: `match` lines become lines of the walk, `end`
    with a binary offset marks a binary file.

    rg prints each file's messages together (`begin`, its matches in line order, `end`), so a
    match's path is read once from its `begin`, and only the files are sorted, not the lines.
    A match repeats its `begin`'s path field byte for byte, which one `startswith` checks; a
    match that does not is decoded whole."""

    def __init__(self) -> None:
        self._files: list[tuple[bytes, list[int], list[bytes]]] = []
        self._numbers: list[int] = []
        self._contents: list[bytes] = []
        self._prefix = _NOTHING
        self._binary: set[bytes] = set()

    def feed(self, complete_lines: bytes) -> None:
        """Messages that end at a line end (a chunk never splits one)."""
        import orjson

        loads = orjson.loads
        prefix, skip = self._prefix, len(self._prefix)
        numbers, contents = self._numbers, self._contents
        for raw in complete_lines.splitlines():
            cut = raw.find(_OFFSET, skip) if raw.startswith(prefix) else -1
            if cut > 0:
                data = loads(b"{" + raw[skip:cut] + b"}")
                numbers.append(data["line_number"])
                contents.append(data_bytes(data["lines"]))
            elif raw.startswith(_BEGIN):
                path = data_bytes(loads(raw)["data"]["path"])
                prefix = _MATCH + raw[len(_BEGIN) : -2] + b"," if raw.endswith(b"}}") else _NOTHING
                skip = len(prefix)
                numbers, contents = [], []
                self._files.append((path, numbers, contents))
            elif raw.startswith(_MATCH):
                data = _match_data(raw)
                self._files.append(
                    (data_bytes(data["path"]), [data["line_number"]], [data_bytes(data["lines"])])
                )
            elif raw.startswith(_END) and b'"binary_offset":null' not in raw:
                data = loads(raw)["data"]
                if data.get("binary_offset") is not None:
                    self._binary.add(data_bytes(data["path"]))
        self._prefix, self._numbers, self._contents = prefix, numbers, contents

    def finish(self, into: Walked) -> None:
        """Every line read, in (path, line) order, into `into`."""
        self._files.sort(key=lambda file: file[0])
        for path, numbers, contents in self._files:
            into.paths.extend([path] * len(numbers))
            into.numbers.extend(numbers)
            into.contents.extend(contents)
        into.binary.update(self._binary)


_BEGIN = b'{"type":"begin","data":'
_MATCH = b'{"type":"match","data":'
_END = b'{"type":"end","data":'
_OFFSET = b',"absolute_offset":'
_NOTHING = b"\x00"
"""A prefix no JSON line starts with: before a file's `begin`, every match is decoded whole."""


def _match_data(raw: bytes) -> dict[str, Any]:
    """`path`, `lines` and `line_number` of a match message, without decoding its submatches
    (most of the message, and of the time). The cut is safe: inside a JSON string every `"` is
    escaped, so `,"absolute_offset":` can only be the key itself."""
    import orjson

    cut = raw.find(_OFFSET)
    if cut > 0:
        data: dict[str, Any] = orjson.loads(raw[len(_MATCH) : cut] + b"}")
        return data
    whole: dict[str, Any] = orjson.loads(raw)["data"]
    return whole


def literal(pattern: str, walked: Walked) -> Attributed:
    """A case-sensitive literal's own counts: non-overlapping occurrences, left to right, counted
    file by file in the joined buffer (the work grows with the files holding it, not its matches)."""
    needle = pattern.encode()
    buffer, _ = walked.joined
    begins, ends, paths = walked.segments
    found = Attributed(needle=needle)
    at, index = buffer.find(needle), 0
    while at >= 0:
        index = bisect_right(begins, at, index) - 1
        found.counts[paths[index]] = buffer.count(needle, at, ends[index])
        at = buffer.find(needle, ends[index])
    return found


def _literal_positions(needle: bytes, walked: Walked, count: int) -> list[tuple[int, int]]:
    """The first `count` occurrences of `needle` as (line index, 1-based column)."""
    buffer, starts = walked.joined
    positions: list[tuple[int, int]] = []
    at, index = buffer.find(needle), 0
    while at >= 0 and len(positions) < count:
        index = bisect_right(starts, at, index) - 1
        positions.append((index, at - starts[index] + 1))
        at = buffer.find(needle, at + len(needle))
    return positions


def stream(walked: Walked) -> bytes:
    """The candidate lines as rg's standard input: an empty first line (so no stray BOM or first
    line is ever special), then each line with a terminator; stdin line k+2 is line k."""
    return b"\n" + walked.joined[0] + b"\n" if walked.contents else b"\n"


def from_json(stdout: bytes, walked: Walked) -> Attributed:
    """A pattern's matches from `rg --json … -` over `stream(walked)`, mapped back to the files."""
    import orjson

    found = Attributed()
    for raw in stdout.splitlines():
        if not raw.startswith(b'{"type":"match"'):
            continue
        data = orjson.loads(raw)["data"]
        index = int(data["line_number"]) - 2
        if 0 <= index < len(walked.paths):
            for sub in data["submatches"]:
                found.add(walked, index, int(sub["start"]) + 1)
    return found
