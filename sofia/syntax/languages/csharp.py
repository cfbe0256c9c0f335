"""C#: classes, structs, interfaces, enums (members as cases), records (`record struct` is a
struct), delegates (types), methods, constructors (named by their class), destructors (`~Cart`),
operators and conversions (`operator +`, `operator int`), indexers (named `this`), local functions,
properties and events (rows that are also symbols: their accessors have bodies), fields and
`const` constants. `///` doc comments above a declaration and the attribute lists inside it
belong to it.

A namespace (block or file-scoped) is the file's `namespace`, not part of the qnames, as a Java
package is: `Widget.Run`, never `Acme.Ui.Widget.Run`. A base list does not say which entry is
the class: a class's first base is `extends` unless it is named like an interface (`I` and a
capital: `IDisposable`), every other base is `implements` (an interface's bases are `extends`).
A record's positional parameters are its public properties (property rows, not symbols: a
line of parameters is the record's). Members without a written
visibility are private; types outside any type are internal; members of interfaces and explicit
interface implementations (`void IFoo.Bar()`) are public."""

from __future__ import annotations

import re

from sofia.syntax import bodies
from sofia.syntax.languages.headers import written
from sofia.syntax.queried import Named, Spec, returns_field
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.tables import ImportBinding, Uses

VISIBILITY = ("public", "protected", "internal", "private", "file")
MARKS = frozenset({"record", "event", "delegate"})
"""Declaring keywords shown among the mods: what the kind alone does not say."""
INTERFACE_NAME = re.compile(r"I[A-Z]")
BODIES = frozenset({"block", "arrow_expression_clause", "accessor_list", "declaration_list", ";"})
HEADER_SKIP = frozenset({"attribute_list", "modifier", "delegate", "event"})


def named(kind: str, node: Node, name_node: Node) -> Named:
    """A destructor is `~Cart`, an operator `operator +`, a conversion `operator int` (its target
    type): what C# itself calls them, and no longer the constructor's or each other's qname."""
    text = text_of(name_node)
    if node.type == "destructor_declaration":
        text = f"~{text}"
    elif node.type in ("operator_declaration", "conversion_operator_declaration"):
        written_as = node.child_by_field_name("operator" if node.type == "operator_declaration" else "type")
        text = f"operator {' '.join(text_of(written_as).split())}"
    return Named(kind, name_node, text)


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    """Written visibility (`protected internal`, `private protected` kept whole), else the
    language's default for where the declaration stands."""
    written_words = [w for w in words if w in VISIBILITY]
    if written_words:
        return " ".join(written_words)
    if owner_kind == "interface" or node.type == "parameter":
        return "public"
    if any(c.type == "explicit_interface_specifier" for c in node.named_children):
        return "public"
    if not owner_kind and kind in ("class", "struct", "interface", "enum", "type"):
        return "internal"
    return "private" if kind != "case" else "public"


def mods(node: Node, words: list[str]) -> list[str]:
    """Modifiers, then the declaring keyword where the kind does not tell it (`record`, `event`)."""
    kept = [w for w in words if w not in VISIBILITY]
    return kept + [c.type for c in node.children if not c.is_named and c.type in MARKS]


def signature(node: Node, name_node: Node, source: bytes) -> str:
    """`void <T>(T item) where T : class`, `(int size)` for a constructor or a destructor,
    `Money (Money a, Money b)` for an operator, `implicit (Money m)` for a conversion (the name
    says the operator and the target), `T [int index]` for an indexer, `void
    IDisposable.Dispose()` for an explicit interface implementation."""
    explicit = any(c.type == "explicit_interface_specifier" for c in node.named_children)
    cut = node if explicit else name_node  # `void IDisposable.Dispose()` keeps the name it implements
    in_name = {
        "operator_declaration": node.child_by_field_name("operator"),
        "conversion_operator_declaration": node.child_by_field_name("type"),
    }.get(node.type)
    return written(
        node,
        cut,
        skip=HEADER_SKIP | {"~"},
        stop=BODIES | {"constructor_initializer"},
        dropped=(lambda child: child == in_name) if in_name is not None else None,
    )


def relation(item: Node) -> tuple[str, str]:
    """A base list entry: extends or implements (see the module's docstring)."""
    holder = item.parent
    declaration = holder.parent if holder is not None else None
    kind = declaration.type if declaration is not None else ""
    named = item.child_by_field_name("type") if item.type == "primary_constructor_base_type" else None
    text = text_of(named if named is not None else item)
    if kind == "enum_declaration":
        return "", text
    if kind == "interface_declaration":
        return "extends", text
    if kind == "struct_declaration" or _is_struct_record(declaration):
        return "implements", text
    bases = [c for c in holder.named_children if not c.is_extra] if holder is not None else []
    first = bool(bases) and bases[0] == item
    simple = text.rsplit(".", 1)[-1]
    if first and not INTERFACE_NAME.match(simple):
        return "extends", text
    return "implements", text


def _is_struct_record(node: Node | None) -> bool:
    return (
        node is not None
        and node.type == "record_declaration"
        and any(c.type == "struct" for c in node.children)
    )


def detail(node: Node) -> str:
    """A delegate's signature, an enum's underlying type, else the type parameters."""
    if node.type == "delegate_declaration":
        name = node.child_by_field_name("name")
        return written(node, name, skip=HEADER_SKIP, stop=BODIES) if name is not None else ""
    if node.type == "enum_declaration":
        base = next((c for c in node.named_children if c.type == "base_list"), None)
        return text_of(base).removeprefix(":").strip() if base is not None else ""
    params = next((c for c in node.named_children if c.type == "type_parameter_list"), None)
    return text_of(params)


def import_text(node: Node) -> str:
    """`System.Linq`, `static System.Math`, `Json = System.Text.Json` (an alias), `global X`."""
    text = " ".join(text_of(node).split())
    return text.removeprefix("global ").removeprefix("using ").removesuffix(";").strip()


def import_bindings(node: Node) -> list[ImportBinding]:
    """`using J = System.Text.Json.JsonSerializer;` binds J to JsonSerializer in System.Text.Json;
    a namespace (`using System.Linq;`) or static import binds no name by itself."""
    alias = node.child_by_field_name("name")
    if alias is None:
        return []
    target = next((c for c in node.named_children if c != alias and not c.is_extra), None)
    if target is None:
        return []
    parts = tuple(p for p in re.split(r"\s*(?:\.|::)\s*", _without_arguments(text_of(target))) if p)
    return [ImportBinding(text_of(alias), parts[-1], parts[:-1])] if parts else []


def _without_arguments(text: str) -> str:
    angle = text.find("<")
    return text[:angle] if angle > 0 else text


def is_label(node: Node) -> bool:
    """A named argument's name (`Run(retries: 3)`, `[Obsolete(DiagnosticId = "X")]`) and a
    namespace's own name are not uses."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in ("argument", "attribute_argument"):
        labelled: bool = parent.child_by_field_name("name") == node
        return labelled
    top = node
    while top.parent is not None and top.parent.type == "qualified_name":
        top = top.parent
    holder = top.parent
    named: bool = holder is not None and holder.type == "namespace_declaration"
    return named and holder.child_by_field_name("name") == top


FUNCTIONS = frozenset(
    {
        "method_declaration",
        "constructor_declaration",
        "destructor_declaration",
        "operator_declaration",
        "conversion_operator_declaration",
        "local_function_statement",
        "lambda_expression",
        "anonymous_method_expression",
        "accessor_declaration",
        "indexer_declaration",
    }
)

USES = Uses(
    name_scopes="nested",
    supers=frozenset({"base"}),
    coalesce=frozenset({"??"}),
    same_value=frozenset({"parenthesized_expression", "postfix_unary_expression"}),
    casts={"cast_expression": "type", "as_expression": "right"},
    outer_members=True,
    calls={"invocation_expression": "function"},
    members={
        "member_access_expression": ("name", "expression"),
        "member_binding_expression": ("name", "^condition"),
    },
    news={"object_creation_expression": "type"},
    imports=frozenset({"using_directive", "file_scoped_namespace_declaration"}),
    import_bindings=import_bindings,
    type_parents=frozenset(
        {
            "type_argument_list",
            "variable_declaration",
            "parameter",
            "property_declaration",
            "method_declaration",
            "delegate_declaration",
            "indexer_declaration",
            "operator_declaration",
            "conversion_operator_declaration",
            "local_function_statement",
            "catch_declaration",
            "declaration_pattern",
            "typeof_expression",
            "default_expression",
            "type_parameter_constraint",
            "attribute",
            "base_list",
        }
    ),
    wrappers=frozenset(
        {"generic_name", "qualified_name", "array_type", "nullable_type", "pointer_type", "ref_type"}
    ),
    selves=frozenset({"this"}),
    scopes=FUNCTIONS,
    labels=is_label,
)

OUTLINE = bodies.Braces(
    (
        *bodies.SLASH_COMMENTS,
        bodies.DIRECTIVE_LINES,
        rb'\$+"""(?s:.*?)(?:"""|\Z)',
        bodies.TRIPLE_QUOTED,
        rb'@\$?"(?:[^"]|"")*"',
        rb'\$@"(?:[^"]|"")*"',
        rb'\$"[^"\\\n]*(?:\\.[^"\\\n]*)*"',
        bodies.DOUBLE_QUOTED,
        bodies.SINGLE_QUOTED,
    ),
    rb"(?:\)\s*(?:where\s[\w\s.,:<>()?\[\]]*)?|(?<![\w.])(?:get|set|init|add|remove)\s*)\Z",
    frozenset({"block", "accessor_list"}),
    not_head=rb"\bnew\s*[\w.<>\[\]]*\s*\([^()]*\)\s*\Z|=>\s*\Z",
)
"""A method, constructor or local function body follows its parameter list or `where` clause, an
accessor's its `get`, `set`, `init`, `add` or `remove` (a property named `init` has its accessor
list taken for one: a summary shows none of it either); an object initialiser (`new Foo() {`) and
a lambda's block are no such body."""

SPEC = Spec(
    query="csharp.scm",
    returns=returns_field("returns"),
    binding_query="csharp.bindings.scm",
    escaped=re.compile(r"@(\w+)"),
    comments=frozenset({"comment"}),
    strings=frozenset(
        {
            "string_literal",
            "string_literal_content",
            "verbatim_string_literal",
            "raw_string_literal",
            "raw_string_content",
            "character_literal",
            "character_literal_content",
            "string_content",
        }
    ),
    bodies=BODIES,
    modifiers=frozenset({"modifier"}),
    annotations=frozenset({"attribute_list"}),
    keywords=frozenset({"class", "struct", "interface", "enum", "record", "delegate", "event"}),
    relations={"base_list": "extends"},
    visibility=visibility,
    default_visibility="private",
    signature=signature,
    import_text=import_text,
    uses=USES,
    named=named,
    symbol_rows=frozenset({"property"}),
    mods=mods,
    relation=relation,
    detail=detail,
    outline=OUTLINE,
)
