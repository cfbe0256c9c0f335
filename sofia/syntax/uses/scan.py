"""Finding a name's occurrences in a file and classifying each on the tree the file parsed into."""

from __future__ import annotations

import bisect
import importlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Protocol

from sofia.syntax.tree import Node, SymbolTree
from sofia.syntax.uses.model import COMMENT, LOCAL, OTHER, STRING, USE, Binding, FileUses, Occurrence, Path

COMMENTS = frozenset({"comment", "line_comment", "block_comment", "html_comment"})
STRINGS = frozenset(
    {
        "string",
        "string_content",
        "string_fragment",
        "string_value",
        "encapsed_string",
        "template_string",
        "heredoc_body",
        "nowdoc_string",
        "interpreted_string_literal",
        "interpreted_string_literal_content",
        "raw_string_literal",
        "raw_string_literal_content",
        "rune_literal",
        "escape_sequence",
        "text",
        "string_start",
        "string_end",
        "regex_pattern",
        "jsx_text",
        "html_character_reference",
    }
)
"""Leaves that are text, not code (PHP's `text` is inline HTML outside `<?php`)."""
IDENTIFIERS = frozenset(
    {
        "name",
        "identifier",
        "type_identifier",
        "field_identifier",
        "property_identifier",
        "private_property_identifier",
        "shorthand_property_identifier",
        "shorthand_property_identifier_pattern",
        "package_identifier",
        "statement_identifier",
        "label_name",
        "nested_identifier",
        "jsx_identifier",
    }
)
VALUE_KINDS = frozenset({"call", "new", "reference"})
"""Use kinds a local variable of the same name can shadow (types and members it cannot)."""

_MODULES = {"php": "php", "go": "go", "python": "python", "js": "js", "ts": "js", "tsx": "js", "vue": "vue"}


class Analyzer(Protocol):
    """What a language module provides for one file."""

    module: Path

    def root_at(self, start: int) -> Node | None:
        """The root of the tree holding byte `start`, or None where no script tree covers it."""

    def classify(self, node: Node, word: str) -> Occurrence:
        """The occurrence for an identifier node whose text is `word` (position fields unset)."""

    def outside(self, start: int, word: str) -> Occurrence:
        """The occurrence for a match no script tree covers (Vue template and style, ...)."""

    def classes(self) -> list[Binding]:
        """Bindings of the classes declared in the file."""

    def extra_spellings(self, word: str) -> list[str]:
        """Other ways the file may write the name itself (a Vue component's kebab-case tag)."""


def word_positions(source: bytes, word: str) -> list[int]:
    """Byte offsets where `word` occurs as a whole word: not preceded or followed by a word
    character (Unicode letters, digits, marks, `_`), the rule `rg --word-regexp` applies."""
    encoded = word.encode("utf-8")
    if not encoded:
        return []
    found: list[int] = []
    first_word = _is_word_char(word[0])
    last_word = _is_word_char(word[-1])
    for match in re.finditer(re.escape(encoded), source):
        start, end = match.start(), match.end()
        if first_word and _word_before(source, start):
            continue
        if last_word and _word_after(source, end):
            continue
        found.append(start)
    return found


def _is_word_char(char: str) -> bool:
    return char == "_" or unicodedata.category(char)[0] in "LMN" or char == "\u200c" or char == "\u200d"


def _word_before(source: bytes, start: int) -> bool:
    if start == 0:
        return False
    byte = source[start - 1]
    if byte < 0x80:
        return chr(byte).isalnum() or byte == 0x5F
    back = start - 1
    while back > max(0, start - 4) and source[back] & 0xC0 == 0x80:
        back -= 1
    char = source[back:start].decode("utf-8", "replace")
    return bool(char) and _is_word_char(char[-1])


def _word_after(source: bytes, end: int) -> bool:
    if end >= len(source):
        return False
    byte = source[end]
    if byte < 0x80:
        return chr(byte).isalnum() or byte == 0x5F
    char = source[end : end + 4].decode("utf-8", "replace")
    return bool(char) and _is_word_char(char[0])


def analyzer_for(tree: SymbolTree, rel: str) -> Analyzer:
    module = importlib.import_module(f"sofia.syntax.uses.{_MODULES[tree.lang]}")
    analyzer: Analyzer = module.Analyzer(tree, rel)
    return analyzer


def analyze(tree: SymbolTree, rel: str, words: Iterable[str]) -> FileUses:
    """Every occurrence of each of `words` in the file of `tree` (whose path relative to the
    search root is `rel`), classified; imports that bind one of them under another name are
    followed within the file, so uses of the alias are uses of the word."""
    analyzer = analyzer_for(tree, rel)
    result = FileUses(lang=tree.lang, module=analyzer.module)
    for word in dict.fromkeys(words):
        found = _occurrences(analyzer, tree.source, word, word)
        for spelling in analyzer.extra_spellings(word):
            found.extend(_occurrences(analyzer, tree.source, spelling, word))
        for alias in dict.fromkeys(o.alias for o in found if o.alias and o.alias != word):
            aliased = [o for o in _occurrences(analyzer, tree.source, alias, word) if not o.alias]
            found.extend(o for o in aliased if o.role == USE and o.kind != "import")
        found.sort(key=lambda o: o.start)
        _shadow(found)
        result.occurrences[word] = found
    result.classes = analyzer.classes()
    return result


def _occurrences(analyzer: Analyzer, source: bytes, spelling: str, word: str) -> list[Occurrence]:
    found: list[Occurrence] = []
    length = len(spelling.encode("utf-8"))
    positions = word_positions(source, spelling)
    starts = _line_starts(source) if positions else []
    for start in positions:
        root = analyzer.root_at(start)
        if root is None:
            occurrence = analyzer.outside(start, spelling)
        else:
            occurrence = _classify(analyzer, root.descendant_for_byte_range(start, start + length), spelling)
        line = bisect.bisect_right(starts, start)
        occurrence.start = start
        occurrence.line = line
        occurrence.col = start - starts[line - 1] + 1
        if spelling != word:
            occurrence.spelled = spelling
        found.append(occurrence)
    return found


def _line_starts(source: bytes) -> list[int]:
    return [0, *(m.end() for m in re.finditer(b"\n", source))]


def _classify(analyzer: Analyzer, node: Node, word: str) -> Occurrence:
    kind = node.type
    if kind in COMMENTS:
        return Occurrence(0, 0, 0, COMMENT)
    if kind in STRINGS:
        return Occurrence(0, 0, 0, STRING)
    text = node.text.decode("utf-8", "replace") if node.text is not None else ""
    if kind in IDENTIFIERS or text == word:
        if text != word:
            return Occurrence(0, 0, 0, OTHER)
        return analyzer.classify(node, word)
    parent = node
    while parent is not None:  # a token inside a comment or string node the grammar splits further
        if parent.type in COMMENTS:
            return Occurrence(0, 0, 0, COMMENT)
        if parent.type in STRINGS:
            return Occurrence(0, 0, 0, STRING)
        parent = parent.parent
    return Occurrence(0, 0, 0, USE, "reference")


def _shadow(found: Sequence[Occurrence]) -> None:
    """Value uses inside the scope of a local variable or parameter of the same name are that
    local's, not the symbol's."""
    scopes = [o.scope for o in found if o.role == LOCAL and o.scope is not None]
    if not scopes:
        return
    for occurrence in found:
        if (
            occurrence.role != USE
            or occurrence.member
            or occurrence.qualified
            or occurrence.kind not in VALUE_KINDS
        ):
            continue
        if occurrence.spelled:
            continue
        if any(low <= occurrence.start < high for low, high in scopes):
            occurrence.role = LOCAL
