"""Ruby: classes and modules (nested or written qualified, `class Foo::Bar`: both `Foo::Bar`),
instance methods (`Foo::Bar#baz`), singleton methods (`def self.build`, `def Foo.build` and the
`def`s of a `class << self` body: `Foo.build`), functions (a `def` outside any class or module),
`attr_reader`/`attr_writer`/`attr_accessor` properties, constants; `#` comments above a
declaration belong to it.

Qualified names use Ruby's own notation: `::` between namespaces, `#` before an instance method and
`.` before a singleton one. Visibility follows the calls that set it: a bare `private`,
`protected` or `public` switches the section for the `def`s after it in the same body,
`private def x` and `private :x, :y` name theirs, `private_class_method` the singleton ones and
`private_constant` constants and nested classes; `def self.x` is public unless so named, and
`initialize` reads as public since `new` is how it is called.
"""

from __future__ import annotations

from sofia.syntax import bodies
from sofia.syntax.queried import Named, Spec
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.tables import Uses

SECTIONS = frozenset({"private", "protected", "public"})
NAMING = {
    "private": ("instance", "private"),
    "protected": ("instance", "protected"),
    "public": ("instance", "public"),
    "private_class_method": ("singleton", "private"),
    "public_class_method": ("singleton", "public"),
    "private_constant": ("constant", "private"),
    "public_constant": ("constant", "public"),
}
"""A call naming members → (which members, the visibility it gives them)."""
CONTAINERS = frozenset({"class", "module", "singleton_class"})
MIXINS = {"include": "", "prepend": "prepend ", "extend": "extend "}
"""A call mixing a module in → how the `uses` cell marks it (`include` is the plain case)."""


def named(kind: str, node: Node, name: Node) -> Named:
    """Names as declared: `:x` of an `attr_reader` is `x`, `class Foo::Bar` is `Bar` owned by
    `Foo`, `def Other.x` is owned by `Other`, and a `def` outside classes and modules is a function."""
    text = text_of(name)
    if kind == "property":
        return Named(kind, name, text.lstrip(":").strip("\"'"))
    if kind in ("class", "module"):
        *written, last = text.split("::")
        inner = name.child_by_field_name("name") if name.type == "scope_resolution" else None
        return Named(kind, inner or name, last, tuple(owner for owner in written if owner))
    if kind == "method":
        owners: tuple[str, ...] = ()
        target = node.child_by_field_name("object") if node.type == "singleton_method" else None
        if target is not None and target.type == "constant" and text_of(target) != _container_name(node):
            owners = (text_of(target),)
        if not owners and _container(node) is None:
            return Named("function", name, text)
        return Named(kind, name, text, owners)
    return Named(kind, name, text)


def _container(node: Node) -> Node | None:
    """The innermost class, module or `class << self` holding `node`."""
    above = node.parent
    while above is not None and above.type not in CONTAINERS:
        above = above.parent
    return above


def _container_name(node: Node) -> str:
    container = _container(node)
    name = container.child_by_field_name("name") if container is not None else None
    return text_of(name).rsplit("::", 1)[-1] if name is not None else ""


def singleton(node: Node) -> bool:
    """`def self.x`, `def Foo.x`, or a `def` in a `class << self` body."""
    if node.type == "singleton_method":
        return True
    container = _container(node)
    return node.type == "method" and container is not None and container.type == "singleton_class"


def member_separator(node: Node, kind: str) -> str:
    if kind == "method":
        return "." if singleton(node) else "#"
    return ""


def mods(node: Node, words: list[str]) -> list[str]:
    """`self` marks a singleton method (a class method)."""
    return ["self"] if node.type in ("method", "singleton_method") and singleton(node) else []


class _Sections:
    """One body's visibility: the section each statement is in, and the names calls give one."""

    def __init__(self, body: Node) -> None:
        self.body = body
        self.at: dict[int, str] = {}
        self.named: dict[tuple[str, str], str] = {}
        state = "public"
        for child in body.named_children:
            word = _visibility_call(child)
            if word in SECTIONS and _arguments(child) is None:
                state = word
                continue
            if word in NAMING and _arguments(child) is not None:
                which, given = NAMING[word]
                for argument in _arguments(child) or []:
                    if argument.type in ("simple_symbol", "string"):
                        self.named[(which, text_of(argument).lstrip(":").strip("\"'"))] = given
            self.at[child.start_byte] = state


_READ: dict[int, _Sections] = {}
"""Bodies read lately, by node id (a summary asks for each declaration in turn, going in and out
of nested bodies); a body is checked to be the same node before its reading is reused."""


def _sections(body: Node) -> _Sections:
    known = _READ.get(body.id)
    if known is None or known.body != body:
        if len(_READ) > 64:
            _READ.clear()
        known = _READ[body.id] = _Sections(body)
    return known


def _visibility_call(node: Node) -> str:
    """`private` in `private`, `private :x` or `private def x`; "" for any other statement."""
    if node.type == "identifier":
        return text_of(node)
    if node.type == "call" and node.child_by_field_name("receiver") is None:
        method = node.child_by_field_name("method")
        return text_of(method) if method is not None else ""
    return ""


def _arguments(call: Node) -> list[Node] | None:
    if call.type != "call":
        return None
    arguments = call.child_by_field_name("arguments")
    return arguments.named_children if arguments is not None else None


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    """public, protected or private, as the module's docstring says."""
    parent = node.parent
    if parent is None:
        return "public"
    if parent.type == "argument_list" and parent.parent is not None:
        word = _visibility_call(parent.parent)
        if word in NAMING:
            return NAMING[word][1]
    name = _declared_name(node)
    sections = _sections(parent)
    if node.type == "singleton_method":
        return sections.named.get(("singleton", name), "public")
    if kind in ("constant", "class", "module"):
        return sections.named.get(("constant", name), "public")
    if name == "initialize":
        return "public"
    if kind == "method":
        return sections.named.get(("instance", name)) or sections.at.get(node.start_byte, "public")
    return sections.at.get(node.start_byte, "public")


def _declared_name(node: Node) -> str:
    name = node.child_by_field_name("name") or node.child_by_field_name("left")
    return text_of(name).rsplit("::", 1)[-1] if name is not None else ""


def related(node: Node) -> list[tuple[str, str]]:
    """The modules a class or module mixes in with `include`, `prepend` or `extend` in its body."""
    body = node.child_by_field_name("body")
    found: list[tuple[str, str]] = []
    for child in body.named_children if body is not None else []:
        word = _visibility_call(child) if child.type == "call" else ""
        if word in MIXINS:
            for argument in _arguments(child) or []:
                found.append(("uses", MIXINS[word] + text_of(argument)))
    return found


def signature(node: Node, name_node: Node, source: bytes) -> str:
    """The parameter list, always in parentheses: `(x, y = 1, *rest, k:, **opts, &blk)`."""
    parameters = node.child_by_field_name("parameters")
    if parameters is None:
        return "()"
    text = " ".join(text_of(parameters).split())
    return text if text.startswith("(") else f"({text})"


def import_text(node: Node) -> str:
    """`json` (require), `./lib/x` (require_relative), `Foo foo/bar` (autoload)."""
    method = text_of(node.child_by_field_name("method"))
    arguments = _arguments(node) or []
    paths = [_string(a) for a in arguments]
    if method == "autoload" and len(paths) >= 2:
        return f"{paths[0].lstrip(':')} {paths[1]}"
    path = paths[0] if paths else ""
    if method == "require_relative" and not path.startswith("."):
        return f"./{path}"
    return path


def _string(node: Node) -> str:
    """A string literal's content, else the argument as written."""
    if node.type == "string" and all(c.type in ("string_content", '"', "'") for c in node.children):
        return "".join(text_of(c) for c in node.children if c.type == "string_content")
    return " ".join(text_of(node).split())


def relation(part: Node) -> tuple[str, str]:
    """A superclass extends; a module named by `include`, `prepend` or `extend` is implemented
    (mixed in); any other call argument is no relation."""
    holder = part.parent
    if holder is not None and holder.type == "superclass":
        return "extends", text_of(part)
    call = holder.parent if holder is not None and holder.type == "argument_list" else None
    if call is not None and _visibility_call(call) in MIXINS:
        return "implements", text_of(part)
    return "", ""


def is_label(node: Node) -> bool:
    """A keyword argument's or hash key's name (`f(key: 1)`) is not a use."""
    kind: str = node.type
    return kind == "hash_key_symbol"


USES = Uses(
    name_scopes="nested",
    bare_calls=True,
    fields=frozenset({"instance_variable"}),
    calls={"call": "method"},
    members={"call": ("method", "receiver")},
    types=frozenset({"constant"}),
    type_parents=frozenset({"superclass"}),
    wrappers=frozenset({"scope_resolution"}),
    selves=frozenset({"self"}),
    scopes=frozenset({"method", "singleton_method", "block", "do_block", "lambda"}),
    labels=is_label,
    constructor="new",
)


OUTLINE = bodies.Indented(
    b"def",
    rb"(?P<indent>[ \t]*)(?:(?:private|protected|public|module_function|private_class_method)[ \t]+)?"
    rb"def[ \t]"
    rb"(?![^\n]*\bend\b)"  # `def x; 1; end` ends on its line
    rb"(?![^\n]*\([^)\n]*$)"  # a parameter list going on over the next lines
    rb"(?![ \t]*[\w.?!=]+(?:\([^)\n]*\))?[ \t]*=[^=~>])"  # `def x = 1` has no `end`
    rb"[^\n]*\n",
    b"end",
    frozenset({"method", "singleton_method"}),
)
"""A method's body runs from the line after its `def` to the `end` at the `def`'s indentation."""

SPEC = Spec(
    query="ruby.scm",
    binding_query="ruby.bindings.scm",
    comments=frozenset({"comment"}),
    strings=frozenset(
        {"string", "string_content", "heredoc_body", "heredoc_content", "escape_sequence", "character"}
    ),
    keywords=frozenset({"def", "class", "module"}),
    relations={"superclass": "extends", "argument_list": "implements"},
    relation=relation,
    uses=USES,
    visibility=visibility,
    named=named,
    mods=mods,
    signature=signature,
    import_text=import_text,
    through=frozenset({"body_statement"}),
    member_separator=member_separator,
    related=related,
    outline=OUTLINE,
)
