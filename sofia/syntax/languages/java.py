"""Java: classes, records, interfaces, annotation types and enums (nested types qualify their
members: `Outer.Inner.method`), methods and constructors (`Order.Order`), fields, interface
constants and enum constants; Javadoc and annotations belong to their declaration."""

from __future__ import annotations

from sofia.syntax.queried import Spec
from sofia.syntax.tree import Node

TYPE_BODIES = frozenset({"class_body", "interface_body", "enum_body", "annotation_type_body"})


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    """Written visibility, else: interface members are public, everything else package-private."""
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


SPEC = Spec(
    query="java.scm",
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
    import_text=import_text,
)
