"""Rust: modules (`mod a { }` qualifies: `a::Foo`), structs, unions, enums (variants as cases),
traits with their required and default methods (`Trait::method`), `impl` blocks qualifying their
members by the implementing type (`impl<T> Trait for &Foo<T> { fn m() }` → `Foo::m`), free
functions, type aliases, `macro_rules!` macros, consts and statics, struct fields; `///` and `//`
comments and `#[...]` attributes above an item belong to it.

Visibility is read off `pub`: `pub` is public, `pub(crate)` crate, `pub(super)` super,
`pub(in path)` restricted, `pub(self)` and no `pub` private — except the members of a trait and
of an `impl Trait for` block, which are as visible as the trait (public), enum variants (public)
and `#[macro_export]` macros (public)."""

from __future__ import annotations

import re

from sofia.syntax import bodies
from sofia.syntax.queried import Named, Spec, returns_field
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.tables import ImportBinding, Uses

RESTRICTED = {"pub(crate)": "crate", "pub(super)": "super", "pub(self)": "private"}


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    """public, crate, super, restricted or private (see the module's docstring)."""
    marker = _visibility_marker(node)
    if marker is not None:
        written = "".join(text_of(marker).split())
        if written == "pub":
            return "public"
        return RESTRICTED.get(written, "restricted")
    if kind == "case" or _in_trait(node):
        return "public"
    if kind == "macro" and _exported_macro(node):
        return "public"
    return "private"


def _exported_macro(node: Node) -> bool:
    """`#[macro_export]` above a `macro_rules!`."""
    sibling = node.prev_sibling
    while sibling is not None and sibling.type in ("attribute_item", "line_comment", "block_comment"):
        if sibling.type == "attribute_item" and "macro_export" in text_of(sibling):
            return True
        sibling = sibling.prev_sibling
    return False


def _visibility_marker(node: Node) -> Node | None:
    """The `pub`, `pub(crate)`... of an item: its first child when written."""
    first = node.child(0) if node.child_count else None
    return first if first is not None and first.type == "visibility_modifier" else None


def _holder(node: Node) -> Node | None:
    """The item whose body holds `node` (its parent's parent), the last one remembered: a
    summary asks for each member's in turn, for its visibility, signature and `via`."""
    if _HOLDER and _HOLDER[0] is node:
        return _HOLDER[1]
    holder = node.parent.parent if node.parent is not None else None
    _HOLDER[:] = [node, holder]
    return holder


_HOLDER: list[Node] = []


def _in_trait(node: Node) -> bool:
    """A member of a trait, or of an `impl Trait for Type` block."""
    holder = _holder(node)
    if holder is None:
        return False
    return holder.type == "trait_item" or (
        holder.type == "impl_item" and holder.child_by_field_name("trait") is not None
    )


WRAPPERS = {"reference_type": "type", "pointer_type": "type", "generic_type": "type", "dynamic_type": "trait"}
"""Type nodes an `impl` looks through to the type it implements for (the field holding it)."""


def named(kind: str, node: Node, name: Node) -> Named:
    """An `impl`'s type without `&`, `*`, generics, path and `dyn`: `impl<T> Tr for &'a a::Foo<T>`
    and `impl dyn Foo + Send` → `Foo`; a slice, array, tuple or fn type as written, without
    spaces (`[T]`, `[u8;4]`, `(A,B)`), so a qname never holds a space."""
    if kind != "impl":
        return Named(kind, name, text_of(name))
    inner = name
    while True:
        if inner.type == "bounded_type" and inner.named_child_count:
            inner = inner.named_children[0]
        elif inner.type in WRAPPERS and inner.child_by_field_name(WRAPPERS[inner.type]) is not None:
            inner = inner.child_by_field_name(WRAPPERS[inner.type])
        elif inner.type == "scoped_type_identifier" and inner.child_by_field_name("name") is not None:
            inner = inner.child_by_field_name("name")
        else:
            break
    return Named(kind, name, "".join(text_of(inner).split()))


_IMPLS: list[tuple[Node, dict[str, list[str]]]] = []
"""The last item list read by `related`: type name → traits implemented for it there (a summary
asks for each type of a list in turn)."""


def related(node: Node) -> list[tuple[str, str]]:
    """The traits an `impl Trait for Type` beside a type (in the same module) implements for it."""
    parent = node.parent
    name = node.child_by_field_name("name")
    if parent is None or name is None:
        return []
    if not _IMPLS or _IMPLS[0][0] != parent:
        found: dict[str, list[str]] = {}
        for item in parent.named_children:
            trait = item.child_by_field_name("trait") if item.type == "impl_item" else None
            kind = item.child_by_field_name("type") if trait is not None else None
            if trait is not None and kind is not None:
                found.setdefault(named("impl", item, kind).name, []).append(text_of(trait))
        _IMPLS[:] = [(parent, found)]
    return [("implements", trait) for trait in _IMPLS[0][1].get(text_of(name), [])]


def detail(node: Node) -> str:
    """A type's generics (`<T: Clone>`); an alias's whole right side (`<T> = Vec<T>`)."""
    if node.type in ("type_item", "associated_type"):
        name = node.child_by_field_name("name")
        start = name.end_byte if name is not None else node.start_byte
        return (node.text or b"")[start - node.start_byte :].decode("utf-8", "replace").removesuffix(";")
    params = node.child_by_field_name("type_parameters")
    return text_of(params)


def via(node: Node) -> str:
    """The trait a method of an `impl Trait for Type` block implements (`fmt::Display`)."""
    trait = _implemented(node)
    return " ".join(text_of(trait).split()) if trait is not None else ""


def _implemented(node: Node) -> Node | None:
    holder = _holder(node)
    if holder is None or holder.type != "impl_item":
        return None
    trait: Node | None = holder.child_by_field_name("trait")
    return trait


def signature(node: Node, name_node: Node, source: bytes) -> str:
    """What follows the name up to the body: `<T: Clone>(x: &T) -> Option<T> where T: Debug`;
    nothing for a method of an `impl Trait for Type` block, whose trait declares it (its `via`
    names the trait), nor for a macro."""
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    if node.type == "macro_definition" or _implemented(node) is not None:
        return ""
    text = source[name_node.end_byte : end].decode("utf-8", "replace")
    return " ".join(text.split()).removesuffix(";").strip()


def import_text(node: Node) -> str:
    """`std::collections::{HashMap, HashSet as Set}`, `pub crate::error::Error` (a re-export),
    `extern crate alloc`."""
    words = " ".join(text_of(node).split()).removesuffix(";").strip()
    marker = _visibility_marker(node)
    argument = node.child_by_field_name("argument")
    if node.type != "use_declaration" or argument is None:
        return words
    path = " ".join(text_of(argument).split())
    return f"{' '.join(text_of(marker).split())} {path}" if marker is not None else path


def import_bindings(node: Node) -> list[ImportBinding]:
    """The names a `use` brings in: `use a::b::{Foo, Bar as Baz, self}` binds Foo, Baz (for Bar)
    and b; a glob binds nothing by name. Where they live is left unsaid (None): a `pub use`
    elsewhere may make any path name the item, so an imported free name is a name match, and a
    member through an imported type is matched by the type's name."""
    if node.type == "extern_crate_declaration":
        name = node.child_by_field_name("name")
        alias = node.child_by_field_name("alias")
        if name is None:
            return []
        return [ImportBinding(text_of(alias if alias is not None else name), text_of(name), None)]
    found: list[ImportBinding] = []
    argument = node.child_by_field_name("argument")
    if argument is not None:
        _bind(argument, "", found)
    return found


def _bind(node: Node, last: str, found: list[ImportBinding]) -> None:
    """One use tree; `last` is the final segment of the path leading to it (what `self` names)."""
    kind = node.type
    if kind == "identifier":
        found.append(ImportBinding(text_of(node), text_of(node), None))
    elif kind == "self" and last:
        found.append(ImportBinding(last, last, None))
    elif kind == "scoped_identifier":
        name = node.child_by_field_name("name")
        if name is not None and name.type == "identifier":
            found.append(ImportBinding(text_of(name), text_of(name), None))
    elif kind == "use_as_clause":
        path, alias = node.child_by_field_name("path"), node.child_by_field_name("alias")
        name = _last_segment(path)
        if name and alias is not None:
            found.append(ImportBinding(text_of(alias), name, None))
    elif kind == "scoped_use_list":
        path, items = node.child_by_field_name("path"), node.child_by_field_name("list")
        if items is not None:
            _bind(items, _last_segment(path), found)
    elif kind == "use_list":
        for child in node.named_children:
            _bind(child, last, found)


def _last_segment(path: Node | None) -> str:
    if path is None:
        return ""
    if path.type == "scoped_identifier":
        name = path.child_by_field_name("name")
        return text_of(name) if name is not None else ""
    return text_of(path)


def relation(part: Node) -> tuple[str, str]:
    """A supertrait (`trait Tr: Clone`) extends; the trait of `impl Trait for Foo` is implemented;
    a bound on a generic (`T: Display`) and an impl's own type are type uses, not relations."""
    holder = part.parent
    while holder is not None and holder.type in ("trait_bounds", "generic_type", "scoped_type_identifier"):
        if holder.type == "trait_bounds":
            return (
                ("extends", text_of(part))
                if holder.parent and holder.parent.type == "trait_item"
                else ("", "")
            )
        part, holder = holder, holder.parent
    if holder is not None and holder.type == "impl_item" and holder.child_by_field_name("trait") == part:
        return "implements", text_of(part)
    return "", ""


def token_use(node: Node) -> tuple[bool, bool, Node | None] | None:
    """A name in a macro's token tree (`println!("{}", c.area())`, `vec![Circle::new(1.0)]`):
    called when a parenthesised group follows it, a member when `.` or `::` comes before it, on the
    name before that when that name starts the chain (`c.area()`; `self.x.len()` has no known
    receiver for `len`)."""
    parent = node.parent
    if parent is None or parent.type != "token_tree":
        return None
    after = node.next_sibling
    called = after is not None and after.type == "token_tree" and (after.text or b"").startswith(b"(")
    before = node.prev_sibling
    if before is None or before.type not in (".", "::"):
        return (True, False, None) if called else None
    receiver = before.prev_sibling
    prior = receiver.prev_sibling if receiver is not None else None
    if (
        receiver is None
        or receiver.type not in ("identifier", "self")
        or (prior is not None and prior.type in (".", "::"))
    ):
        return called, True, None
    return called, True, receiver


USES = Uses(
    calls={"call_expression": "function", "generic_function": "function", "macro_invocation": "macro"},
    members={"field_expression": ("field", "value"), "scoped_identifier": ("name", "path")},
    news={"struct_expression": "name"},
    imports=frozenset({"use_declaration", "extern_crate_declaration"}),
    import_bindings=import_bindings,
    types=frozenset({"type_identifier"}),
    type_parents=frozenset({"trait_bounds", "type_arguments", "where_predicate"}),
    wrappers=frozenset(
        {
            "generic_type",
            "reference_type",
            "pointer_type",
            "scoped_type_identifier",
            "array_type",
            "dynamic_type",
            "abstract_type",
            "generic_type_with_turbofish",
        }
    ),
    selves=frozenset({"self", "Self"}),
    scopes=frozenset({"function_item", "closure_expression"}),
    implicit_self=False,
    tokens=token_use,
)


OUTLINE = bodies.Braces(
    (
        *bodies.SLASH_COMMENTS,
        rb'r(?P<hashes>#*)"(?s:.*?)"(?P=hashes)',
        rb'"[^"\\]*(?:\\(?s:.)[^"\\]*)*"',
        bodies.SINGLE_QUOTED,
    ),
    rb"(?s)\bfn\b(?:(?!\b(?:impl|trait|mod|struct|enum|union)\b).)*\Z",
    frozenset({"block", "token_tree"}),
)
"""A function body follows an `fn` header (a string may span lines; `'a` is a lifetime). In a
macro's token tree the grammar reads nothing of it either."""

SPEC = Spec(
    query="rust.scm",
    binding_query="rust.bindings.scm",
    returns=returns_field("return_type"),
    escaped=re.compile(r"r#(\w+)"),
    comments=frozenset({"line_comment", "block_comment"}),
    strings=frozenset(
        {"string_literal", "raw_string_literal", "char_literal", "string_content", "escape_sequence"}
    ),
    attached=frozenset({"attribute_item"}),
    bodies=frozenset({"declaration_list", "field_declaration_list", "enum_variant_list", "block"}),
    modifiers=frozenset({"function_modifiers"}),
    annotations=frozenset({"attribute_item"}),
    keywords=frozenset({"fn", "struct", "enum", "union", "trait", "mod", "type", "impl"}),
    relations={"trait_bounds": "extends", "impl_item": "implements"},
    relation=relation,
    uses=USES,
    visibility=visibility,
    default_visibility="private",
    named=named,
    related=related,
    detail=detail,
    signature=signature,
    via=via,
    import_text=import_text,
    outline=OUTLINE,
)
