"""C++: namespaces (members qualified `fmt::detail::foo`), classes, structs, unions and enums
(`enum class` too), templates (the `template <...>` line belongs to the slice), methods declared or
defined in a class body, out-of-line definitions (`void Foo::bar() {}`, `Foo::Foo()`, `Foo::~Foo()`
are members of `Foo`), operators and conversion operators, fields, `using X = ...` aliases and
typedefs, and what C has (`#define`s, globals, `#include`s; `using ns::X;` is an import too).

Visibility follows the access sections of a class body (a class starts private, a struct and a
union public); at file level `static` and an anonymous namespace make a name private.
"""

from __future__ import annotations

import bisect

from sofia.syntax import bodies
from sofia.syntax.languages import c, cmacros
from sofia.syntax.languages.ckeywords import CPP_KEYWORDS
from sofia.syntax.queried import Named, Spec, returns_field
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.tables import ImportBinding, Uses

NAMES = c.NAMES | frozenset(
    {"qualified_identifier", "operator_name", "destructor_name", "template_function", "operator_cast"}
)
"""Node types a C++ declarator's name is (a qualified one is split into owners and name)."""
CLASS_BODY = "field_declaration_list"
AROUND = frozenset({"template_declaration", "friend_declaration"})
"""Nodes between a member and its class body."""
TYPES = frozenset({"class_specifier", "struct_specifier", "union_specifier", "enum_specifier"})
FILE_LEVEL = c.FILE_LEVEL | frozenset({"template_declaration"})
LEAVES = frozenset(
    {"identifier", "field_identifier", "type_identifier", "destructor_name", "operator_name", "operator_cast"}
)
"""What a declared name is once its qualifiers are split off (a pointer to member is none)."""


def split(name: Node) -> tuple[Node, str, tuple[str, ...]]:
    """A name as written → (the name's own node, its text, the owners its qualifiers name):
    `detail::Buffer<T>::grow` → (`grow`, "grow", ("detail", "Buffer"))."""
    owners: list[str] = []
    node = name
    while node.type == "qualified_identifier":
        scope = node.child_by_field_name("scope")
        if scope is not None:
            owners.extend(part for part in _scope_names(scope) if part)
        inner = node.child_by_field_name("name")
        if inner is None:
            break
        node = inner
    if node.type == "template_function" or node.type == "template_type":
        inner = node.child_by_field_name("name")
        node = inner if inner is not None else node
    return node, _name_text(node), tuple(owners)


def _scope_names(scope: Node) -> list[str]:
    if scope.type in ("template_type", "template_function"):
        inner = scope.child_by_field_name("name")
        return [text_of(inner)] if inner is not None else []
    if scope.type == "nested_namespace_specifier":
        return [text_of(part) for part in scope.named_children]
    return [text_of(scope)]


def _name_text(node: Node) -> str:
    """`operator==`, `operator bool` (a conversion), `~Foo`, else the node's text."""
    if node.type == "operator_cast":
        kind = node.child_by_field_name("type")
        return f"operator {c.collapse(text_of(kind))}" if kind is not None else "operator"
    return (
        "".join(text_of(node).split()) if node.type in ("operator_name", "destructor_name") else text_of(node)
    )


def member_of(node: Node) -> Node | None:
    """The class body a declaration stands in (templates and `friend` looked through, and the
    field declaration a nested type is written in)."""
    parent = node.parent
    if parent is not None and parent.type == "field_declaration" and node.type in TYPES:
        parent = parent.parent
    while parent is not None and (parent.type in AROUND or parent.type in c.PREPROC):
        parent = parent.parent
    return parent if parent is not None and parent.type == CLASS_BODY else None


def _file_level(node: Node) -> bool:
    parent = node.parent
    while parent is not None and (
        parent.type in c.PREPROC or parent.type in ("template_declaration", "ERROR")
    ):
        parent = parent.parent
    return parent is None or parent.type in FILE_LEVEL


def named(kind: str, node: Node, name: Node) -> Named | None:
    """What a C++ match declares (the `named` hook, docs/adding-a-language.md); a type declared
    inside a function body is local and left out, as is a name whose qualifiers are no names."""
    if name.type == "call_expression":
        return c.macro_function(name)
    if kind in ("macro", "case") or node.type == "preproc_def":
        return c.named(kind, node, name)
    if (kind in LOCAL_KINDS and c.in_body(node)) or c.loop_macro(node):
        return None
    found = _named(kind, node, name)
    if found is not None and not all(_is_name(part) for part in (*found.owners, found.name.lstrip("~"))):
        return None
    return found


LOCAL_KINDS = frozenset({"type"})
"""Kinds left out when declared inside a function body (a local class stays: where a macro the
grammar cannot know makes it misread a function, the classes after it seem to be in its body)."""


def _is_name(text: str) -> bool:
    """A name, not a keyword the grammar's recovery read as one (`} else {`), nor an operator."""
    if text.startswith("operator"):
        return True
    return text.replace("_", "a").isalnum() and not text[:1].isdigit() and text not in CPP_KEYWORDS


def _named(kind: str, node: Node, name: Node) -> Named | None:
    if kind in ("namespace", "class", "struct", "union", "enum"):
        leaf, text, owners = _type_name(name)
        return Named(kind, leaf, text, owners) if text else None
    if node.type == "alias_declaration":
        return Named("type", name, text_of(name))
    found = c.declared(name, NAMES)
    if found is None:
        return None
    written, function = found
    function = function or written.type == "operator_cast"
    if kind == "function" and not function:
        written = c.split_name(node) or written
        function = True
    leaf, text, owners = split(written)
    if not text or leaf.type not in LEAVES:
        return None
    if kind == "type":
        tagged = node.child_by_field_name("type")
        named_kind = c.TAGGED[tagged.type] if c.anonymous_body(tagged) and tagged is not None else "type"
        return Named(named_kind, leaf, text, owners)
    in_class = member_of(node) is not None
    if function:
        if kind == "var" and not in_class and (not _file_level(node) or c.unterminated(node)):
            return None
        if in_class or owners:
            return Named("method", leaf, text, owners)
        return Named("prototype" if kind == "var" else "function", leaf, text, owners)
    if kind == "field" or in_class:
        return Named("field", leaf, text, owners)
    if not _file_level(node) or c.unterminated(node):
        return None
    return Named("constant" if c.constant(node, leaf) else "var", leaf, text, owners)


def _type_name(name: Node) -> tuple[Node, str, tuple[str, ...]]:
    """A type's or namespace's name: `Foo::Bar` (owner Foo), `hash<Foo>` (a specialisation of
    hash), `a::b` (a nested namespace)."""
    if name.type == "nested_namespace_specifier":
        parts = name.named_children
        return parts[-1], text_of(parts[-1]), tuple(text_of(p) for p in parts[:-1])
    if name.type == "template_type":
        inner = name.child_by_field_name("name")
        return (inner, text_of(inner), ()) if inner is not None else (name, "", ())
    if name.type == "qualified_identifier":
        return split(name)
    return name, text_of(name), ()


# --- visibility, modifiers, signatures -------------------------------------------------------


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    """A member: its access section (a class starts private, a struct and a union public). At
    file level: `static` or an anonymous namespace makes it private."""
    body = member_of(node)
    if body is not None:
        return _access(body, _member_node(node)) or ("private" if owner_kind == "class" else "public")
    if kind in ("field", "case"):
        return "public"
    if "static" in words or _anonymous(node):
        return "private"
    return c.visibility(node, kind, owner_kind, words)


def _member_node(node: Node) -> Node:
    while node.parent is not None and node.parent.type != CLASS_BODY:
        node = node.parent
    return node


def _access(body: Node, member: Node) -> str:
    sections = _sections(body)
    index = bisect.bisect_right(sections, (member.start_byte, "~")) - 1
    return sections[index][1] if index >= 0 else ""


_SECTIONS: dict[tuple[int, int, int, int], list[tuple[int, str]]] = {}
"""Access sections by class body (its node id, extent and child count), so a member's look-up is
a bisection, not a walk back over its siblings; a few hundred bodies are kept."""


def _sections(body: Node) -> list[tuple[int, str]]:
    """Each access specifier of a class body: (where it stands, the access it opens)."""
    key = (body.id, body.start_byte, body.end_byte, body.child_count)
    found = _SECTIONS.get(key)
    if found is None:
        if len(_SECTIONS) > 512:
            _SECTIONS.clear()
        found = _SECTIONS[key] = [
            (child.start_byte, text_of(child)) for child in body.children if child.type == "access_specifier"
        ]
    return found


def _anonymous(node: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type == "namespace_definition" and parent.child_by_field_name("name") is None:
            return True
        parent = parent.parent
    return False


def mods(node: Node, words: list[str]) -> list[str]:
    """Storage words (`static` where it is not the visibility), `virtual`, `explicit`, `friend`,
    `constexpr`, and `= 0` / `= default` / `= delete` as `abstract`, `default`, `delete`."""
    found = [w for w in words if w != "static" or member_of(node) is not None]
    for child in node.children:
        kind = child.type
        if kind == "virtual":
            found.append("virtual")
        elif kind == "explicit_function_specifier":
            found.append("explicit")
        elif kind == "type_qualifier" and text_of(child) in c.MODIFIER_QUALIFIERS:
            found.append(text_of(child))
        elif kind == "default_method_clause":
            found.append("default")
        elif kind == "delete_method_clause":
            found.append("delete")
    if node.type == "field_declaration" and _pure(node):
        found.append("abstract")
    if node.parent is not None and node.parent.type == "friend_declaration":
        found.append("friend")
    return found


def _pure(node: Node) -> bool:
    value = node.child_by_field_name("default_value")
    return value is not None and text_of(value) == "0" and _is_function(node)


def _is_function(node: Node) -> bool:
    found = c.declared(node.child_by_field_name("declarator"), NAMES)
    return found is not None and found[1]


def signature(node: Node, name: Node, source: bytes) -> str:
    """As in C, with the qualifiers of an out-of-line name cut with it (`void (size_t n)` for
    `void detail::Buffer<T>::grow(size_t n)`), `= 0`/`= default` left to the mods, and a
    template's parameters first (`<typename U> void (U&& u)`)."""
    if node.type in ("preproc_function_def", "preproc_def", "expression_statement"):
        return c.signature(node, name, source)
    if name.type == "operator_cast":
        inner = name.child_by_field_name("declarator")
        return c.collapse(text_of(inner)) if inner is not None else ""
    cut = name
    while cut.parent is not None and cut.parent.type in ("qualified_identifier", "template_function"):
        cut = cut.parent
    text = c.header_text(node, name, source, cut, skip=STOPS)
    parent = node.parent
    if parent is not None and parent.type == "friend_declaration":
        parent = parent.parent
    if parent is not None and parent.type == "template_declaration":
        params = parent.child_by_field_name("parameters")
        if params is not None:
            text = f"{c.collapse(text_of(params))} {text}"
    return text


def value_type(node: Node, name: Node) -> str:
    """As in C, with the qualifiers of an out-of-line name left out with it (`int` for
    `int Network::rank_ = 0;`, not `int Network::`)."""
    cut = name
    while cut.parent is not None and cut.parent.type == "qualified_identifier":
        cut = cut.parent
    return c.value_type(node, cut)


STOPS = frozenset({"default_method_clause", "delete_method_clause", "="})
"""Where a C++ signature ends besides a body (`= default`, `= delete`, `= 0`)."""


def relation(node: Node) -> tuple[str, str]:
    """A base class (its access and `virtual` left out)."""
    if node.type == "access_specifier":
        return "", ""
    return "extends", text_of(node)


def detail(node: Node) -> str:
    """A template's parameters; an enum's underlying type; what an alias names (`= T`)."""
    if node.type == "alias_declaration":
        aliased = node.child_by_field_name("type")
        return f"= {text_of(aliased)}" if aliased is not None else ""
    parent = node.parent
    if parent is not None and parent.type == "template_declaration":
        params = parent.child_by_field_name("parameters")
        return text_of(params) if params is not None else ""
    base = node.child_by_field_name("base")
    return f": {text_of(base)}" if base is not None else ""


def import_text(node: Node) -> str:
    """An `#include` as C lists it; `using std::string;` → `std::string`, `using namespace std;`
    → `namespace std`."""
    if node.type == "preproc_include":
        return c.import_text(node)
    return c.collapse(text_of(node)).removeprefix("using ").removesuffix(";").strip()


def import_bindings(node: Node) -> list[ImportBinding]:
    """`using std::string;` binds `string` from `std`; `namespace fs = std::filesystem;` binds
    `fs` to `std::filesystem`; `using namespace std;` and an `#include` bind no name."""
    if node.type == "namespace_alias_definition":
        alias = node.child_by_field_name("name")
        target = node.named_children[-1] if node.named_children else None
        if alias is None or target is None or target == alias:
            return []
        parts = tuple(part for part in text_of(target).replace(" ", "").split("::") if part)
        return [ImportBinding(text_of(alias), parts[-1], parts[:-1])] if parts else []
    if node.type != "using_declaration" or any(child.type == "namespace" for child in node.children):
        return []
    named = next((child for child in node.named_children if child.type == "qualified_identifier"), None)
    if named is None:
        return []
    _, text, owners = split(named)
    return [ImportBinding(text, text, owners)] if text else []


POINTERS = frozenset({"unique_ptr", "shared_ptr", "optional", "scoped_ptr", "intrusive_ptr", "observer_ptr"})
"""Class templates whose `->` reaches their first type argument."""
CONTAINERS = {
    "vector": 0,
    "array": 0,
    "deque": 0,
    "span": 0,
    "valarray": 0,
    "map": 1,
    "unordered_map": 1,
}
"""Class templates whose elements (`v[i]`, `v.at(i)`, `v.back()`) have one of their type
arguments' type: its index."""
ELEMENT_CALLS = frozenset({"at", "back", "front"})


def pointee(declared: Node) -> Node | None:
    """The type `->` reaches on a value declared as `std::unique_ptr<Bin>` (or another of
    `POINTERS`, qualified or not): `Bin`; None for any other type."""
    return _argument(declared, dict.fromkeys(POINTERS, 0))


def element(declared: Node) -> Node | None:
    """The type of an element of a value declared as `std::vector<Bin>` (or another of
    `CONTAINERS`): `Bin`; None for any other type."""
    return _argument(declared, CONTAINERS)


CASTS = frozenset({"static_cast", "dynamic_cast", "reinterpret_cast", "const_cast"})


def cast_type(call: Node) -> Node | None:
    """The type a named cast converts to (`reinterpret_cast<const Dataset*>(h)`), else None."""
    function = call.child_by_field_name("function")
    if function is None or function.type != "template_function":
        return None
    if text_of(function.child_by_field_name("name")) not in CASTS:
        return None
    arguments = function.child_by_field_name("arguments")
    return (
        next((c for c in arguments.named_children if c.type == "type_descriptor"), None)
        if arguments
        else None
    )


def _argument(declared: Node, templates: dict[str, int]) -> Node | None:
    """The type argument `templates` names for the class template a type node instantiates."""
    node: Node | None = declared
    if node is not None and node.type == "type_descriptor":
        node = node.child_by_field_name("type")
    while node is not None and node.type == "qualified_identifier":
        node = node.child_by_field_name("name")
    if node is None or node.type != "template_type":
        return None
    index = templates.get(text_of(node.child_by_field_name("name")))
    arguments = node.child_by_field_name("arguments")
    if index is None or arguments is None:
        return None
    given = [c for c in arguments.named_children if c.type == "type_descriptor"]
    return given[index] if index < len(given) else None


USES = Uses(
    same_value=frozenset({"parenthesized_expression"}),
    casts={"cast_expression": "type"},
    pointee=pointee,
    elements=element,
    typed_calls=cast_type,
    subscripts={"subscript_expression": "argument"},
    element_calls=ELEMENT_CALLS,
    included=c.includes,
    outer_members=True,
    calls={"call_expression": "function"},
    members={
        "field_expression": ("field", "argument"),
        "qualified_identifier": ("name", "scope"),
        "template_method": ("name", "^argument"),
    },
    news={"new_expression": "type"},
    imports=frozenset({"using_declaration", "namespace_alias_definition"}),
    import_bindings=import_bindings,
    types=frozenset({"type_identifier", "namespace_identifier"}),
    type_parents=frozenset(
        {"type_descriptor", "template_argument_list", "sizeof_expression", "base_class_clause"}
    ),
    wrappers=frozenset(
        {
            "struct_specifier",
            "union_specifier",
            "enum_specifier",
            "class_specifier",
            "type_descriptor",
            "template_type",
        }
    ),
    qualifiers=frozenset({"namespace_identifier", "template_type"}),
    selves=frozenset({"this"}),
    scopes=frozenset({"function_definition", "declaration", "field_declaration", "lambda_expression"}),
)
"""C++'s uses: calls, members on typed receivers (`Foo x; x.bar()`, `p->bar()`, `this->bar()`, a
parameter of type `Foo&`), `Foo::bar()` and `ns::f()` qualified by what they name, `new Foo`,
base classes, `using ns::X;` imports and namespace aliases, types."""

OUTLINE = bodies.Braces(
    c.UNITS,
    rb"\)\s*(?:(?:const|volatile|noexcept|override|final|&&?)\s*)*(?:->[^{};]*)?\Z",
    c.OUTLINE.nodes,
)
"""A function body follows its parameter list, the qualifiers after it and a trailing return type
(`) const override {`, `) const -> bool {`); a constructor's after its last initialiser's `)`."""

SPEC = Spec(
    query="cpp.scm",
    returns=returns_field("type"),
    binding_query="cpp.bindings.scm",
    uses=USES,
    comments=c.SPEC.comments,
    strings=c.SPEC.strings | frozenset({"raw_string_literal", "raw_string_content", "raw_string_delimiter"}),
    bodies=c.SPEC.bodies,
    modifiers=c.SPEC.modifiers,
    annotations=c.ATTRIBUTES,
    relations={"base_class_clause": "extends"},
    visibility=visibility,
    qualifier="::",
    signature=signature,
    import_text=import_text,
    mods=mods,
    relation=relation,
    detail=detail,
    named=named,
    wrappers=frozenset({"template_declaration"}),
    prepare=cmacros.prepare_cpp,
    resync=c.RESYNC,
    resync_nodes=c.SPEC.resync_nodes,
    value_type=value_type,
    literal=c.literal,
    symbol_rows=c.SPEC.symbol_rows,
    outline=OUTLINE,
)
