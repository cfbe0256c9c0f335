"""What a `code` call could not follow, named so an agent can tell "none" from "could not tell".

Three kinds are counted, each in one note per call with file and line (`sofia.output.notes`):

* syntax error regions where declarations are listed (a file, class, interface, enum or
  namespace body): the grammar could not parse them, so a declaration there may have no row. An
  error inside a recovered declaration (a type, a parameter list, a body) is only counted in the
  document's `parse_errors`: its row is there and its cells are the source text as written;
* declarations the summariser has no row kind for (and script blocks it cannot parse);
* files given whole or skipped because they could not be summarised (no summariser for the type,
  too large or too slow to parse, no declaration recovered from a broken parse, unreadable).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sofia.output.notes import Place, not_followed
from sofia.syntax import SymbolTree, error_nodes
from sofia.syntax.tree import last_line

EXCERPT = 40
"""Characters of source text shown per place."""

_SCRIPT_LISTS = frozenset(
    {"program", "class_body", "interface_body", "enum_body", "export_statement", "ambient_declaration"}
)
DECLARATION_LISTS: dict[str, frozenset[str]] = {
    "js": _SCRIPT_LISTS,
    "ts": _SCRIPT_LISTS,
    "tsx": _SCRIPT_LISTS,
    "vue": _SCRIPT_LISTS,
    "python": frozenset({"module", "decorated_definition"}),
    "go": frozenset(
        {
            "source_file",
            "field_declaration_list",
            "interface_type",
            "type_declaration",
            "const_declaration",
            "var_declaration",
        }
    ),
    "php": frozenset({"program", "declaration_list", "enum_declaration_list", "namespace_definition"}),
}
"""Per language, the node kinds whose direct children are declarations."""
NAMESPACE_BODIES = frozenset({"internal_module", "module", "ambient_declaration", "class_definition"})
"""Kinds whose body block lists declarations too (TS namespaces, Python classes)."""
STATEMENT_SUFFIXES = ("_statement", "_declaration", "_definition", "_clause", "_directive")
"""Node kinds that are whole statements (a file-level error's children of other kinds are loose
pieces of a declaration the grammar could not put together)."""
REASONS = {
    "unsupported_type": "no summariser for this type",
    "too_large": "too large or too slow to parse",
    "parse_failed": "no declaration recovered from a broken parse",
}
"""Raw fallbacks that mean the file could not be summarised (not the deliberate ones)."""


def excerpt(text: str) -> str:
    line = text.strip().split("\n", 1)[0].strip()
    return line if len(line) <= EXCERPT else line[: EXCERPT - 1] + "…"


def lists_declarations(node: Any, lang: str) -> bool:
    """Whether `node`'s direct children are where declarations of `lang` are listed."""
    if node.type in DECLARATION_LISTS.get(lang, frozenset()):
        return True
    parent = node.parent
    return (
        node.type in ("statement_block", "block") and parent is not None and parent.type in NAMESPACE_BODIES
    )


def statement_like(node: Any) -> bool:
    kind: str = node.type
    return kind == "comment" or kind.endswith(STATEMENT_SUFFIXES)


def regions(node: Any, lang: str, outside: Callable[[Any], bool]) -> Iterator[tuple[Any, int]]:
    """Error regions under `node` where declarations are listed, as (first node, last line). When
    the whole file is an error (the grammar's recovery gave up at the top), its statements are
    still read: the regions are then its runs of loose pieces, and the errors inside statements."""
    for error in error_nodes(node):
        parent = error.parent
        if parent is None and error.is_error:
            run: list[Any] = []
            for child in error.children:
                if child.is_error or child.is_missing or not statement_like(child):
                    run.append(child)
                    continue
                if child.type == "comment" and run:
                    continue
                if run:
                    yield run[0], last_line(run[-1])
                    run = []
                if child.has_error:
                    yield from regions(child, lang, outside)
            if run:
                yield run[0], last_line(run[-1])
        elif parent is None or lists_declarations(parent, lang) or outside(error):
            yield error, last_line(error)


def outside_symbols(tree: SymbolTree) -> Callable[[Any], bool]:
    """Whether a node starts outside every declaration of the tree (SFC blocks do not count)."""
    spans = sorted((s.slice_start_byte, s.end_byte) for s in tree.walk() if not s.qname.startswith("<"))
    starts = [start for start, _ in spans]

    def outside(node: Any) -> bool:
        at: int = node.start_byte
        index = bisect.bisect_right(starts, at)
        return not any(start <= at < end for start, end in spans[:index])

    return outside


def error_places(tree: SymbolTree, rel: str) -> list[Place]:
    """One place per line holding the start of an error region where declarations are listed or
    outside every declaration (where the grammar's recovery may have turned one into plain code)."""
    if not tree.unparsed and not any(parsed.root_node.has_error for parsed in tree.trees):
        return []  # the common case: no region to place, and the spans cost 0.05-0.3 ms a file
    places: dict[int, Place] = {}
    lines: list[bytes] = []
    for start, end in tree.unparsed:  # bodies read without what they hold
        lines = lines or tree.source.split(b"\n")
        line = tree.source.count(b"\n", 0, start) + 1
        last = tree.source.count(b"\n", 0, end) + 1
        text = excerpt(lines[line - 1].decode("utf-8", "replace"))
        places.setdefault(line, Place(rel, line, f"(body not parsed, to line {last}) {text}"))
    outside = outside_symbols(tree)
    for parsed in tree.trees:
        for node, end in regions(parsed.root_node, tree.lang, outside):
            line = node.start_point.row + 1
            lines = lines or tree.source.split(b"\n")
            text = excerpt(lines[line - 1].decode("utf-8", "replace")) if line <= len(lines) else ""
            if node.is_missing:
                text = f"(missing {node.type}) {text}"
            if end > line:
                text += f" (to line {end})"
            places.setdefault(line, Place(rel, line, text))
    return [places[line] for line in sorted(places)]


@dataclass
class Unfollowed:
    """The places of one call, by kind, in file order."""

    errors: list[Place] = field(default_factory=list)
    declarations: list[Place] = field(default_factory=list)
    files: list[Place] = field(default_factory=list)

    def extend(self, other: Unfollowed) -> None:
        self.errors.extend(other.errors)
        self.declarations.extend(other.declarations)
        self.files.extend(other.files)

    def notes(self) -> list[str]:
        found = []
        if self.errors:
            found.append(
                not_followed(
                    "syntax error regions",
                    self.errors,
                    "the grammar could not parse them; declarations there may have no row",
                )
            )
        if self.declarations:
            found.append(not_followed("declarations", self.declarations, "no summary row for their kind"))
        if self.files:
            found.append(not_followed("files", self.files, "not summarised"))
        return found


def of_summary(tree: SymbolTree, rel: str, skipped: Iterable[tuple[int, str]]) -> Unfollowed:
    return Unfollowed(
        errors=error_places(tree, rel),
        declarations=[Place(rel, line, excerpt(text)) for line, text in sorted(skipped)],
    )


def of_document(document: dict[str, Any]) -> Unfollowed:
    """A file that could not be summarised: a raw fallback of REASONS, or a skipped file."""
    reason = str(document.get("reason", ""))
    if document.get("mode") == "skipped":
        return Unfollowed(files=[Place(document["path"], 0, reason)])
    if document.get("mode") == "raw" and reason in REASONS:
        return Unfollowed(files=[Place(document["path"], 0, f"shown whole: {REASONS[reason]}")])
    return Unfollowed()
