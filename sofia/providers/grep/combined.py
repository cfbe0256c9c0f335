"""Several patterns from one walk, with each pattern's totals exactly what its own rg run counts.

One `rg --json -e P1 … -e Pn` walk yields every line that any pattern matches (a line a pattern
matches on its own also matches the alternation, whatever the options). Each pattern is then
counted on those lines alone, as rg would count it in the whole tree:

* a case-sensitive literal without `word` is counted here: rg counts a literal's non-overlapping
  occurrences from the left, which is what successive `bytes.find`s give; each chunk of the walk's
  output is searched as one buffer of whole lines while rg goes on walking, and no such literal
  holds a newline, so no match spans two lines;
* any other pattern (regex, case-insensitive, whole word) is handed back to rg: the candidate
  lines go to one `rg --json -e P -` on standard input per pattern, whose submatches are that
  pattern's own matches line by line (rg never matches across a line end).

So a line matching several patterns counts for each, overlapping patterns each keep their own
matches, and nothing of rg's case folding or word rules is re-implemented.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from sofia.providers.grep.matches import Hit, data_bytes
from sofia.runtime.skips import Skips

if TYPE_CHECKING:
    from sofia.providers.grep.request import Request


@dataclass
class Walked:
    """The combined walk: every matching line in (path, line) order, and what it skipped."""

    paths: list[bytes] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    contents: list[bytes] = field(default_factory=list)
    """Each line as rg printed it (hits keep it whole): without its terminator from the walk of a
    directory, with it from the JSON walk of a file."""
    spans: dict[bytes, tuple[int, int]] = field(default_factory=dict)
    """Each file's lines: the indexes of its first line and of the one after its last."""
    counted: dict[bytes, dict[bytes, int]] = field(default_factory=dict)
    """Each literal counted while the walk was read (`Reader`): its count in each file."""
    problems: dict[str, str] = field(default_factory=dict)
    binary: set[bytes] = field(default_factory=set)
    """Files rg stopped reading at a NUL byte; they are skipped as binary, as the detail phase does."""
    skips: Skips = field(default_factory=Skips)
    """What the walk skipped by default (directories by name, binary files), for the note."""
    overflow: dict[str, int] | None = None
    """Set when the walk was stopped at its limits (`Ripgrep.walk_all`): each pattern's matches in
    the lines read by then when they are literals counted here, else empty (the engine then
    samples them with rg), so the broad ones can be counted by rg alone."""

    @cached_property
    def joined(self) -> bytes:
        """Every line without its terminator, joined by newlines."""
        return b"\n".join(content[:-1] if content.endswith(b"\n") else content for content in self.contents)

    def keep(self, unwanted: set[bytes]) -> None:
        """Drop the lines and counts of `unwanted` files (skipped as binary or unreadable)."""
        kept = [i for i, path in enumerate(self.paths) if path not in unwanted]
        self.paths = [self.paths[i] for i in kept]
        self.numbers = [self.numbers[i] for i in kept]
        self.contents = [self.contents[i] for i in kept]
        self.spans = {}
        for index, path in enumerate(self.paths):
            start, _ = self.spans.get(path, (index, index))
            self.spans[path] = (start, index + 1)
        for counts in self.counted.values():
            for path in unwanted & counts.keys():
                del counts[path]


@dataclass
class Attributed:
    """One pattern's share of the walk: exact per-file counts, and where its matches are."""

    counts: dict[bytes, int] = field(default_factory=dict)
    positions: list[tuple[int, int]] = field(default_factory=list)
    """(line index in the walk, 1-based byte column), in path/line/column order; for a literal
    counted while reading, found on demand by `hits`."""
    needle: bytes = b""

    def add(self, walked: Walked, index: int, col: int) -> None:
        self.positions.append((index, col))
        path = walked.paths[index]
        self.counts[path] = self.counts.get(path, 0) + 1

    def hits(self, walked: Walked, count: int) -> list[Hit]:
        """The first `count` matches as hits."""
        if self.needle:
            self.positions = _literal_positions(self.needle, sorted(self.counts), walked, count)
        return [
            Hit(walked.paths[i], walked.numbers[i], col, walked.contents[i])
            for i, col in self.positions[:count]
        ]


def counted_here(request: Request) -> bool:
    """Whether this request's patterns are counted in Python (plain case-sensitive literals)."""
    return request.fixed and request.case and not request.word


class Reader:
    """The walk's output read as it arrives, in ripgrep's heading format (`HEADING`): each file's
    path once, ended by a NUL byte, then its matching lines as `NUMBER:line`, then a blank line
    before the next file. Each of `needles` (literals counted here, see `counted_here`) is counted
    in the lines of every chunk, so counting too overlaps the walk.

    rg prints each file's lines together and in line order, so only the files are sorted, not the
    lines. A line holds no line end, so a blank line can only end a file; a path may hold one, so
    it is read up to its NUL. A file rg stopped reading at a NUL byte after a match is followed by
    rg's `PATH: WARNING: stopped searching binary file after match` line. Compared with `--json`,
    ripgrep spends about a third of the CPU printing this and Python half of it reading."""

    def __init__(self, needles: Sequence[bytes] = ()) -> None:
        self._files: list[tuple[bytes, list[int], list[bytes]]] = []
        self._binary: set[bytes] = set()
        self._counts: dict[bytes, dict[bytes, int]] = {needle: {} for needle in needles}
        self._touched: list[tuple[tuple[bytes, list[int], list[bytes]], int]] = []
        """The files a chunk added lines to, each with how many lines it had before."""
        self._heading = True
        """Whether a path comes next (at the start, and after a file's blank line)."""
        self._carry = b""
        """The start of a path cut by the end of a chunk (a path may hold a line end)."""
        self.lines = 0
        """Matching lines read so far."""
        self.read = 0
        """Bytes of rg's output read so far."""

    def feed(self, complete_lines: bytes) -> None:
        """Output that ends at a line end."""
        data = self._carry + complete_lines if self._carry else complete_lines
        self._carry = b""
        files = self._files
        self._touched = [(files[-1], len(files[-1][2]))] if files and not self._heading else []
        at, end = 0, len(data)
        while at < end:
            if self._heading:
                zero = data.find(b"\0", at)
                if zero < 0:
                    self._carry = data[at:]
                    break
                self._new_file(data[at:zero])
                self._heading = False
                at = zero + 1
            elif data[at] == 0x0A:  # the blank line after a file
                self._heading = True
                at += 1
            else:
                stop = data.find(b"\n\n", at)
                last = end - 1 if stop < 0 else stop
                path, numbers, contents = files[-1]
                for line in data[at:last].split(b"\n"):
                    number, colon, content = line.partition(b":")
                    if colon and number.isdigit():
                        numbers.append(int(number))
                        contents.append(content)
                    elif line.startswith(path + _STOPPED):
                        self._binary.add(path)
                at = last + 1
        self._finish_chunk(complete_lines)

    def _finish_chunk(self, chunk: bytes) -> None:
        self.read += len(chunk)
        self.lines += sum(len(file[2]) - start for file, start in self._touched)
        if self._counts:
            self._count([(file[0], file[2][start:]) for file, start in self._touched])

    def counts(self) -> dict[bytes, int]:
        """Each needle's matches in the lines read so far."""
        return {needle: sum(counts.values()) for needle, counts in self._counts.items()}

    def _new_file(self, path: bytes) -> None:
        self._files.append((path, [], []))
        self._touched.append((self._files[-1], 0))

    def _count(self, pieces: list[tuple[bytes, list[bytes]]]) -> None:
        """Each needle's non-overlapping occurrences, left to right, in the new lines of each file,
        found in one buffer for the chunk (the work grows with the files holding a needle, not with
        its matches). Lines and files are separated by newlines, which no needle holds, so no
        occurrence spans two lines."""
        parts = [b"\n".join(lines) for _, lines in pieces]
        buffer = b"\n".join(parts)
        begins = list(accumulate(map(len, parts), lambda at, size: at + size + 1, initial=0))
        ends = [begin + len(part) for begin, part in zip(begins, parts, strict=False)]
        for needle, counts in self._counts.items():
            at, index = buffer.find(needle), 0
            while at >= 0:
                index = bisect_right(begins, at, index) - 1
                path = pieces[index][0]
                counts[path] = counts.get(path, 0) + buffer.count(needle, at, ends[index])
                at = buffer.find(needle, ends[index])

    def finish(self, into: Walked) -> None:
        """Every line read, in (path, line) order, and every count, into `into`."""
        self._files.sort(key=lambda file: file[0])
        for path, numbers, contents in self._files:
            start = len(into.paths)
            into.paths.extend([path] * len(numbers))
            into.numbers.extend(numbers)
            into.contents.extend(contents)
            into.spans[path] = (into.spans.get(path, (start, start))[0], len(into.paths))
        into.binary.update(self._binary)
        into.counted.update(self._counts)


class JsonReader(Reader):
    """The walk of a file named as the root, from `rg --json`: ripgrep's other printer reports a
    binary file it was given with one line instead of its matches, where the count run and the
    detail run read it whole. `match` lines become lines of the walk (with their terminators) and
    `end` with a binary offset marks a binary file.

    A match's path is read once from its file's `begin`: a match repeats that path field byte for
    byte, which one `startswith` checks; a match that does not is decoded whole."""

    def __init__(self, needles: Sequence[bytes] = ()) -> None:
        super().__init__(needles)
        self._prefix = _NOTHING

    def feed(self, complete_lines: bytes) -> None:
        """Messages that end at a line end (a chunk never splits one)."""
        import orjson

        loads = orjson.loads
        files = self._files
        self._touched = [(files[-1], len(files[-1][2]))] if files else []
        prefix, skip = self._prefix, len(self._prefix)
        numbers, contents = (files[-1][1], files[-1][2]) if files else ([], [])
        for raw in complete_lines.splitlines():
            cut = raw.find(_OFFSET, skip) if raw.startswith(prefix) else -1
            if cut > 0:  # a match of the current file: the one path taken per line
                data = loads(b"{" + raw[skip:cut] + b"}")
                numbers.append(data["line_number"])
                contents.append(data_bytes(data["lines"]))
                continue
            if raw.startswith(_BEGIN):
                prefix = self._begin(raw)
            elif raw.startswith(_MATCH):
                prefix = self._unled_match(raw, prefix)
            elif raw.startswith(_END):
                self._end(raw)
            skip = len(prefix)
            numbers, contents = (files[-1][1], files[-1][2]) if files else ([], [])
        self._prefix = prefix
        self._finish_chunk(complete_lines)

    def _begin(self, raw: bytes) -> bytes:
        """A new file; the prefix its matches start with."""
        import orjson

        self._new_file(data_bytes(orjson.loads(raw)["data"]["path"]))
        return _MATCH + raw[len(_BEGIN) : -2] + b"," if raw.endswith(b"}}") else _NOTHING

    def _unled_match(self, raw: bytes, prefix: bytes) -> bytes:
        """A match that does not repeat its `begin`'s path field, decoded whole."""
        data = _match_data(raw)
        path = data_bytes(data["path"])
        if not self._files or self._files[-1][0] != path:
            self._new_file(path)
            prefix = _NOTHING
        _, numbers, contents = self._files[-1]
        numbers.append(data["line_number"])
        contents.append(data_bytes(data["lines"]))
        return prefix

    def _end(self, raw: bytes) -> None:
        """A file's last message: it names a binary offset when rg stopped at a NUL byte."""
        import orjson

        if b'"binary_offset":null' in raw:
            return
        data = orjson.loads(raw)["data"]
        if data.get("binary_offset") is not None:
            self._binary.add(data_bytes(data["path"]))


_BEGIN = b'{"type":"begin","data":'
_MATCH = b'{"type":"match","data":'
_END = b'{"type":"end","data":'
_OFFSET = b',"absolute_offset":'
_STOPPED = b": WARNING: stopped searching binary file after match"
"""What rg prints after a file's path (and its lines) when it stopped reading it at a NUL byte."""
_NOTHING = b"\x00"
"""A prefix no JSON line starts with: a match not led by its file's `begin` is decoded whole."""


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
    """A case-sensitive literal's own counts, as the `Reader` counted them."""
    needle = pattern.encode()
    return Attributed(counts=walked.counted[needle], needle=needle)


def _literal_positions(
    needle: bytes, files: Sequence[bytes], walked: Walked, count: int
) -> list[tuple[int, int]]:
    """The first `count` occurrences of `needle` in `files` (in path order) as (line index,
    1-based column): non-overlapping, left to right, line by line."""
    positions: list[tuple[int, int]] = []
    for path in files:
        start, end = walked.spans[path]
        for index in range(start, end):
            content = walked.contents[index]
            at = content.find(needle)
            while at >= 0:
                if len(positions) >= count:
                    return positions
                positions.append((index, at + 1))
                at = content.find(needle, at + len(needle))
    return positions


def stream(walked: Walked) -> bytes:
    """The candidate lines as rg's standard input: an empty first line (so no stray BOM or first
    line is ever special), then each line with a terminator; stdin line k+2 is line k."""
    return b"\n" + walked.joined + b"\n" if walked.contents else b"\n"


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
