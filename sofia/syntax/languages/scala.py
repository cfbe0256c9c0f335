"""Scala: classes (case, abstract, sealed, implicit), objects and package objects (kind `class`,
`object` among the mods), traits, Scala 3 enums (cases as rows), type aliases and abstract type
members, defs at every level (a def in a type's body is a method, elsewhere a function; a
secondary constructor is named `this`), vals and vars of bodies and files (property rows that are
symbols too: an initialiser holds code), a primary constructor's `val`/`var` parameters and every
parameter of a case class (field rows). Scaladoc above a declaration and the annotations written
before it belong to it.

A companion object is named as its class is: `object Cart`'s `apply` is `Cart.apply` beside the
class's own `Cart.add`, the one separator `.` the registry declares for both (a member both
declare shares one qname, as overloads do). In a relation list the type after `extends` is
`extends`, each after `with` (a mixed-in trait) `implements`. Visibility is public unless written;
a qualified one keeps its qualifier (`private[shop]`, `protected[this]`). Successive package
clauses nest (`package scala.tools` then `package nsc` is `scala.tools.nsc`): the file's
`namespace`, not part of the qnames."""

from __future__ import annotations

from sofia.syntax import bodies
from sofia.syntax.languages.headers import written
from sofia.syntax.queried import BACKTICKED, Named, Spec, returns_field
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.tables import ImportBinding, Uses

BODIES = frozenset({"template_body", "with_template_body", "enum_body"})
"""Bodies whose defs are methods of the type holding them."""
MARKS = {
    "class_definition": ("case",),
    "object_definition": ("case", "object"),
    "package_object": ("package", "object"),
    "val_definition": ("val",),
    "var_definition": ("var",),
    "val_declaration": ("val",),
    "var_declaration": ("var",),
    "class_parameter": ("val", "var"),
}
"""Declaring keywords shown among the mods, by declaration: what the kind does not say."""
HEADER_SKIP = frozenset({"annotation", "modifiers", "def"})


def named(kind: str, node: Node, name: Node) -> Named:
    """A def held by a type's body is a method, any other a function (a file's, a package's, a
    block's); a Scala 3 extension's def is owned by the type it extends (`String.slug`)."""
    written = text_of(name)
    if node.type in ("function_definition", "function_declaration"):
        holder = node.parent
        in_type = holder is not None and holder.type in BODIES
        if in_type and holder is not None and holder.parent is not None:
            in_type = holder.parent.type != "package_clause"
        kind = "method" if in_type else "function"
        extended = _extended(node)
        if extended:
            return Named(kind, name, written, (extended,))
    return Named(kind, name, written)


def _extended(node: Node) -> str:
    """The type a Scala 3 extension's def is declared on (`extension (s: String) def slug` →
    `String`), "" for any other def."""
    holder = node.parent
    if holder is not None and holder.type != "extension_definition":
        holder = holder.parent
    if holder is None or holder.type != "extension_definition":
        return ""
    params = holder.child_by_field_name("parameters")
    first = params.named_children[0] if params is not None and params.named_child_count else None
    kind = first.child_by_field_name("type") if first is not None else None
    while kind is not None and kind.type == "generic_type":
        kind = kind.child_by_field_name("type")
    return text_of(kind).rsplit(".", 1)[-1] if kind is not None else ""


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    """`private`, `protected`, or with their qualifier (`private[shop]`); else public."""
    for child in node.children:
        if child.type == "modifiers":
            access = next((c for c in child.children if c.type == "access_modifier"), None)
            if access is not None:
                return "".join(text_of(access).split())
    return "public"


def mods(node: Node, words: list[str]) -> list[str]:
    """Modifiers without the visibility, then the declaring keywords the kind does not tell
    (`case`, `object`, `package object`, `val`, `var`)."""
    kept = [w for w in words if not w.startswith(("private", "protected", "["))]
    marks = MARKS.get(node.type, ())
    return kept + [c.type for c in node.children if not c.is_named and c.type in marks]


def signature(node: Node, name_node: Node, source: bytes) -> str:
    """`[T](x: => T, ys: Int*)(implicit y: Y): T` for a def (up to its `=` or procedure body),
    the type for a val."""
    return written(node, name_node, skip=HEADER_SKIP, stop={"=", "block", "indented_block"})


def relation(item: Node) -> tuple[str, str]:
    """A parent in an `extends` clause: the one after `extends` extends, one after `with`
    implements; its constructor arguments are no relation."""
    if item.type in ("arguments", "template_body"):
        return "", ""
    before = item.prev_sibling
    while before is not None and before.is_named and before.type in ("arguments", "comment", "block_comment"):
        before = before.prev_sibling
    kind = "implements" if before is not None and before.type == "with" else "extends"
    return kind, text_of(item)


def detail(node: Node) -> str:
    """The type parameters; a type alias's target or bounds too (`[K] = Map[K, Int]`)."""
    params = next((c for c in node.named_children if c.type == "type_parameters"), None)
    text = text_of(params) if params is not None else ""
    if node.type == "type_definition":
        rest = []
        after = False
        for child in node.children:
            if child.type in ("upper_bound", "lower_bound"):
                rest.append(text_of(child))
            elif child.type == "=":
                after = True
            elif after:
                rest.append(f"= {text_of(child)}")
                break
        text = " ".join([text, *rest]).strip()
    return text


def import_text(node: Node) -> str:
    """`scala.collection.mutable`, `scala.collection.{Map => SMap, Seq}`, `java.util._`."""
    return " ".join(text_of(node).split()).removeprefix("import ").strip()


def import_bindings(node: Node) -> list[ImportBinding]:
    """`import a.b.C` binds C from a.b; `import a.b.{C => D, E}` binds D to C and E; a wildcard
    (`a.b._`) and a hidden name (`{C => _}`) bind nothing by name. An import may list several
    paths (`import a.B, c.D`)."""
    found: list[ImportBinding] = []
    path: list[str] = []
    selected = False
    for child in [*node.children, None]:
        if child is None or child.type == ",":
            if path and not selected:
                found.append(ImportBinding(path[-1], path[-1], tuple(path[:-1])))
            path, selected = [], False
        elif child.type == "identifier":
            path.append(text_of(child))
        elif child.type == "namespace_wildcard":
            selected = True
        elif child.type == "namespace_selectors":
            selected = True
            found.extend(_selected(child, tuple(path)))
    return found


def _selected(selectors: Node, container: tuple[str, ...]) -> list[ImportBinding]:
    found: list[ImportBinding] = []
    for item in selectors.named_children:
        if item.type == "identifier":
            found.append(ImportBinding(text_of(item), text_of(item), container))
        elif item.type in ("arrow_renamed_identifier", "as_renamed_identifier"):
            name, alias = item.child_by_field_name("name"), item.child_by_field_name("alias")
            if name is not None and alias is not None and alias.type == "identifier":
                found.append(ImportBinding(text_of(alias), text_of(name), container))
    return found


def is_label(node: Node) -> bool:
    """A named argument's name (`copy(items = xs)`) is not a use."""
    parent = node.parent
    if parent is None or parent.type != "assignment_expression" or parent.parent is None:
        return False
    left: Node | None = parent.child_by_field_name("left")
    labelled: bool = parent.parent.type == "arguments" and left == node
    return labelled


USES = Uses(
    name_scopes="package",
    supers=frozenset({"super"}),
    same_value=frozenset({"parenthesized_expression"}),
    outer_members=True,
    calls={"call_expression": "function", "generic_function": "function"},
    members={"field_expression": ("field", "value")},
    news={"instance_expression": "#0"},
    imports=frozenset({"import_declaration", "package_clause"}),
    import_bindings=import_bindings,
    types=frozenset({"type_identifier"}),
    # `a.b.Foo` (stable_type_identifier) is read whole: its last part is the type.
    wrappers=frozenset(
        {
            "generic_type",
            "compound_type",
            "annotated_type",
            "lazy_parameter_type",
            "repeated_parameter_type",
            "projected_type",
        }
    ),
    selves=frozenset({"this"}),
    scopes=frozenset(
        {
            "function_definition",
            "function_declaration",
            "lambda_expression",
            "case_clause",
            "for_expression",
            "block",
        }
    ),
    labels=is_label,
)

_EXPRESSION = rb"(?:(?!\b(?:new|class|object|trait|def|val|var|import|case)\b)[^={};])*"
"""What may stand between a definition's `=` and the brace its expression ends with: no other
definition, and not `new` (an anonymous class's braces hold members)."""

OUTLINE = bodies.Braces(
    bodies.QUOTED,
    rb"(?s)(?:\bdef\b(?:(?!\b(?:class|object|trait|new)\b).)*(?:=(?!>)" + _EXPRESSION + rb"|\))"
    rb"|\b(?:val|var)\b[^={}]*=(?!>)" + _EXPRESSION + rb")\s*\Z",
    frozenset({"block", "case_block"}),
)
"""A method's body is what follows `def`'s `=` (or, in Scala 2's procedure syntax, its parameter
list): a block, or the braces its expression ends with (`= x match {`, `= xs.map {`), but not an
anonymous class (`= new Foo {`); a value's initialiser the same."""

SPEC = Spec(
    query="scala.scm",
    binding_query="scala.bindings.scm",
    returns=returns_field("return_type"),
    escaped=BACKTICKED,
    comments=frozenset({"comment", "block_comment"}),
    strings=frozenset({"string", "interpolated_string", "character_literal"}),
    bodies=frozenset({"template_body", "enum_body", "block"}),
    modifiers=frozenset({"modifiers"}),
    annotations=frozenset({"annotation"}),
    keywords=frozenset({"def", "class", "object", "trait", "enum", "type", "val", "var", "case"}),
    relations={"extends_clause": "extends"},
    visibility=visibility,
    signature=signature,
    import_text=import_text,
    uses=USES,
    symbol_rows=frozenset({"property"}),
    named=named,
    mods=mods,
    relation=relation,
    detail=detail,
    nested_packages=True,
    outline=OUTLINE,
)
