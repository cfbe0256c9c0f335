"""Symbols of a query-driven language: one tree-sitter query names its declarations, and a `Spec`
of node tables says how they attach doc comments and annotations and how they qualify names
(docs/adding-a-language.md). Java, Kotlin, C#, C, C++, Rust, Ruby and Swift are read this way.

A language module (`sofia.syntax.languages.<name>`) exposes `SPEC`; its query file beside it
(`<name>.scm`) captures each declaration as `@definition.<kind>` with its name as `@name`, and
containers that qualify their members without being symbols themselves (a Rust `impl`, a Swift
`extension`) as `@scope.<kind>`. Row-only kinds (fields, constants, enum cases) are captured the
same way and summarised, but are not symbols: grep's chain and slices name declarations with
bodies, as in the other languages.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from sofia.syntax import bodies, registry, resync
from sofia.syntax.bodies import Outline
from sofia.syntax.grammars import LanguageUnsupported, count_errors, language, parse_bytes
from sofia.syntax.tree import (
    Node,
    Symbol,
    SymbolTree,
    attached_above,
    forget_positions,
    last_line,
    make_symbol,
    position,
    text_of,
)
from sofia.syntax.uses.tables import Uses

SYMBOL_KINDS = frozenset(
    {
        "class",
        "interface",
        "trait",
        "enum",
        "struct",
        "union",
        "type",
        "namespace",
        "module",
        "function",
        "method",
        "macro",
        "prototype",
    }
)
"""Kinds that are symbols (sliced, named by grep and changed); the others are summary rows only.
A `prototype` is a function declared without its body (C's `void kfree(const void *);`)."""
ROW_KINDS = frozenset({"field", "property", "constant", "case", "var"})
TYPE_KINDS = frozenset(
    {"class", "interface", "trait", "enum", "struct", "union", "type", "namespace", "module"}
)
FUNCTION_KINDS = frozenset({"function", "method", "macro", "prototype"})
_DECLARING_KINDS = SYMBOL_KINDS | ROW_KINDS
"""Kinds that declare something; a capture of any other kind is a scope (`@scope.impl`)."""


@dataclass(frozen=True)
class Spec:
    """What a query-driven language declares beside its query file (docs/adding-a-language.md)."""

    query: str
    """The query file's name beside the language module (`java.scm`)."""
    comments: frozenset[str]
    """Comment node types: counted apart by refs, attached above a declaration as its doc."""
    strings: frozenset[str]
    """String and character literal node types (and their content nodes)."""
    attached: frozenset[str] = frozenset()
    """Sibling node types above a declaration that belong to it besides comments (annotations,
    attributes written before it)."""
    bodies: frozenset[str] = frozenset()
    """Body node types: a declaration's signature is its header up to the body."""
    modifiers: frozenset[str] = frozenset()
    """Node types holding modifiers and annotations inside a declaration."""
    annotations: frozenset[str] = frozenset()
    """Annotation and attribute node types (the `attrs` cell)."""
    keywords: frozenset[str] = frozenset()
    """Words dropped from a signature: the declaring keyword (`fn`, `fun`, `def`)."""
    relations: dict[str, str] = field(default_factory=dict)
    """Child node type of a type declaration → `extends` or `implements`."""
    lists: frozenset[str] = frozenset()
    """Node types that only group relations (`type_list`): their children are the relations."""
    visibility: Callable[[Node, str, str, list[str]], str] | None = None
    """(declaration, kind, owner kind, modifier words) → public, protected, private, internal…;
    default: the first visibility word among the modifiers, else public."""
    qualifier: str = ""
    """A separator a name may be written with in a definition (`Foo::bar` out of line)."""
    returns: Callable[[Node], Node | None] | None = None
    """A function declaration → the type it is declared to return (`fn new() -> Self`,
    `Foo create()`), None where it declares none: refs types `let x = Foo::new()` by it."""
    spellings: Callable[[str], list[str]] | None = None
    """A requested qname → other qnames it may stand for in this language, as its code calls
    them (Kotlin's `Foo.create` for `Foo.Companion.create`)."""
    escaped: re.Pattern[str] | None = None
    """How the language writes a keyword or free text as a name, its group the name itself
    (Rust's `r#type`, C#'s `@class`, Kotlin's `` `in` `` or `` `adds two numbers` ``): a
    definition is named, a use matched and a lookup read as the compiler reads it (`unescape`)."""
    signature: Callable[[Node, Node, bytes], str] | None = None
    """(declaration, name node, source) → the `sig` cell, where header-minus-name will not do."""
    import_text: Callable[[Node], str] | None = None
    """An import node → the imported path as the summary lists it."""
    uses: Uses | None = None
    """How refs classifies a name's occurrences (`sofia.syntax.uses.queried`)."""
    symbol_rows: frozenset[str] = frozenset()
    """Row kinds that are symbols too in this language (C# and Kotlin properties have accessor
    bodies: sliced, and named by grep and changed)."""
    receiver: Callable[[Node], str] | None = None
    """A declaration → the type it is declared on from outside that type, which owns it (Kotlin's
    extension `fun Foo.bar()` → `Foo`); "" for none."""
    mods: Callable[[Node, list[str]], list[str]] | None = None
    """(declaration, modifier words) → the words of its `mods` cell; default: the words that are
    not visibility (Kotlin's `open` is a modifier; a declaring keyword may be shown)."""
    relation: Callable[[Node], tuple[str, str]] | None = None
    """One related type (a child of a `relations` node, or of a `lists` node in it) → (`extends`,
    `implements` or "" to leave it out, its text), where the node type alone does not tell a base
    class from an interface (C#'s `: Base, IFoo`, Kotlin's `Base()` against `Iface`)."""
    detail: Callable[[Node], str] | None = None
    """A type declaration → its `detail` cell, where type parameters do not say enough (a C#
    delegate's signature, a Kotlin typealias's target)."""
    named: Callable[[str, Node, Node], Named | None] | None = None
    """(captured kind, declaration, captured @name) → what the match declares, or None to drop it:
    for names inside nested declarators (C's `*copy_process(...)`, `(*getfn(void))(int)`), where
    the declarator decides the kind (a prototype or a variable) and a qualified name its owners
    (`ns::Foo::bar`)."""
    wrappers: frozenset[str] = frozenset()
    """Node types around a declaration that belong to it (C++ `template <...>`): its slice and
    attached comments start at the outermost one."""
    through: frozenset[str] = frozenset()
    """Body node types whose leading comments the grammar places before the body, not in it
    (Ruby's `body_statement`): a comment opening a class body belongs to its first member."""
    member_separator: Callable[[Node, str], str] | None = None
    """(declaration, kind) → the separator between its owner and its name in its qname, where the
    language's own (the registry's `separator`) does not fit: Ruby's `Foo#bar` for an instance
    method, `Foo.bar` for a singleton one; "" keeps the language's."""
    related: Callable[[Node], list[tuple[str, str]]] | None = None
    """A type declaration → more (`extends`, `implements` or `uses`, text) relations than its
    `relations` children hold: modules a Ruby class mixes in, traits a Rust `impl Trait for Foo`
    beside it implements."""
    prepare: Callable[[bytes], bytes] | None = None
    """The source → the bytes the grammar reads, of the same length so every offset holds: C
    blanks the attribute macros the grammar cannot know (`__init`, `__user`)."""
    binding_query: str = ""
    """A second query file beside the first (`c.bindings.scm`) holding the `@binding` patterns:
    run only when refs reads a file's typed bindings, so a summary never pays for matching every
    local and parameter."""
    literal: Callable[[Node], str | None] | None = None
    """A captured `@value` → its literal text, "" for an expression, None to let its node type
    tell, where the type does not (a C macro's body is raw text: `0x0002` is a literal,
    `(1 << 3)` is not)."""
    via: Callable[[Node], str] | None = None
    """A function → its `via` cell: what it implements for its owner (a Rust method of an
    `impl Trait for Type` block: the trait), "" for none."""
    value_type: Callable[[Node, Node], str] | None = None
    """(declaration, name node) → the `type` cell of a field, constant or variable row, where the
    `@type` capture is only part of it (C's `char *names[4]` is a `char *[4]`)."""
    regions: Callable[[bytes, Sequence[int]], list[tuple[int, int]]] | None = None
    """(source, offsets of a name) → the byte ranges of the file-level declarations holding them:
    refs parses only those where they are a small part of the file (`sofia.syntax.regions`)."""
    resync: re.Pattern[bytes] | None = None
    """Where a file-level declaration starts again after a region the grammar could not parse
    (C: the line after a `}` in column 0): such a region is parsed again piece by piece
    (`sofia.syntax.resync`)."""
    resync_nodes: frozenset[str] = frozenset()
    """File-level node types besides ERROR that are parsed again when they hold a `resync`
    boundary before their end: a C function the grammar let run on over the functions after it
    (a loop macro like `} while_each_thread(g, t);` leaves its body open)."""
    nested_packages: bool = False
    """Each package clause after the first names a package inside the one before (Scala's
    `package scala.tools` then `package nsc` is `scala.tools.nsc`); by default the first one is
    the file's."""
    default_visibility: str = "public"
    """The visibility a declaration has when none is written (Swift's `internal`, Java's package
    access): the text form of a summary leaves it out of the `mods` cell."""
    outline: Outline | None = None
    """How the language's function bodies are found in its text, so a summary's parse can leave
    them out (`sofia.syntax.bodies`); None: a summary parses the whole file."""


@dataclass(frozen=True)
class Named:
    """What a language's `named` hook makes of a captured name."""

    kind: str
    node: Node
    """The name as written, qualifiers included: its line is the declaration's, a signature
    leaves it out."""
    name: str
    owners: tuple[str, ...] = ()


VISIBILITY_WORDS = ("public", "protected", "private", "internal", "fileprivate", "open", "package")


@dataclass
class Declaration:
    """One captured declaration: its node, kind, name, owner chain, and the match's other captures."""

    node: Node
    kind: str
    name: str
    name_node: Node
    captures: dict[str, list[Node]]
    scope: bool = False
    owner: Declaration | None = None
    owner_names: tuple[str, ...] = ()
    """Qualifiers written in the name itself (`Foo` of an out-of-line `Foo::bar`)."""
    _path: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def end(self) -> Node:
        """The node whose end closes the declaration: its own, or the query's `@end` (the body
        after a C macro that defines a function: `SYSCALL_DEFINE1(name, ...) { ... }`)."""
        ends = self.captures.get("end")
        return ends[0] if ends else self.node

    @property
    def path(self) -> tuple[str, ...]:
        """Owner names outermost first, then this declaration's own name (worked out once its
        owner is known: summaries and symbols ask for it several times a declaration)."""
        path = self._path
        if path is None:
            owner = self.owner
            path = (*(owner.path if owner is not None else ()), *self.owner_names, self.name)
            self._path = path
        return path


@dataclass
class Parsed:
    """A file's tree and its declarations in source order (what summaries and uses read)."""

    lang: str
    source: bytes
    tree: Any
    declarations: list[Declaration]
    package: str = ""
    imports: list[Node] = field(default_factory=list)
    bindings: list[dict[str, list[Node]]] = field(default_factory=list)
    """Typed bindings the query captures (`@binding` with `@binding.name`, `@binding.type`,
    `@binding.value`): locals, parameters and fields, for refs' receivers (`typed_bindings`
    adds those of the language's `binding_query`)."""
    roots: list[Node] = field(default_factory=list)
    """The roots the query ran over: the file's tree, then the pieces parsed again."""
    bindings_read: bool = False
    unparsed: list[tuple[int, int]] = field(default_factory=list)
    """Function bodies `tree` was parsed without, the grammar having failed in them in a way that
    undid the declarations around them (`bodies.repaired`); `broken` is the parse with them."""
    broken: Any | None = None


def spec_of(lang: str) -> Spec:
    """The language's Spec; LanguageUnsupported when its module cannot be had."""
    spec = _SPECS.get(lang)
    if spec is None:
        spec = _SPECS[lang] = _spec_of(lang)
    return spec


_SPECS: dict[str, Spec] = {}
"""Specs already had, by language: looking a module up again costs as much as a small lookup in
the tree, and the engines ask for every declaration and occurrence."""


def _spec_of(lang: str) -> Spec:
    record = registry.language(lang)
    if record is None or not record.spec:
        raise LanguageUnsupported(f"no query-driven language named {lang!r}")
    try:
        spec: Spec = importlib.import_module(record.spec).SPEC
    except ModuleNotFoundError as error:
        if error.name != record.spec:
            raise
        raise LanguageUnsupported(f"no language module for {lang}") from error
    return spec


def compiled(lang: str) -> Any:
    """The language's query as a read runs it, compiled once per process: without the patterns
    that capture only typed bindings (`@binding`), which `typed_bindings` runs when refs asks
    (matching every local and parameter cost a summary a quarter of the query's time)."""
    return _compiled(lang, spec_of(lang).query, _READS)


_READS = "reads"
_BINDINGS = "bindings"


@cache
def _compiled(lang: str, name: str, part: str = "") -> Any:
    """The query file `name` of `lang`; its patterns without `@binding` captures (`part` is
    _READS), or only those with them (_BINDINGS)."""
    from tree_sitter import Query

    text = _query_text(lang, name)
    query = Query(language(_grammar(lang)), text)
    if part:
        raw = text.encode("utf-8")
        for index in range(query.pattern_count):
            pattern = raw[query.start_byte_for_pattern(index) : query.end_byte_for_pattern(index)]
            if (b"@binding" in pattern) == (part == _READS):
                query.disable_pattern(index)
    return query


def _binding_patterns(lang: str) -> Any | None:
    """The query of the language's typed bindings: its `binding_query`, else the patterns of its
    query that capture them (None when there are none)."""
    spec = spec_of(lang)
    if spec.binding_query:
        return _compiled(lang, spec.binding_query)
    if "@binding" not in _query_text(lang, spec.query):
        return None
    return _compiled(lang, spec.query, _BINDINGS)


@cache
def _query_text(lang: str, name: str) -> str:
    record = registry.language(lang)
    assert record is not None
    module = importlib.import_module(record.spec)
    return (Path(module.__file__ or "").parent / name).read_text(encoding="utf-8")


def typed_bindings(parsed: Parsed) -> list[dict[str, list[Node]]]:
    """A file's typed bindings: the matches of the language's binding patterns (its
    `binding_query`, or the `@binding` patterns of its query), run over the same trees the first
    time they are asked for."""
    if not parsed.bindings_read:
        parsed.bindings_read = True
        query = _binding_patterns(parsed.lang)
        if query is not None:
            for _, captures in _matches(query, parsed.roots or [parsed.tree.root_node]):
                if "binding" in captures:
                    parsed.bindings.append(captures)
    return parsed.bindings


def trees(source: bytes, lang: str, words: Sequence[str] = ()) -> list[Any]:
    """The tree refs classifies on: the language's prepared source, parsed whole, or where the
    language can tell its file-level declarations apart, only those holding `words`."""
    tree = _in_regions(source, lang, words)
    if tree is None:
        spec = spec_of(lang)
        tree = _whole(spec, lang, source, _prepared(spec, source))
    return [tree]


def _in_regions(source: bytes, lang: str, words: Sequence[str]) -> Any | None:
    """The tree of only the file-level declarations holding `words` (only those prepared:
    preparing reads the whole file as slowly as the grammar would), or None where the language
    cannot tell them apart or they are most of the file."""
    from sofia.syntax import regions
    from sofia.syntax.uses.nodes import word_positions

    spec = spec_of(lang)
    if not words or spec.regions is None:
        return None
    positions = [p for word in words for p in word_positions(source, word)]
    spans = spec.regions(source, positions)
    included = regions.ranges(source, spans)
    if included is None:
        return None
    prepared = regions.prepared(source, spans, spec.prepare) if spec.prepare is not None else source
    tree = parse_bytes(prepared, _grammar(lang), ranges=included)
    _PREPARED[:] = [(tree, prepared)]
    return tree


def _whole(spec: Spec, lang: str, source: bytes, prepared: bytes) -> Any:
    """The tree of the whole file; parsed again without the function bodies the grammar could
    not read where one of them made it lose the declarations around it (`bodies.repaired`: the
    bodies left out are then the tree's `_REPAIRED` entry)."""
    grammar = _grammar(lang)
    tree = parse_bytes(prepared, grammar)
    _PREPARED[:] = [(tree, prepared)]
    if spec.outline is None or not tree.root_node.has_error:
        return tree
    found = bodies.repaired(source, tree, grammar, spec.outline, spec.prepare)
    if found is None:
        return tree
    fixed, read, left_out = found
    _PREPARED[:] = [(fixed, read)]
    _REPAIRED[:] = [(fixed, left_out, tree)]
    return fixed


_REPAIRED: list[tuple[Any, list[tuple[int, int]], Any]] = []
"""The last tree `_whole` parsed again without bodies: it, the bodies left out, the first parse."""


_PREPARED: list[tuple[Any, bytes]] = []
"""The last tree `trees` parsed and the bytes it read: reading its declarations needs them again
(pieces parsed again after an error), and preparing them twice cost as much as the parse."""


def _prepared(spec: Spec, source: bytes, tree: Any | None = None) -> bytes:
    """The bytes the grammar reads for `source` (the same as those `tree` was parsed from)."""
    if tree is not None and _PREPARED and _PREPARED[0][0] is tree:
        return _PREPARED[0][1]
    return spec.prepare(source) if spec.prepare is not None else source


def _grammar(lang: str) -> str:
    record = registry.language(lang)
    assert record is not None
    return record.grammar


_LAST: list[Parsed] = []
"""The last file read: the summariser and the use classifier read the tree the symbol layer just
built, and the query is not run twice on it."""


def read(source: bytes, lang: str, tree: Any | None = None) -> Parsed:
    """Parse (unless `tree` is given) and run the language's query once per tree."""
    if tree is not None and _LAST and _LAST[0].tree is tree and _LAST[0].lang == lang:
        return _LAST[0]
    parsed = _read(source, lang, tree)
    _LAST[:] = [parsed]
    return parsed


def _read(source: bytes, lang: str, tree: Any | None) -> Parsed:
    forget_positions()
    spec = spec_of(lang)
    prepared = _prepared(spec, source, tree)
    if tree is None:
        tree = _whole(spec, lang, source, prepared)
        prepared = _prepared(spec, source, tree)
    declarations: list[Declaration] = []
    package = ""
    imports: list[Node] = []
    bindings: list[dict[str, list[Node]]] = []
    seen: set[tuple[int, int, str, int]] = set()
    roots: list[Node] = [tree.root_node]
    spans: list[tuple[int, int]] = []
    if spec.resync is not None:
        spans, pieces = resync.pieces(
            prepared, _grammar(lang), tree.root_node, spec.resync, spec.resync_nodes
        )
        roots.extend(piece.root_node for piece in pieces)
    for root, captures in _matches(compiled(lang), roots):
        if spans and root is roots[0] and any(resync.within(n[0], spans) for n in captures.values()):
            continue
        for capture, nodes in captures.items():
            role, kind = _ROLES.get(capture) or _role(capture)
            if role == "package":
                if not package or spec.nested_packages:
                    text = _package_text((captures.get("name") or nodes)[0])
                    package = f"{package}.{text}" if package else text
            elif role == "import":
                imports.extend(nodes)
            elif role == "binding":
                bindings.append(captures)
            elif role == "definition":
                node = nodes[0]
                names = captures.get("name") or _named_by_field(node)
                if not names:
                    continue
                for name_node in names:
                    key = (node.start_byte, node.end_byte, kind, name_node.start_byte)
                    if key in seen:
                        continue
                    seen.add(key)
                    declaration = _declaration(spec, node, kind, name_node, captures)
                    if declaration is not None:
                        declarations.append(declaration)
    declarations.sort(key=lambda d: (d.node.start_byte, -d.node.end_byte, d.name_node.start_byte))
    _nest(declarations)
    imports.sort(key=lambda n: n.start_byte)
    parsed = Parsed(lang, source, tree, declarations, package, list(dict.fromkeys(imports)), bindings, roots)
    if _REPAIRED and _REPAIRED[0][0] is tree:
        parsed.unparsed, parsed.broken = _REPAIRED[0][1], _REPAIRED[0][2]
    return parsed


_ROLES: dict[str, tuple[str, str]] = {}
"""Capture name → (what a read does with it, the declared kind): every match of a file asks."""


def _role(capture: str) -> tuple[str, str]:
    """`package`, `import` and `binding` as named; `definition` with its kind for
    `@definition.<kind>` and `@scope.<kind>`; ("", "") for the captures a match only carries."""
    if capture in ("package", "import", "binding"):
        role = (capture, "")
    elif capture.startswith(("definition.", "scope.")):
        role = ("definition", capture.split(".", 1)[1])
    else:
        role = ("", "")
    _ROLES[capture] = role
    return role


def _matches(query: Any, roots: list[Node]) -> Iterator[tuple[Node, dict[str, list[Node]]]]:
    """The query's matches in each tree, the file's own first, then the pieces parsed again."""
    from tree_sitter import QueryCursor

    for root in roots:
        for _, captures in QueryCursor(query).matches(root):
            yield root, captures


def _named_by_field(node: Node) -> list[Node]:
    """The name of a definition whose pattern captures no `@name`: the node's first `name` field.
    A typed child step can cost a grammar's query hundreds of milliseconds to compile (Swift's
    `function_declaration name: (simple_identifier)`, whose return type is a `name` field too),
    where the bare node costs nothing (docs/adding-a-language.md)."""
    field = node.child_by_field_name("name")
    return [field] if field is not None else []


def _package_text(node: Node) -> str:
    return "".join(text_of(node).split()).removesuffix(";")


def _declaration(
    spec: Spec, node: Node, kind: str, name_node: Node, captures: dict[str, list[Node]]
) -> Declaration | None:
    if spec.named is not None:
        named = spec.named(kind, node, name_node)
        if named is None:
            return None
        return Declaration(
            node=node,
            kind=named.kind,
            name=unescape(spec, named.name),
            name_node=named.node,
            captures=captures,
            scope=not named.kind or named.kind not in _DECLARING_KINDS,
            owner_names=named.owners,
        )
    text = text_of(name_node)
    owner_names: tuple[str, ...] = ()
    if spec.qualifier and spec.qualifier in text:
        *owners, text = [part for part in text.split(spec.qualifier)]
        owner_names = tuple(_base(owner) for owner in owners if owner)
    receiver = spec.receiver(node) if spec.receiver is not None else ""
    if receiver:
        owner_names = (*owner_names, receiver)
    name = unescape(spec, text)
    return Declaration(
        node=node,
        kind=kind,
        name=name if name != text else _base(text),
        name_node=name_node,
        captures=captures,
        scope=not kind or kind not in _DECLARING_KINDS,
        owner_names=owner_names,
    )


def returns_field(name: str) -> Callable[[Node], Node | None]:
    """A `Spec.returns` reading the declaration's `name` field (`return_type`, `type`)."""

    def returned(node: Node) -> Node | None:
        found: Node | None = node.child_by_field_name(name)
        return found

    return returned


BACKTICKED = re.compile(r"`([^`\n]+)`")
"""A name in backticks (Kotlin, Swift, Scala): a keyword as a name, or a test named in words."""


def unescape(spec: Spec, text: str) -> str:
    """`text` as the language's compiler reads it: an escaped name without its escape (`r#type`
    is `type`, `` `adds two numbers` `` is `adds two numbers`); any other text unchanged."""
    if spec.escaped is None:
        return text
    whole = spec.escaped.fullmatch(text)
    return whole.group(1) if whole else text


def _base(text: str) -> str:
    """A name without type arguments or a pointer sigil (`Cache<K>` → `Cache`, `*Foo` → `Foo`)."""
    name = "".join(text.split()).lstrip("*&")
    angle = name.find("<")
    if angle > 0:
        name = name[:angle]
    return name


def _nest(declarations: list[Declaration]) -> None:
    """Each declaration's owner: the innermost symbol or scope whose node holds it. An alias
    (`type`) owns nothing: the struct a C `typedef struct foo {...} foo_t;` holds is `foo`."""
    stack: list[Declaration] = []
    for declaration in declarations:
        while stack and not _holds(stack[-1].node, declaration.node):
            stack.pop()
        owners = [d for d in stack if d.kind not in ROW_KINDS and d.kind != "type"]
        declaration.owner = owners[-1] if owners else None
        declaration._path = None
        if declaration.kind not in ROW_KINDS:
            stack.append(declaration)


def _holds(outer: Node, inner: Node) -> bool:
    held: bool = outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte and outer != inner
    return held


def extract(source: bytes, lang: str, name: str = "") -> SymbolTree:
    parsed = read(source, lang)
    return symbol_tree(parsed)


def holding(source: bytes, lang: str, name: str = "", words: Sequence[str] = ()) -> SymbolTree:
    """The symbol tree a lookup of `words` reads: where the language tells its file-level
    declarations apart (`Spec.regions`), only those holding one of the words are parsed, since a
    definition of a word holds the word. The whole file's (`extract`) where that cannot be
    trusted: a definition of a word that shows an error, or a word inside an ERROR node (a
    region cut short or begun inside a declaration reads as one; so does a body the grammar could
    not read, which the whole parse may repair)."""
    tree = _in_regions(source, lang, words)
    if tree is None:
        return extract(source, lang, name)
    parsed = read(source, lang, tree)
    if any(d.node.has_error for d in parsed.declarations if d.name in words) or _word_in_error(
        tree, source, words
    ):
        return extract(source, lang, name)
    return symbol_tree(parsed)


def _word_in_error(tree: Any, source: bytes, words: Sequence[str]) -> bool:
    """Whether an occurrence of one of `words` lies where the regions' parse may have misread
    it: inside an ERROR node, or in a file-level declaration showing an error, unless it is in
    the body of a function whose head read clean (an error in a body changes no definition)."""
    from sofia.syntax.uses.nodes import word_positions

    root = tree.root_node
    if not root.has_error:
        return False
    for word in words:
        size = len(word.encode("utf-8"))
        for offset in word_positions(source, word):
            node = root.descendant_for_byte_range(offset, offset + size)
            top = node
            while node is not None and node != root:
                if node.is_error:
                    return True
                top, node = node, node.parent
            if top is not None and top.has_error and not _in_clean_function_body(top, offset):
                return True
    return False


def _in_clean_function_body(top: Node, position: int) -> bool:
    body = top.child_by_field_name("body") if top.type == "function_definition" else None
    if body is None or not body.start_byte <= position < body.end_byte:
        return False
    return not any(child.has_error for child in top.children if child != body)


def outline(source: bytes, lang: str, name: str = "") -> SymbolTree:
    """The symbol tree a summary reads: that of `extract`, but parsed without the function bodies
    the language's `outline` lexicon finds (a summary shows none of what they hold), which is
    most of the parse of a C or Java file. Its `parse_errors` count the errors outside them."""
    spec = spec_of(lang)
    if spec.outline is None:
        return extract(source, lang, name)
    found = bodies.outline(source, _grammar(lang), spec.outline, spec.prepare)
    if found is None:
        tree = _whole(spec, lang, source, _prepared(spec, source))
        found = tree, _prepared(spec, source, tree)
    _PREPARED[:] = [found]
    return _OutlineTree(read(source, lang, found[0]))


def symbol_tree(parsed: Parsed) -> SymbolTree:
    """The symbols of a parsed file: declarations of symbol kinds, nested under their owners."""
    return SymbolTree(
        lang=parsed.lang,
        source=parsed.source,
        symbols=_symbols(parsed),
        parse_errors=count_errors(parsed.tree.root_node) + len(parsed.unparsed),
        trees=[parsed.tree],
        unparsed=parsed.unparsed,
    )


class _OutlineTree(SymbolTree):
    """A summary's tree, whose symbols are built the first time they are read: the summary reads
    the declarations themselves, and only a file with parse errors looks at its symbols (a tenth of
    a 50 KB Rust or C file's summary went to building them)."""

    def __init__(self, parsed: Parsed) -> None:
        self._parsed: Parsed | None = parsed
        self._built: list[Symbol] | None = None
        super().__init__(
            lang=parsed.lang,
            source=parsed.source,
            symbols=[],
            parse_errors=count_errors(parsed.tree.root_node) + len(parsed.unparsed),
            trees=[parsed.tree],
            unparsed=parsed.unparsed,
        )

    @property
    def symbols(self) -> list[Symbol]:
        if self._built is None and self._parsed is not None:
            self._built, self._parsed = _symbols(self._parsed), None
        return self._built if self._built is not None else []

    @symbols.setter
    def symbols(self, value: list[Symbol]) -> None:
        if value or self._built is not None:  # the constructor's placeholder keeps the build pending
            self._built, self._parsed = value, None


def _symbols(parsed: Parsed) -> list[Symbol]:
    spec = spec_of(parsed.lang)
    separator = registry.separator(parsed.lang)
    attached = spec.comments | spec.attached
    by_declaration: dict[int, Symbol] = {}
    roots: list[Symbol] = []
    for declaration in parsed.declarations:
        if declaration.kind not in SYMBOL_KINDS and declaration.kind not in spec.symbol_rows:
            continue
        owner = _symbol_owner(declaration)
        qualifier = separator.join(declaration.path[:-1])
        joint = spec.member_separator(declaration.node, declaration.kind) if spec.member_separator else ""
        symbol = make_symbol(
            parsed.source,
            declaration.kind,
            declaration.name,
            qualifier,
            declaration.node,
            separator=joint or separator,
            end=declaration.end,
            first=attached_above(_outermost(declaration.node, spec.wrappers), attached, through=spec.through),
            line=min(declaration.name_node.start_point.row + 1, last_line(declaration.node)),
        )
        by_declaration[id(declaration)] = symbol
        parent = by_declaration.get(id(owner)) if owner is not None else None
        (parent.children if parent is not None else roots).append(symbol)
    return roots


def _outermost(node: Node, wrappers: frozenset[str]) -> Node:
    """The outermost of the `wrappers` around a declaration (`template <...>`), else the node."""
    if not wrappers:
        return node
    parent = node.parent
    while parent is not None and parent.type in wrappers:
        node, parent = parent, parent.parent
    return node


def _symbol_owner(declaration: Declaration) -> Declaration | None:
    owner = declaration.owner
    while owner is not None and owner.kind not in SYMBOL_KINDS:
        owner = owner.owner
    return owner


# --- helpers the summariser and the use classifier share ----------------------------------------


def modifiers_of(spec: Spec, node: Node) -> tuple[list[str], list[str]]:
    """A declaration's modifier keywords in source order, and the annotations written among its
    children (its own attribute lists, C#'s, then those inside its modifiers): one walk over the
    children for both (a summary row reads every declaration's)."""
    modifiers, annotations, comments = spec.modifiers, spec.annotations, spec.comments
    words: list[str] = []
    own: list[str] = []
    inner: list[str] = []
    for child in node.children:
        kind = child.type
        if kind in modifiers:
            for part in child.children:
                part_kind = part.type
                if part_kind in annotations:
                    inner.append(_flat(part))
                elif part_kind not in comments:
                    words.extend(text_of(part).split())
        elif kind in annotations:
            own.append(_flat(child))
    return words, own + inner


def annotations_above(spec: Spec, node: Node) -> list[str]:
    """The annotations and attributes attached above a declaration, in source order; none where
    the language attaches none (a sibling above is only passed over when it is a comment)."""
    annotations, attached, comments = spec.annotations, spec.attached, spec.comments
    if not attached and annotations.isdisjoint(comments):
        return []
    above: list[str] = []
    _, children, index = position(node)
    for at in range(index - 1, -1, -1):
        kind = children[at].type
        if kind not in attached and kind not in comments:
            break
        if kind in annotations or kind in attached:
            above.append(_flat(children[at]))
    above.reverse()
    return above


def _flat(node: Node) -> str:
    """A node's text on one line, its runs of white space one space each."""
    return " ".join(text_of(node).split())


def visibility(spec: Spec, declaration: Declaration, words: list[str]) -> str:
    owner_kind = declaration.owner.kind if declaration.owner is not None else ""
    if spec.visibility is not None:
        return spec.visibility(declaration.node, declaration.kind, owner_kind, words)
    return next((w for w in words if w in VISIBILITY_WORDS), "public")


def header(spec: Spec, node: Node, name_node: Node, source: bytes) -> str:
    """A declaration's signature: its header up to the body, without modifiers, annotations,
    comments, the declaring keyword and the name itself."""
    if spec.signature is not None:
        return spec.signature(node, name_node, source)
    parts: list[str] = []
    bodies, modifiers, annotations, comments = spec.bodies, spec.modifiers, spec.annotations, spec.comments
    keywords = spec.keywords
    name_start, name_end = name_node.start_byte, name_node.end_byte
    for child in node.children:
        kind = child.type
        if kind in bodies:
            break
        if kind in modifiers or kind in annotations or kind in comments:
            continue
        if child == name_node:
            parts.append("\0")
            continue
        if child.start_byte <= name_start and name_end <= child.end_byte:  # holds the name
            parts.append("\0" if kind.endswith("identifier") else _without(child, name_node, spec))
            continue
        text = text_of(child)
        if text in keywords or (text == ";" and not child.is_named):
            continue
        parts.append(text)
    joined = " ".join(parts).replace(" ,", ",")
    before, _, after = joined.partition("\0")
    before, after = before.strip(), after.strip()
    return " ".join(f"{before} {after}".split()).strip() if before else " ".join(after.split())


def _without(node: Node, name_node: Node, spec: Spec) -> str:
    """A header part holding the name (a C declarator): its text with the name cut out."""
    raw = text_of(node)
    offset = name_node.start_byte - node.start_byte
    length = name_node.end_byte - name_node.start_byte
    data = (node.text or b"")[:offset] + b"\0" + (node.text or b"")[offset + length :]
    return data.decode("utf-8", "replace") if raw else ""
