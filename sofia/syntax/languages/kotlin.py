"""Kotlin: classes (data, sealed, inner, abstract, annotation classes), interfaces (`fun
interface` too), enum classes (entries as cases), objects (kind `class`, `object` among the
mods), type aliases, functions at every level and secondary constructors (named `constructor`),
properties of files, classes and objects (rows that are also symbols: getters and setters have
bodies), a primary constructor's `val`/`var` parameters (property rows), and `const val`
constants. KDoc above a declaration and the annotations in its modifiers belong to it.

A companion object is a class (`companion` and `object` among its mods) holding its members:
`Widget.Companion.create`, or `Widget.Factory.create` for `companion object Factory`, as the JVM
and ctags name them (Kotlin code calls it `Widget.create`). An extension is owned by the type it extends:
`fun String.slug()` is `String.slug`, `val Int.kb` is `Int.kb`. A delegation specifier calling a
constructor (`Base()`) is the superclass, `extends`; one without a call is an interface,
`implements` (a class whose superclass is only called from secondary constructors reads as
implementing it). Visibility is public unless written; `open` is a modifier, not a visibility.
The package header is the file's `namespace`, not part of the qnames."""

from __future__ import annotations

import bisect
import re

from sofia.syntax import bodies
from sofia.syntax.languages.headers import written
from sofia.syntax.queried import BACKTICKED, Named, Spec
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.tables import ImportBinding, Uses

VISIBILITY = ("public", "protected", "internal", "private")
MARKS = {
    "class_declaration": frozenset({"fun"}),
    "object_declaration": frozenset({"object"}),
    "companion_object": frozenset({"companion", "object"}),
    "property_declaration": frozenset({"val", "var"}),
    "class_parameter": frozenset({"val", "var"}),
}
"""Declaring keywords shown among the mods, by declaration: what the kind does not say."""
HIDDEN = frozenset({"enum"})
"""Modifier words the kind already says."""
HEADER_SKIP = frozenset({"modifiers", "fun", "val", "var", "typealias"})
RECEIVER_SKIP = frozenset({"modifiers", "type_parameters"})


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    return next((w for w in words if w in VISIBILITY), "public")


def mods(node: Node, words: list[str]) -> list[str]:
    """Modifiers, then the declaring keyword where the kind does not tell it (`object`,
    `companion object`, `val`, `var`, `fun interface`)."""
    kept = [w for w in words if w not in VISIBILITY and w not in HIDDEN]
    if node.type == "annotated_expression":  # a class the grammar misread, recovered by the query
        return [w for w in _recovered_modifier(node) if w not in HIDDEN]
    marks = MARKS.get(node.type, frozenset())
    return kept + [c.type for c in node.children if not c.is_named and c.type in marks]


def _recovered(node: Node) -> Named | None:
    """The class an annotated expression holds below all its annotations, written as the infix
    expression `MODIFIER class NAME` (`enum class Mode`, or `NAME(...)` for an enum's or a
    class's call-like remainder): an enum for `enum`, else a class; None for any other expression."""
    inner = _below_annotations(node)
    if inner.type != "infix_expression" or inner.named_child_count < 3:
        return None
    modifier, keyword, named_as = inner.named_children[:3]
    if modifier.type != "identifier" or keyword.type != "identifier" or text_of(keyword) != "class":
        return None
    if named_as.type == "call_expression":
        named_as = named_as.named_children[0] if named_as.named_child_count else named_as
    if named_as.type != "identifier":
        return None
    return Named("enum" if text_of(modifier) == "enum" else "class", named_as, text_of(named_as))


def _below_annotations(node: Node) -> Node:
    """The expression an annotated expression annotates, below every nested annotation."""
    while node.type == "annotated_expression" and node.named_child_count:
        node = node.named_children[-1]
    return node


def _recovered_modifier(node: Node) -> list[str]:
    node = _below_annotations(node)
    first = node.named_children[0] if node.type == "infix_expression" and node.named_child_count else None
    return [text_of(first)] if first is not None else []


def returned_type(node: Node) -> Node | None:
    """A function's declared return type: the type after its parameters (`fun create(): Foo`)."""
    if node.type != "function_declaration":
        return None
    seen_parameters = False
    for child in node.named_children:
        if child.type == "function_value_parameters":
            seen_parameters = True
        elif seen_parameters and child.type in ("user_type", "nullable_type"):
            return child
        elif seen_parameters and child.type == "function_body":
            return None
    return None


def spellings(wanted: str) -> list[str]:
    """`Foo.create`, as Kotlin code calls a companion object's member, for `Foo.Companion.create`."""
    owner, dot, member = wanted.rpartition(".")
    return [f"{owner}.Companion.{member}"] if dot and owner and not owner.endswith("Companion") else []


def named(kind: str, node: Node, name: Node) -> Named | None:
    """What a match declares (the `named` hook): an unnamed companion object is `Companion`; an
    extension is owned by its receiver (`receiver`); a top-level annotated expression is the class
    the grammar misread there, or nothing (`_recovered`)."""
    if node.type == "annotated_expression":
        return _recovered(node)
    if node.type == "companion_object" and name.type != "identifier":
        return Named("class", name, "Companion")
    owner = receiver(node)
    return Named(kind, name, text_of(name), (owner,) if owner else ())


def receiver(node: Node) -> str:
    """The type an extension function or property is declared on (`fun List<T>.second()` →
    `List`), "" for any other declaration."""
    if node.type not in ("function_declaration", "property_declaration"):
        return ""
    for child in node.named_children:
        if child.type in RECEIVER_SKIP or child.is_extra:
            continue
        if child.type in ("identifier", "variable_declaration", "multi_variable_declaration"):
            return ""
        return _type_name(child)
    return ""


def _type_name(node: Node) -> str:
    """The simple name of a type (`List<T>` → `List`, `a.b.Foo?` → `Foo`)."""
    while (
        node.type in ("nullable_type", "parenthesized_type", "non_nullable_type") and node.named_child_count
    ):
        node = node.named_children[0]
    names = [c for c in node.named_children if c.type == "identifier"]
    return text_of(names[-1]) if names else text_of(node)


def signature(node: Node, name_node: Node, source: bytes) -> str:
    """`<T>(items: List<T>): T`, `(x: Int)` for a secondary constructor; an extension's receiver
    is its owner, not part of the signature."""
    if node.type == "secondary_constructor":
        return written(
            node, name_node, skip=HEADER_SKIP | {":"}, stop={"constructor_delegation_call", "block"}
        )
    before_name = True

    def dropped(child: Node) -> bool:
        nonlocal before_name
        if child == name_node:
            before_name = False
        return before_name and child.type not in ("type_parameters",)

    return written(node, name_node, skip=HEADER_SKIP, stop={"function_body"}, dropped=dropped)


def relation(item: Node) -> tuple[str, str]:
    """A delegation specifier: a constructor call is the superclass, anything else an interface
    (an interface's are all `extends`)."""
    holder = item.parent
    declaration = holder.parent if holder is not None else None
    inner = next((c for c in item.named_children if not c.is_extra), item)
    named = inner
    if inner.type in ("constructor_invocation", "explicit_delegation"):
        named = next((c for c in inner.named_children if c.type in ("user_type", "nullable_type")), inner)
    text = text_of(named)
    if declaration is not None and any(c.type == "interface" for c in declaration.children):
        return "extends", text
    return ("extends" if inner.type == "constructor_invocation" else "implements"), text


def detail(node: Node) -> str:
    """A type alias's target (`= (Int) -> Unit`), else the type parameters."""
    params = next((c for c in node.named_children if c.type == "type_parameters"), None)
    if node.type == "type_alias":
        target = node.named_children[-1] if node.named_child_count else None
        aliased = f"= {text_of(target)}" if target is not None and target.type != "identifier" else ""
        return f"{text_of(params)} {aliased}".strip()
    return text_of(params)


def import_text(node: Node) -> str:
    """`kotlin.math.max`, `com.acme.Widget as W`, `com.acme.*`."""
    return " ".join(text_of(node).split()).removeprefix("import ").strip()


def import_bindings(node: Node) -> list[ImportBinding]:
    """`import a.b.Foo` binds Foo from a.b, `import a.b.Foo as Bar` binds Bar to it; a
    wildcard binds nothing by name."""
    path = next((c for c in node.named_children if c.type == "qualified_identifier"), None)
    if path is None or any(c.type == "*" for c in node.children):
        return []
    parts = tuple(text_of(path).replace(" ", "").split("."))
    alias = next((c for c in node.named_children if c.type == "identifier"), None)
    local = text_of(alias) if alias is not None else parts[-1]
    return [ImportBinding(local, parts[-1], parts[:-1])]


def is_label(node: Node) -> bool:
    """A named argument's name (`Widget(id = 1)`) is not a use."""
    parent = node.parent
    if parent is None or parent.type != "value_argument":
        return False
    first = next((c for c in parent.named_children if not c.is_extra), None)
    return first == node and any(c.type == "=" for c in parent.children)


USES = Uses(
    name_scopes="package",
    supers=frozenset({"super_expression"}),
    coalesce=frozenset({"?:"}),
    same_value=frozenset({"parenthesized_expression", "unary_expression"}),
    casts={"as_expression": "right"},
    calls={"call_expression": "#0"},
    members={"navigation_expression": ("#-1", "#0")},
    imports=frozenset({"import", "package_header"}),
    import_bindings=import_bindings,
    type_parents=frozenset({"user_type", "type_arguments", "type_projection"}),
    # A user type is read whole (`a.b.Foo<T>` names Foo), not looked through to its first part.
    wrappers=frozenset(
        {
            "nullable_type",
            "non_nullable_type",
            "parenthesized_type",
            "type_projection",
            "constructor_invocation",
            "delegation_specifier",
            "explicit_delegation",
        }
    ),
    selves=frozenset({"this_expression", "this"}),
    scopes=frozenset(
        {
            "function_declaration",
            "secondary_constructor",
            "anonymous_initializer",
            "lambda_literal",
            "anonymous_function",
            "getter",
            "setter",
        }
    ),
    labels=is_label,
    reached=frozenset({"companion_object"}),
)

OUTLINE = bodies.Braces(
    bodies.QUOTED,
    rb"(?s)(?:\bfun\b(?:(?!\b(?:class|interface|object|val|var)\b).)*"
    rb"(?:\)\s*(?::[^={}\n]+)?|=(?:(?!\b(?:object|class|interface|fun|val|var)\b)[^={}])*)"
    rb"|\binit\s*|\b[gs]et\s*\([^()]*\)\s*(?::[^={}\n]+)?"
    rb"|(?m:^[ \t]*(?:[a-z]+[ \t]+)*(?:val|var)[ \t][^={}\n]*(?:=|\bby\b)(?:(?!\bobject\b)[^={}\n])*))\Z",
    frozenset({"block", "lambda_literal", "when_expression"}),
    not_head=rb"\bfun\s+interface\b",
)
"""A function body follows `fun`'s parameter list and return type, and so does the lambda of an
expression body (`= ModuleDefinition {`); `init` blocks, accessors' bodies and the lambda a
property is initialised or delegated with (`val x by lazy {`) are code too; an object expression
(`= object : Foo {`) is not."""

_BEFORE_CLOSE = re.compile(rb"(?<=[^\s{;])[ \t](?=\})")
"""The blank between the last thing of a one-line block and its `}` (`{ fun save() = 1 }`)."""
_QUOTED = re.compile(
    rb'"""[\s\S]*?"""|"(?:\\.|\$\{[^{}\n]*\}|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*[\s\S]*?\*/'
)
"""Strings (their `${…}` templates one level deep), characters and comments: left as written."""


def prepare(source: bytes) -> bytes:
    """The source with a `;` for the blank before the `}` of a one-line block, where the grammar
    needs a separator that Kotlin does not: `class Store { fun save() = 1 }` is an error to
    tree-sitter-kotlin (losing the class's declarations) and `{ fun save() = 1;}` is not. The
    same length and lines, so every offset holds; a lambda's or statement block's `;}` reads
    the same."""
    found = [m.start() for m in _BEFORE_CLOSE.finditer(source)]
    if not found:
        return source
    quoted = [(m.start(), m.end()) for m in _QUOTED.finditer(source)]
    starts = [start for start, _ in quoted]
    prepared = bytearray(source)
    for at in found:
        index = bisect.bisect_right(starts, at) - 1
        if index >= 0 and at < quoted[index][1]:
            continue  # inside a string or comment
        if index >= 0 and at == quoted[index][1] and source[quoted[index][0]] == ord("/"):
            continue  # after a comment: `{ _ -> /* none */ }` holds no statement to end
        if source[at - 2 : at] == b"->":
            continue  # an empty lambda body: `{ _ -> }`
        prepared[at] = ord(";")
    return bytes(prepared)


SPEC = Spec(
    query="kotlin.scm",
    returns=returned_type,
    binding_query="kotlin.bindings.scm",
    escaped=BACKTICKED,
    spellings=spellings,
    comments=frozenset({"line_comment", "block_comment"}),
    strings=frozenset({"string_content", "character_literal"}),
    bodies=frozenset({"function_body", "class_body", "enum_class_body"}),
    modifiers=frozenset({"modifiers"}),
    annotations=frozenset({"annotation"}),
    keywords=frozenset({"fun", "class", "interface", "object", "typealias", "constructor"}),
    relations={"delegation_specifiers": "extends"},
    visibility=visibility,
    signature=signature,
    import_text=import_text,
    uses=USES,
    symbol_rows=frozenset({"property"}),
    named=named,
    mods=mods,
    relation=relation,
    detail=detail,
    outline=OUTLINE,
    prepare=prepare,
)
