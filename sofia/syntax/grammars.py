"""Grammar loading (lazy, once per process) and the time-boxed, size-limited parse every language
module goes through, so a pathological file can never hold a call hostage."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from functools import cache
from typing import Any

from sofia.syntax import registry

MAX_PARSE_BYTES = 4 * 1024 * 1024
"""Files larger than this are not parsed: the symbol layer's limit for every tool."""
PARSE_TIMEOUT = 1.0
"""Seconds one parse may take before it is abandoned."""
BOM = b"\xef\xbb\xbf"
_CHUNK = 65536
_UINT32_MAX = 0xFFFFFFFF

GRAMMARS = tuple(record.name for record in registry.GRAMMARS)
"""Every grammar sofia loads (`sofia.syntax.registry.GRAMMARS`), by name."""


class ParseUnavailable(Exception):
    """No tree can be had for this source; callers fall back to raw text or to no symbols. Internal:
    never the caller's mistake, so not a SofiaError (see the drawing in `sofia.errors`)."""


class ParseTooLarge(ParseUnavailable):
    """The source is over MAX_PARSE_BYTES."""


class ParseTimeout(ParseUnavailable):
    """The parse took longer than its time box."""


class LanguageUnsupported(ParseUnavailable):
    """No grammar or extraction module for this language."""


@cache
def language(grammar: str) -> Any:
    """The `tree_sitter.Language` of `grammar` (a `sofia.syntax.registry.Grammar` name), loaded on
    first use."""
    import importlib

    from tree_sitter import Language

    record = registry.grammar(grammar)
    if record is None:
        raise LanguageUnsupported(f"no grammar named {grammar}")
    try:
        module = importlib.import_module(record.module)
    except ImportError as error:
        raise LanguageUnsupported(
            f"grammar {grammar} does not load ({record.distribution} not installed: {error})"
        ) from error
    return Language(getattr(module, record.function)())


_parsers = threading.local()
"""One `tree_sitter.Parser` per grammar and thread: making one costs about a third of parsing a
small file, and a parser is not safe to share between threads."""


def parser_for(grammar: str) -> Any:
    """This thread's parser for `grammar`, reset to parse whole inputs."""
    from tree_sitter import Parser

    cached: dict[str, Any] | None = getattr(_parsers, "by_grammar", None)
    if cached is None:
        cached = _parsers.by_grammar = {}
    parser = cached.get(grammar)
    if parser is None:
        parser = cached[grammar] = Parser(language(grammar))
    else:
        parser.reset()
        parser.included_ranges = []
    return parser


def whole_range(start_byte: int, start_column: int = 0) -> Any:
    """An included range from `start_byte` (on the first line, at `start_column`) to the end of input."""
    from tree_sitter import Point, Range

    return Range(Point(0, start_column), Point(_UINT32_MAX, _UINT32_MAX), start_byte, _UINT32_MAX)


def parse_bytes(
    source: bytes,
    grammar: str,
    ranges: Sequence[Any] | None = None,
    timeout: float = PARSE_TIMEOUT,
) -> Any:
    """Parse `source` with `grammar` and return the `tree_sitter.Tree`.

    Offsets and points in the tree are those of `source` itself: a leading BOM is skipped through an
    included range instead of being cut off, and `ranges` (Vue script blocks) restrict the parse the
    same way. Raises ParseTooLarge above MAX_PARSE_BYTES and ParseTimeout after `timeout` seconds
    (the read-callback form is the one tree-sitter lets a progress callback abort). The tree returned
    is backed by `source`, so `node.text` is a plain slice.
    """
    if len(source) > MAX_PARSE_BYTES:
        raise ParseTooLarge(f"{len(source)} bytes is over the {MAX_PARSE_BYTES}-byte parse limit")
    parser = parser_for(grammar)
    if ranges is not None:
        parser.included_ranges = list(ranges)
    elif source.startswith(BOM):
        parser.included_ranges = [whole_range(len(BOM), len(BOM))]
    deadline = time.monotonic() + timeout
    given: list[bytes] = []

    def read(byte: int, point: Any) -> bytes:
        chunk = source[byte : byte + _CHUNK]
        given.append(chunk)
        return chunk

    def give_up(offset: int, has_error: bool) -> bool:
        return time.monotonic() > deadline

    try:
        tree = parser.parse(read, progress_callback=give_up)
    except ValueError as error:
        raise ParseTimeout(f"parse took longer than {timeout:g} s") from error
    finally:
        _release(given, grammar)
    if tree is None:
        raise ParseTimeout(f"parse took longer than {timeout:g} s")
    if backed(tree, read, source):
        return tree
    # A callback-parsed tree answers `node.text` by calling the callback again (one chunk per node);
    # re-parsing the bytes against it backs the tree by `source` itself, reusing the nodes it can.
    return parser.parse(source, old_tree=tree)


def _release(chunks: list[bytes], grammar: str) -> None:
    """Give back the reference the binding keeps to each chunk its read callback returned, where
    it keeps one (tree-sitter 0.26.1 does: every file parsed stayed in memory for good, the chunks
    of a large one too, in a server answering for hours)."""
    if chunks and _keeps_chunks(grammar):
        import ctypes

        for chunk in chunks:
            ctypes.pythonapi.Py_DecRef(ctypes.py_object(chunk))


@cache
def _keeps_chunks(grammar: str) -> bool:
    """Whether this binding keeps a reference to each chunk a read callback returns: one parse of
    a fresh object, its references counted before and after (asked once; any grammar will do)."""
    import sys

    from tree_sitter import Parser

    if sys.implementation.name != "cpython":
        return False
    probe = bytes(bytearray(b"\n\n"))  # a new object: no constant shares its count
    before = sys.getrefcount(probe)
    tree = Parser(language(grammar)).parse(lambda byte, point: probe if byte == 0 else b"")
    del tree
    return sys.getrefcount(probe) - before == 1


_SOURCE_SLOT: list[int] = []
"""Where a `tree_sitter.Tree` holds the object it answers `node.text` from (its callback or its
bytes), as an offset into the object, once found."""


def backed(tree: Any, read: Any, source: bytes) -> bool:
    """Make a tree parsed through the callback `read` answer `node.text` from `source`, as one
    parsed from the bytes does: its reference to `read` becomes one to `source` (CPython; nothing
    changes and False is returned unless the tree's slot holds `read` itself).

    Why: the read callback is the only form of parse tree-sitter's progress callback can abort,
    and a tree parsed through it reads every `node.text` back through the callback (20 times
    slower). Parsing the bytes again against the tree costs 0.1-1 ms where the grammar reuses its
    nodes, and a whole parse where it reuses none (Scala's and Swift's ambiguous trees: up to 20 ms
    for a 50 KB file)."""
    import ctypes
    import sys

    if sys.implementation.name != "cpython":
        return False
    if not _SOURCE_SLOT:
        found = _source_slot(tree, read)
        if found < 0:
            return False
        _SOURCE_SLOT.append(found)
    held = ctypes.c_void_p.from_address(id(tree) + _SOURCE_SLOT[0])
    if held.value != id(read):
        return False
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(source))
    held.value = id(source)
    ctypes.pythonapi.Py_DecRef(ctypes.py_object(read))
    return True


def _source_slot(tree: Any, read: Any) -> int:
    """The one pointer-sized field of `tree`'s C struct, past the object header, that holds
    `read` (the callback it was parsed through), else -1."""
    import ctypes

    size = ctypes.sizeof(ctypes.c_void_p)
    found = [
        offset
        for offset in range(2 * size, type(tree).__basicsize__ - size + 1, size)
        if ctypes.c_void_p.from_address(id(tree) + offset).value == id(read)
    ]
    return found[0] if len(found) == 1 else -1


def count_errors(node: Any) -> int:
    """ERROR and MISSING nodes under `node`, visiting only subtrees that hold errors (without
    recursion: a tree can be deeper than Python's stack, as a long initialiser is in C)."""
    count = 0
    stack = [node]
    while stack:
        current = stack.pop()
        if not current.has_error and not current.is_missing:
            continue
        count += 1 if current.is_error or current.is_missing else 0
        stack.extend(current.children)
    return count


def error_nodes(node: Any) -> list[Any]:
    """The outermost ERROR and MISSING nodes under `node` in source order: one per region the
    grammar could not parse (what `count_errors` counts, without the nodes nested in a region)."""
    found: list[Any] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_error or current.is_missing:
            found.append(current)
        elif current.has_error:
            stack.extend(reversed(current.children))
    return found
