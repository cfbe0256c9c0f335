"""Function bodies a summary need not parse: a summary shows declarations, signatures and line
ranges, never what a body holds, and the bodies of a C or Java file are most of its bytes and
most of its parse. A language's `Outline` (`Spec.outline`) tells where they are from the text
alone; the grammar then reads the file without them (tree-sitter's included ranges keep every
offset and line), and checks the guess: each left-out span must be what the grammar itself
takes for a body, or it is parsed again with that span in (docs/architecture.md, "Outline
parse").

`Braces` scans the text once for braces, skipping comments, strings, character literals and (C,
C#) directive lines. A `{` at the level where declarations are listed (not inside a skipped body)
opens a body when the text before it back to the previous `;`, `{` or `}` (its header) matches
the lexicon's `head` and not its `not_head`. `Indented` (Ruby) pairs a `def` line with the next
`end` at its indentation. Braces that do not balance, a guess the grammar disagrees with three
times, or a scan longer than `SCAN_TIMEOUT` give up: the file is parsed whole, as without one.
"""

from __future__ import annotations

import bisect
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

SLASH_COMMENTS = (rb"//[^\n]*(?:\n[ \t]*//[^\n]*)*", rb"/\*[^*]*(?:\*+[^*/][^*]*)*(?:\*+/|\Z)")
"""`//` and `/* */` comments (an unclosed one runs to the end); a run of `//` lines is one match,
as a Rust file's `///` doc comments are most of its lines: the scan steps over it at once."""
DOUBLE_QUOTED = rb'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
"""A one-line string with backslash escapes."""
SINGLE_QUOTED = rb"'(?:\\[^\n]{1,10}?|[^'\\\n])'"
"""A character literal: one character or one escape, so neither a Rust lifetime nor a Scala
symbol (`'a`) nor a C++14 digit separator (`1'000'000`) opens one."""
TRIPLE_QUOTED = rb'"""(?s:.*?)(?:"""|\Z)'
"""A multi-line string (Java text blocks, Kotlin, Swift, Scala and C# raw strings)."""
DIRECTIVE_LINES = rb"#[^\n\\]*(?:\\(?s:.)[^\n\\]*)*"
"""A C or C# directive with its continuation lines (`#define BEGIN {` opens nothing): outside
comments and strings, a `#` only starts one there."""
QUOTED = (*SLASH_COMMENTS, TRIPLE_QUOTED, DOUBLE_QUOTED, SINGLE_QUOTED)
"""Comments, multi-line and one-line strings and characters: all that Java, Kotlin and Scala
write braces in that do not count."""
HEADER_WINDOW = 600
"""Bytes of a header the heads are matched against (a longer one is cut from the front)."""
ROUNDS = 3
"""Parses with a guess corrected before the whole file is parsed instead."""
SCAN_TIMEOUT = 0.25
"""Seconds a scan for bodies may take before the file is parsed whole instead (a 4 MiB file
scans in about 0.1 s)."""
_CHECK_EVERY = 256
"""Matches between two looks at the clock."""


@dataclass(frozen=True)
class Braces:
    """Function bodies in braces, found by their headers (`Spec.outline`: C, Java, Kotlin...)."""

    skipped: Sequence[bytes]
    """Patterns of what braces inside do not count in: comments, strings, characters, directives.
    Each starts with a literal character (`"`, not `b?"`): the scan then only tries them where
    one of those characters is, and runs five times faster. Groups in them must be named."""
    head: bytes
    """A pattern searched in a body's header, anchored at its end by the pattern itself (`\\Z`):
    `\\)\\s*\\Z` for C's `int f(void) {`."""
    nodes: frozenset[str]
    """Node types whose `{ ... }` the grammar must find at a left-out span (`compound_statement`)."""
    not_head: bytes = b""
    """A pattern that, searched in the header, says it is no body (Java's `new Foo() {`)."""
    closer: bytes = b"}"
    """The token that ends a body (the grammar's, at the end of a left-out span)."""

    def spans(self, source: bytes, deadline: float = math.inf) -> list[tuple[int, int]]:
        return spans(source, self, deadline)


@dataclass(frozen=True)
class Indented:
    """Function bodies that open on their declaration's line and close with a word on a line of
    its own at the declaration's indentation (Ruby's `def ... end`): a scan of lines, no lexer."""

    keyword: bytes
    """The word a declaration's first line holds (`def`): only lines holding it are matched."""
    opener: bytes
    """A pattern (multi-line mode) of a declaration's whole first line from its start, its
    indentation captured as `indent`; a line it matches opens a body, which starts on the next."""
    closer: bytes
    """The word that closes the body (`end`)."""
    nodes: frozenset[str]
    """Node types the closer must end, from before the left-out span (`method`)."""

    def spans(self, source: bytes, deadline: float = math.inf) -> list[tuple[int, int]]:
        return indented_spans(source, self, deadline)


Outline = Braces | Indented
"""How a language's function bodies are found in its text (`Spec.outline`)."""


@dataclass
class _Compiled:
    tokens: re.Pattern[bytes]
    head: re.Pattern[bytes]
    not_head: re.Pattern[bytes] | None


_COMPILED: dict[int, tuple[Braces, _Compiled]] = {}


def _compiled(lexicon: Braces) -> _Compiled:
    known = _COMPILED.get(id(lexicon))
    if known is not None and known[0] is lexicon:
        return known[1]
    alternatives = b"|".join([*lexicon.skipped, rb"[{}]"])
    firsts = _first_characters(lexicon.skipped)
    compiled = _Compiled(
        # the characters a match can start with, looked ahead for first: a quarter faster
        re.compile(
            b"(?=[" + re.escape(firsts + b"{}") + b"])(?:" + alternatives + b")" if firsts else alternatives
        ),
        re.compile(lexicon.head),
        re.compile(lexicon.not_head) if lexicon.not_head else None,
    )
    _COMPILED[id(lexicon)] = (lexicon, compiled)
    return compiled


def _first_characters(patterns: Sequence[bytes]) -> bytes:
    """The literal character each pattern starts with (`\\$` is `$`), or b"" if one does not
    start with a literal character."""
    firsts = bytearray()
    for pattern in patterns:
        if pattern[:1] == b"\\" and pattern[1:2] and not pattern[1:2].isalnum():
            firsts += pattern[1:2]
        elif pattern[:1] and pattern[:1] not in b"\\([.^$|?*+{":
            firsts += pattern[:1]
        else:
            return b""
    return bytes(firsts)


def spans(source: bytes, lexicon: Braces, deadline: float = math.inf) -> list[tuple[int, int]]:
    """The byte spans inside the outermost function bodies of `source` (each from just after its
    `{` to its `}`), in order; [] when the braces do not balance, or past `deadline` (a
    `time.monotonic()`: hostile headers make the head patterns slow, and no scan may hang a call)."""
    compiled = _compiled(lexicon)
    found: list[tuple[int, int]] = []
    opened: list[tuple[int, bool]] = []
    in_body = 0
    header_start = 0
    for count, match in enumerate(compiled.tokens.finditer(source)):
        if count % _CHECK_EVERY == 0 and time.monotonic() > deadline:
            return []
        at = match.start()
        brace = source[at]
        if brace == _OPEN:
            is_body = not in_body and _is_head(compiled, source, header_start, at)
            opened.append((at, is_body))
            in_body += is_body
        elif brace == _CLOSE:
            if not opened:
                return []
            start, was_body = opened.pop()
            if was_body:
                in_body -= 1
                if at > start + 1:
                    found.append((start + 1, at))
        else:
            continue
        if not in_body:
            header_start = at + 1
    return [] if opened else found


_OPEN, _CLOSE = ord("{"), ord("}")


def _is_head(compiled: _Compiled, source: bytes, start: int, brace: int) -> bool:
    """Whether the header before the `{` at `brace` (from `start`, the last brace, or the last
    `;` after it) is a function's."""
    start = max(start, brace - HEADER_WINDOW, source.rfind(b";", start, brace) + 1)
    if compiled.head.search(source, start, brace) is None:
        return False
    return compiled.not_head is None or compiled.not_head.search(source, start, brace) is None


def included(source: bytes, left_out: Sequence[tuple[int, int]]) -> list[Any]:
    """tree-sitter included ranges covering `source` but the `left_out` spans (sorted, apart)."""
    from tree_sitter import Point, Range

    ranges = []
    row, line_start, counted = 0, 0, 0

    def point(offset: int) -> Any:
        nonlocal row, line_start, counted
        newlines = source.count(b"\n", counted, offset)
        if newlines:
            row += newlines
            line_start = source.rfind(b"\n", counted, offset) + 1
        counted = offset
        return Point(row, offset - line_start)

    start = 0
    for left_start, left_end in left_out:
        ranges.append(Range(point(start), point(left_start), start, left_start))
        start = left_end
    ranges.append(Range(point(start), point(len(source)), start, len(source)))
    return ranges


def indented_spans(source: bytes, lexicon: Indented, deadline: float = math.inf) -> list[tuple[int, int]]:
    """The spans from the line after each opening line to its closer at the same indentation
    (the outermost ones; a declaration inside a left-out body is not looked at); [] past
    `deadline`. An indentation no closer is found at is not searched again."""
    keyword = _pattern(re.escape(lexicon.keyword) + rb"\b")  # a literal first: found by a fast scan
    opener = _pattern(lexicon.opener, re.MULTILINE)
    found: list[tuple[int, int]] = []
    unclosed: set[bytes] = set()
    after = 0
    for count, hit in enumerate(keyword.finditer(source)):
        if count % _CHECK_EVERY == 0 and time.monotonic() > deadline:
            return []
        line_start = source.rfind(b"\n", 0, hit.start()) + 1
        if line_start < after:
            continue
        match = opener.match(source, line_start)
        if match is None:
            continue
        indent = match.group("indent")
        if indent in unclosed:
            continue
        end = _closer(source, indent, lexicon.closer, match.end() - 1)
        if end < 0:
            unclosed.add(indent)
            continue
        if end > match.end():
            found.append((match.end(), end))
        after = end + len(lexicon.closer)
    return found


def _closer(source: bytes, indent: bytes, word: bytes, start: int) -> int:
    """The offset of `word` on the first line after `start` that is `indent` then `word` (and no
    more of a word: `end`, not `endpoint`), -1 if none (a search of bytes, not of a pattern)."""
    wanted = b"\n" + indent + word
    at = source.find(wanted, start)
    while at >= 0:
        after = at + len(wanted)
        if after == len(source) or not (source[after : after + 1].isalnum() or source[after] == _UNDERSCORE):
            return after - len(word)
        at = source.find(wanted, at + 1)
    return -1


_UNDERSCORE = ord("_")


@cache
def _pattern(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]:
    return re.compile(pattern, flags)


def agreed(tree: Any, left_out: Sequence[tuple[int, int]], lexicon: Outline) -> list[bool]:
    """For each left-out span, whether the grammar read what closes it as the end of a body of
    the lexicon's `nodes` that starts before it (a `{...}`, a `def ... end`)."""
    root = tree.root_node
    verdicts = []
    closer = lexicon.closer.decode()
    for start, end in left_out:
        token = root.descendant_for_byte_range(end, end + len(closer))
        body = token.parent if token is not None else None
        verdicts.append(
            token is not None
            and token.type == closer
            and token.start_byte == end
            and body is not None
            and body.type in lexicon.nodes
            and body.end_byte == token.end_byte
            and body.start_byte < start
        )
    return verdicts


def outline(
    source: bytes,
    grammar: str,
    lexicon: Outline,
    prepare: Callable[[bytes], bytes] | None = None,
) -> tuple[Any, bytes] | None:
    """A tree of `source` read without its function bodies, each of which the grammar agreed is
    one, and the bytes it was parsed from; None where there is none to leave out or no guess held
    (parse it whole). `prepare` (the language's, keeping lengths) is run only on what is parsed:
    the bodies are found in the source as written, whose braces and strings it leaves alone."""
    from sofia.syntax.grammars import BOM, PARSE_TIMEOUT

    if source.startswith(BOM):
        return None
    deadline = time.monotonic() + PARSE_TIMEOUT  # the scan and all rounds; the whole parse has its own
    left_out = lexicon.spans(source, time.monotonic() + SCAN_TIMEOUT)
    found = _Trial(source, grammar, lexicon, prepare, deadline, ROUNDS).parse(left_out)
    return (found[0], found[1]) if found is not None else None


def repaired(
    source: bytes,
    tree: Any,
    grammar: str,
    lexicon: Outline,
    prepare: Callable[[bytes], bytes] | None = None,
) -> tuple[Any, bytes, list[tuple[int, int]]] | None:
    """A tree of `source` parsed again without the function bodies the grammar could not read,
    where one of them made its recovery swallow the declarations around it: a Swift `#if` among
    a `switch`'s cases turns the whole class into one ERROR; a C++ `} else {` inside an `#ifdef`
    leaves the body open, and the next function is read inside it. With the bytes it was parsed
    from and the bodies left out. None where no error region holds a whole body and no body
    holding an error runs on past its end, or no bodies left out leave fewer bytes in error.

    The suspects are tried first (one parse, most often): the bodies holding the innermost
    errors where a region swallowed one, else those that ran on. Where the recovery's errors
    point elsewhere, every body is left out, then put back half by half while the file parses as
    well without the rest (at most `REPAIR_PARSES` parses in all)."""
    from sofia.syntax.grammars import BOM, PARSE_TIMEOUT, error_nodes

    broken = error_nodes(tree.root_node)
    if not broken or source.startswith(BOM):
        return None
    if not any(e.is_missing or _could_hold(source, e, lexicon) for e in broken):
        return None
    trial = _Trial(source, grammar, lexicon, prepare, time.monotonic() + PARSE_TIMEOUT, REPAIR_PARSES)
    candidates = lexicon.spans(source, time.monotonic() + SCAN_TIMEOUT)
    if not candidates:
        return None
    swallowed = _swallowed(broken, candidates)

    def suspects(root: Any) -> list[tuple[int, int]]:
        held = _holding(candidates, error_leaves(root))
        return held if swallowed else _overrun(root, held, lexicon)

    first = suspects(tree.root_node)
    if not first and not swallowed:
        return None
    before = _error_bytes(broken)
    found = trial.parse(first)
    for _ in range(ROUNDS - 1):
        if found is None:
            break
        more = [s for s in suspects(found[0].root_node) if s not in found[2]]
        if not more:
            break
        found = trial.parse(sorted({*found[2], *more}))
    if found is not None and trial.errors(found) < before:
        return found
    return _bisected(trial, candidates, before)


REPAIR_PARSES = 16
"""Parses a repair may take (the file's first parse aside): a file it needs more for is read as
the grammar first parsed it."""


class _Trial:
    """Parses of one file with some bodies left out, each guess checked by the grammar (`agreed`),
    at most `limit` parses before `deadline`: the outline's and a repair's."""

    def __init__(
        self,
        source: bytes,
        grammar: str,
        lexicon: Outline,
        prepare: Callable[[bytes], bytes] | None,
        deadline: float,
        limit: int,
    ) -> None:
        self.source, self.grammar, self.lexicon, self.prepare = source, grammar, lexicon, prepare
        self.deadline, self.limit = deadline, limit
        self.parses = 0

    def parse(self, left_out: list[tuple[int, int]]) -> tuple[Any, bytes, list[tuple[int, int]]] | None:
        """The tree without `left_out` and the bytes it read (spans the grammar does not read as
        bodies put back, and parsed again), or None when nothing is left out, or the parses or the
        time are spent. `prepare` (the language's, keeping lengths) runs only on what is parsed."""
        from sofia.syntax import regions
        from sofia.syntax.grammars import ParseTimeout, parse_bytes

        source = self.source
        while left_out:
            remaining = self.deadline - time.monotonic()
            if self.parses >= self.limit or remaining <= 0:
                return None
            self.parses += 1
            read = (
                regions.prepared(source, _between(left_out, len(source)), self.prepare)
                if self.prepare
                else source
            )
            try:
                fixed = parse_bytes(read, self.grammar, ranges=included(read, left_out), timeout=remaining)
            except ParseTimeout:
                return None
            verdicts = agreed(fixed, left_out, self.lexicon)
            if all(verdicts):
                return fixed, read, left_out
            left_out = [span for span, kept in zip(left_out, verdicts, strict=True) if kept]
        return None

    @staticmethod
    def errors(found: tuple[Any, bytes, list[tuple[int, int]]]) -> int:
        from sofia.syntax.grammars import error_nodes

        return _error_bytes(error_nodes(found[0].root_node))


def _bisected(
    trial: _Trial, candidates: list[tuple[int, int]], before: int
) -> tuple[Any, bytes, list[tuple[int, int]]] | None:
    """Every body left out, then each half of a group put back while the errors do not grow:
    the fewest bodies (found in the parses allowed) whose absence mends the file."""
    best = trial.parse(candidates)
    if best is None or trial.errors(best) >= before:
        return None
    floor = trial.errors(best)
    groups = [best[2][len(best[2]) // 2 :], best[2][: len(best[2]) // 2]]
    while groups:
        group = groups.pop()
        if not group:
            continue
        rest = [span for span in best[2] if span not in group]
        tried = trial.parse(rest) if rest else None
        if tried is not None and trial.errors(tried) <= floor:
            best = tried  # the group parses: it stays in
        elif trial.parses >= trial.limit:
            break
        elif len(group) > 1:
            groups += [group[len(group) // 2 :], group[: len(group) // 2]]
    return best


def error_leaves(root: Any, limit: int = 256) -> list[int]:
    """The start offsets of the innermost ERROR and MISSING nodes under `root` (those holding no
    other), in no particular order: where the grammar first met what it could not read, before
    its recovery spread (at most `limit`)."""
    found: list[int] = []
    stack = [root]
    while stack and len(found) < limit:
        node = stack.pop()
        inner = [child for child in node.children if child.has_error or child.is_missing]
        if (node.is_error or node.is_missing) and not inner:
            found.append(node.start_byte)
        stack.extend(inner)
    return found


def _holding(spans: Sequence[tuple[int, int]], offsets: Sequence[int]) -> list[tuple[int, int]]:
    """The spans (sorted, apart) holding one of the offsets, in order."""
    starts = [start for start, _ in spans]
    held: set[int] = set()
    for offset in offsets:
        index = bisect.bisect_right(starts, offset) - 1
        if index >= 0 and offset < spans[index][1]:
            held.add(index)
    return [spans[index] for index in sorted(held)]


def _could_hold(source: bytes, error: Any, lexicon: Outline) -> bool:
    """Whether an error region's text holds what opens a body (`{`, `def`) and, later, what
    closes one: could it hold a whole body (the text alone, before the file is scanned)?"""
    opener = b"{" if isinstance(lexicon, Braces) else lexicon.keyword
    opened = source.find(opener, error.start_byte, error.end_byte)
    return opened >= 0 and source.find(lexicon.closer, opened, error.end_byte) >= 0


def _swallowed(errors: Sequence[Any], spans: Sequence[tuple[int, int]]) -> bool:
    """Whether an error region holds a whole body: the grammar's recovery took in more than the
    statement it failed on, and declarations went with it."""
    starts = [start for start, _ in spans]
    for error in errors:
        index = bisect.bisect_left(starts, error.start_byte)
        if index < len(spans) and spans[index][1] <= error.end_byte:
            return True
    return False


def _overrun(root: Any, spans: Sequence[tuple[int, int]], lexicon: Outline) -> list[tuple[int, int]]:
    """The bodies among `spans` the grammar read as running on past their end: a directive or a
    brace it misread left the body open, and the declarations after it went into it."""
    closer = len(lexicon.closer)
    ran_on = []
    for start, end in spans:
        node = root.descendant_for_byte_range(start, start)
        while node is not None and not (node.type in lexicon.nodes and node.start_byte < start):
            node = node.parent
        if node is not None and node.end_byte > end + closer:
            ran_on.append((start, end))
    return ran_on


def _error_bytes(errors: Sequence[Any]) -> int:
    """Bytes the grammar could not read, a MISSING token (one it made up) counting one."""
    return sum(max(1, error.end_byte - error.start_byte) for error in errors)


def _between(left_out: Sequence[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """The spans of a file of `size` bytes outside the `left_out` ones."""
    kept, start = [], 0
    for left_start, left_end in left_out:
        kept.append((start, left_start))
        start = left_end
    kept.append((start, size))
    return kept
