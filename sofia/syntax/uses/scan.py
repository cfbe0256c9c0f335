"""Finding a name's occurrences in a file and classifying each on the tree the file parsed into."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from typing import Protocol

from sofia.syntax.tree import Node
from sofia.syntax.uses.model import (
    COMMENT,
    LOCAL,
    OTHER,
    STRING,
    USE,
    Binding,
    FileUses,
    Occurrence,
    Path,
    Syntax,
)
from sofia.syntax.uses.nodes import word_positions

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
        "string_literal_content",
        "verbatim_string_literal",
        "raw_string_content",
        "character_literal_content",
    }
)
"""Leaves that are text, not code (PHP's `text` is inline HTML outside `<?php`; C#'s string
contents). An analyzer may name its language's own as `comments` and `strings` (the query-driven
languages take theirs from the Spec)."""
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


def syntax_of(source: bytes, lang: str, words: Sequence[str] = ()) -> Syntax:
    """Parse `source` the way the symbol layer does, keeping only the trees: with the record's
    grammar, or the symbol module's own `trees(source, lang, words)` where it reads a file its own
    way (a Vue file's scripts; a query-driven language's prepared source, and where the language
    says so only the regions holding `words`). Raises ParseUnavailable as `sofia.syntax.parse`
    does."""
    from sofia.syntax import registry
    from sofia.syntax.grammars import LanguageUnsupported, parse_bytes
    from sofia.syntax.parse import resolve

    record = registry.language(lang)
    if record is None:
        raise LanguageUnsupported(f"unsupported language {lang!r}")
    lang = resolve(lang, source)
    record = registry.language(lang) or record
    symbols = importlib.import_module(record.symbols)
    trees = getattr(symbols, "trees", None)
    if trees is not None:
        return Syntax(lang, source, trees(source, lang, words))
    return Syntax(lang, source, [parse_bytes(source, record.grammar)])


class Analyzer(Protocol):
    """What a language module provides for one file (its `Analyzer`, deriving from `Base`)."""

    module: Path
    comments: frozenset[str]
    """Node types that are comments in this language."""
    strings: frozenset[str]
    """Node types that are string contents in this language."""

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

    def unescape(self, text: str) -> str:
        """An identifier's text as the name it is (Rust's `r#type` is `type`)."""

    def includes(self) -> list[str]:
        """The files the file includes, as written (`Uses.included`)."""


class Base:
    """The defaults every language's analyser shares: one tree covers the whole file (`root`), the
    shared comment and string node types, a match outside any tree is a plain reference, and a name
    is written only as itself. A language overrides what differs (Vue: several trees, template
    matches, a component's kebab-case tag; the query-driven languages: their Spec's node types)."""

    root: Node
    comments: frozenset[str] = COMMENTS
    strings: frozenset[str] = STRINGS

    def root_at(self, start: int) -> Node | None:
        return self.root

    def outside(self, start: int, word: str) -> Occurrence:
        return Occurrence(start, 0, 0, USE, "reference")

    def extra_spellings(self, word: str) -> list[str]:
        return []

    def unescape(self, text: str) -> str:
        return text

    def includes(self) -> list[str]:
        return []


def analyzer_for(tree: Syntax, rel: str) -> Analyzer:
    from sofia.syntax import registry

    record = registry.language(tree.lang)
    if record is None:
        raise ValueError(f"unsupported language {tree.lang!r}")
    module = importlib.import_module(f"sofia.syntax.uses.{record.uses}")
    analyzer: Analyzer = module.Analyzer(tree, rel)
    return analyzer


def analyze(tree: Syntax, rel: str, words: Iterable[str]) -> FileUses:
    """Every occurrence of each of `words` in the file of `tree` (a Syntax or a SymbolTree; its
    path relative to the search root is `rel`), classified; imports that bind one of them under
    another name are followed within the file, so uses of the alias are uses of the word."""
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
    if any(o.field_of is not None for found in result.occurrences.values() for o in found):
        result.includes = tuple(analyzer.includes())
    return result


def _occurrences(analyzer: Analyzer, source: bytes, spelling: str, word: str) -> list[Occurrence]:
    found: list[Occurrence] = []
    length = len(spelling.encode("utf-8"))
    line, line_start, counted = 1, 0, 0
    for start in word_positions(source, spelling):
        root = analyzer.root_at(start)
        if root is None:
            occurrence = analyzer.outside(start, spelling)
        else:
            occurrence = _classify(analyzer, root.descendant_for_byte_range(start, start + length), spelling)
        # Positions come in order: count the newlines since the previous one, not the whole file.
        line += source.count(b"\n", counted, start)
        counted = start
        line_start = source.rfind(b"\n", line_start, start) + 1 or line_start
        occurrence.start = start
        occurrence.line = line
        occurrence.col = start - line_start + 1
        if spelling != word:
            occurrence.spelled = spelling
        found.append(occurrence)
    return found


def _classify(analyzer: Analyzer, node: Node, word: str) -> Occurrence:
    kind = node.type
    comments, strings = analyzer.comments, analyzer.strings
    if kind in comments:
        return Occurrence(0, 0, 0, COMMENT)
    if kind in strings:
        return Occurrence(0, 0, 0, STRING)
    text = node.text.decode("utf-8", "replace") if node.text is not None else ""
    name = text if text == word else analyzer.unescape(text)
    if kind in IDENTIFIERS or name == word:
        if name != word:
            return Occurrence(0, 0, 0, OTHER)
        return analyzer.classify(node, word)
    parent = node
    while parent is not None:  # a token inside a comment or string node the grammar splits further
        if parent.type in comments:
            return Occurrence(0, 0, 0, COMMENT)
        if parent.type in strings:
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
