"""Swift: classes, actors, structs, enums (cases as rows), protocols and type aliases; functions,
methods, `init`/`deinit`/`subscript`; an `extension Foo` qualifies its members as `Foo.member`;
properties with their type; attributes (`@objc`) and `///` doc comments belong to their
declaration. Default visibility is `internal`."""

from __future__ import annotations

from sofia.syntax import bodies
from sofia.syntax.queried import BACKTICKED, Spec
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.tables import ImportBinding, Uses

VISIBILITIES = ("open", "public", "internal", "fileprivate", "private")


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    """The written access level (`private(set)` reads as its getter's), else `internal`."""
    for word in words:
        base = word.split("(")[0]
        if base in VISIBILITIES and not word.endswith("(set)"):
            return base
    return "internal"


def import_text(node: Node) -> str:
    """`Foundation`, `struct UIKit.UIView`, `@testable MyApp`."""
    return " ".join(text_of(node).split()).removeprefix("import ").strip()


def import_bindings(node: Node) -> list[ImportBinding]:
    """`import Foundation` binds the module; `import struct UIKit.UIView` binds UIView."""
    path = next((c for c in node.named_children if c.type == "identifier"), None)
    if path is None:
        return []
    parts = tuple(p for p in text_of(path).replace(" ", "").split(".") if p)
    if not parts:
        return []
    return [ImportBinding(parts[-1], parts[-1], parts[:-1])]


def is_label(node: Node) -> bool:
    """An argument label (`Circle(radius: 3)`) or a parameter's external name is not a use."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "value_argument_label":
        return True
    external: bool = parent.type == "parameter" and parent.child_by_field_name("external_name") == node
    return external


USES = Uses(
    supers=frozenset({"super_expression"}),
    same_value=frozenset({"tuple_expression", "postfix_expression", "nil_coalescing_expression"}),
    casts={"as_expression": "name"},
    calls={"call_expression": "#0"},
    members={"navigation_suffix": ("suffix", "^target")},
    imports=frozenset({"import_declaration"}),
    import_bindings=import_bindings,
    types=frozenset({"type_identifier"}),
    type_parents=frozenset({"user_type", "inheritance_specifier"}),
    wrappers=frozenset({"user_type", "optional_type", "array_type", "type_arguments"}),
    selves=frozenset({"self_expression", "self", "Self"}),
    scopes=frozenset(
        {
            "function_declaration",
            "init_declaration",
            "lambda_literal",
            "computed_property",
            "subscript_declaration",
        }
    ),
    labels=is_label,
)

OUTLINE = bodies.Braces(
    (
        *bodies.SLASH_COMMENTS,
        rb'#+"""(?s:.*?)"""#+',
        bodies.TRIPLE_QUOTED,
        rb'#+"(?s:.*?)"#+',
        bodies.DOUBLE_QUOTED,
        rb"#(?:if|elseif|else|endif)\b[^\n]*",
    ),
    rb"(?s)(?:\b(?:func|init[?!]?|subscript)\b(?:(?!\b(?:class|struct|enum|protocol|extension|actor|var|let|case)\b).)*"
    rb"|\bdeinit\s*"
    rb"|(?m:^[ \t]*(?:[@\w]+(?:\([^()\n]*\))?[ \t]+)*var[ \t]+\w+[ \t]*:[^={}\n]*))\Z",
    frozenset(
        {"function_body", "computed_property", "protocol_property_requirements", "willset_didset_block"}
    ),
)
"""A body follows a `func`, `init`, `subscript` or `deinit` header; a computed property's (its
getter, or its `get`/`set`) follows `var name: Type` on one line (`var body: some View {`), and
so do a protocol's `{ get set }` and a stored property's `willSet`/`didSet`, which a summary does
not show either."""


def returned_type(node: Node) -> Node | None:
    """A function's declared return type (`-> Foo`): the grammar's second `name` field."""
    if node.type != "function_declaration":
        return None
    return next(
        (c for c in node.children_by_field_name("name") if c.type in ("user_type", "optional_type")), None
    )


SPEC = Spec(
    query="swift.scm",
    returns=returned_type,
    binding_query="swift.bindings.scm",
    escaped=BACKTICKED,
    comments=frozenset({"comment", "multiline_comment"}),
    strings=frozenset(
        {
            "line_string_literal",
            "line_str_text",
            "multi_line_string_literal",
            "multi_line_str_text",
            "raw_string_literal",
            "raw_str_part",
            "str_escaped_char",
        }
    ),
    bodies=frozenset(
        {"class_body", "protocol_body", "enum_class_body", "function_body", "computed_property"}
    ),
    modifiers=frozenset({"modifiers"}),
    annotations=frozenset({"attribute"}),
    keywords=frozenset(
        {
            "class",
            "struct",
            "enum",
            "extension",
            "protocol",
            "actor",
            "func",
            "init",
            "deinit",
            "typealias",
            "subscript",
        }
    ),
    relations={"inheritance_specifier": "extends"},
    visibility=visibility,
    default_visibility="internal",
    import_text=import_text,
    uses=USES,
    outline=OUTLINE,
)
