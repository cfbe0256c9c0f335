"""Java: classes, records, interfaces, annotation types and enums (nested types qualify their
members: `Outer.Inner.method`), methods and constructors (`Order.Order`), fields (a record's
components too: `record Point(int x)` declares `Point.x`), interface constants and enum constants;
Javadoc and annotations belong to their declaration."""

from __future__ import annotations

from sofia.syntax import bodies
from sofia.syntax.queried import Spec, returns_field
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.tables import ImportBinding, Uses

TYPE_BODIES = frozenset({"class_body", "interface_body", "enum_body", "annotation_type_body"})


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    """Written visibility, else: interface members and a record's components (each read through
    its public accessor, `p.x()`) are public, everything else package-private."""
    if node.type == "formal_parameter":
        return "public"
    for word in words:
        if word in ("public", "protected", "private"):
            return word
    if owner_kind in ("interface",):
        return "public"
    return "package"


def import_text(node: Node) -> str:
    """`java.util.List`, `static java.util.Map.of`, `java.util.*`."""
    text = " ".join((node.text or b"").decode("utf-8", "replace").split())
    return text.removeprefix("import ").removesuffix(";").strip()


def import_bindings(node: Node) -> list[ImportBinding]:
    """`import a.b.Foo;` binds Foo from a.b; `import static a.b.Foo.bar;` binds bar from a.b.Foo;
    a wildcard binds nothing by name."""
    path = next((c for c in node.named_children if c.type in ("scoped_identifier", "identifier")), None)
    if path is None or any(c.type == "asterisk" for c in node.children):
        return []
    parts = tuple(text_of(path).replace(" ", "").split("."))
    return [ImportBinding(parts[-1], parts[-1], parts[:-1])]


def is_label(node: Node) -> bool:
    """Java has no keyword arguments; an annotation's element name (`@Size(max = 3)`) is one."""
    parent = node.parent
    return (
        parent is not None
        and parent.type == "element_value_pair"
        and parent.child_by_field_name("key") == node
    )


USES = Uses(
    name_scopes="package",
    supers=frozenset({"super"}),
    same_value=frozenset({"parenthesized_expression"}),
    casts={"cast_expression": "type"},
    outer_members=True,
    calls={"method_invocation": "name"},
    members={"method_invocation": ("name", "object"), "field_access": ("field", "object")},
    news={"object_creation_expression": "type"},
    imports=frozenset({"import_declaration", "package_declaration"}),
    import_bindings=import_bindings,
    types=frozenset({"type_identifier"}),
    type_parents=frozenset(
        {"scoped_type_identifier", "generic_type", "type_arguments", "annotation", "marker_annotation"}
    ),
    wrappers=frozenset({"generic_type", "scoped_type_identifier", "array_type", "annotated_type"}),
    selves=frozenset({"this"}),
    scopes=frozenset(
        {
            "method_declaration",
            "constructor_declaration",
            "lambda_expression",
            "compact_constructor_declaration",
            "static_initializer",
        }
    ),
    labels=is_label,
)

OUTLINE = bodies.Braces(
    bodies.QUOTED,
    rb"(?:\)\s*(?:throws\s[\w\s.,<>?]*)?|(?<![\w.])static\s*|->\s*)\Z",
    frozenset({"block", "constructor_body"}),
    not_head=rb"\bnew\s+[\w.<>\[\], ?]+\([^;{}/]*\)\s*\Z",
)
"""A method or constructor body follows its parameter list or `throws` clause; a static
initialiser's follows `static`, a lambda's `->`; an anonymous class's (`new Foo() {`) is a class
body."""

SPEC = Spec(
    query="java.scm",
    returns=returns_field("type"),
    comments=frozenset({"line_comment", "block_comment"}),
    strings=frozenset(
        {
            "string_literal",
            "string_fragment",
            "multiline_string_fragment",
            "character_literal",
            "escape_sequence",
            "text_block",
        }
    ),
    bodies=TYPE_BODIES | frozenset({"block", "constructor_body"}),
    modifiers=frozenset({"modifiers"}),
    annotations=frozenset({"marker_annotation", "annotation"}),
    keywords=frozenset({"class", "interface", "enum", "record", "@interface", "default"}),
    relations={"superclass": "extends", "super_interfaces": "implements", "extends_interfaces": "extends"},
    lists=frozenset({"type_list"}),
    visibility=visibility,
    default_visibility="package",
    import_text=import_text,
    uses=USES,
    outline=OUTLINE,
)
