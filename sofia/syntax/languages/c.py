"""C: function definitions and prototypes, functions a macro defines (`SYSCALL_DEFINE3(open, ...)
{ ... }`, named after the macro's first argument), structs, unions and enums (enumerators as
cases), typedefs, `#define`s (`macro` symbols, object-like and function-like), file-level
variables and constants, `#include`s as imports. Doc comments and `__attribute__`s belong to their
declaration; `static` makes a file-level name private.

A prototype is a `function` symbol like a definition: in a header it is the API, with its doc
comment. A typedef of an anonymous struct, union or enum names that type (`typedef struct {...}
foo_t;` is struct `foo_t`); of a named one it is a `type` beside the struct.

`header_language` decides whether a `.h` file is C or C++ (docs/languages.md).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from sofia.syntax import bodies, regions
from sofia.syntax.languages import cmacros
from sofia.syntax.languages.ckeywords import C_KEYWORDS
from sofia.syntax.queried import Named, Spec
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.tables import Uses

NAMES = frozenset({"identifier", "field_identifier", "type_identifier"})
"""Node types a C declarator's name is."""
FILE_LEVEL = frozenset({"translation_unit", "declaration_list"})
"""Parents of file-level declarations (`declaration_list`: an `extern "C"` or a C++ namespace)."""
PREPROC = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"})
SKIPPED = frozenset({"attribute_specifier", "attribute_declaration", "ms_declspec_modifier", "comment"})
"""Children of a declarator that are not the declarator it wraps."""
TAGGED = {"struct_specifier": "struct", "union_specifier": "union", "enum_specifier": "enum"}
MODIFIER_QUALIFIERS = frozenset({"constexpr", "consteval", "constinit", "mutable"})
"""Type qualifiers that modify the declaration rather than its type: mods, not signature."""
BODIES = frozenset({"compound_statement", "field_initializer_list", "try_statement"})
"""Where a function's signature ends (a constructor's initialisers are not part of it)."""
ATTRIBUTES = frozenset(
    {"attribute_specifier", "attribute_declaration", "ms_declspec_modifier", "alignas_qualifier"}
)


def declared(declarator: Node | None, names: Iterable[str] = NAMES) -> tuple[Node, bool] | None:
    """The name a declarator declares, and whether it declares a function: the name's nearest
    declarator (parentheses aside) is a function declarator (`*copy_process(...)` and
    `(*getfn(void))(int)` are functions, `(*handler)(int)` is a pointer)."""
    kinds = frozenset(names)
    function = False
    node = declarator
    while node is not None:
        kind = node.type
        if kind in kinds:
            return node, function
        if kind != "parenthesized_declarator":
            function = kind == "function_declarator"
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in node.named_children if c.type not in SKIPPED), None)
        node = inner
    return None


def at_file_level(node: Node, through_errors: bool = False) -> bool:
    """Whether a declaration stands at file level (conditional blocks looked through, and with
    `through_errors` a region the grammar could not parse: a `#if` cut off from its `#endif`)."""
    parent = node.parent
    while parent is not None and (parent.type in PREPROC or (through_errors and parent.type == "ERROR")):
        parent = parent.parent
    return parent is None or parent.type in FILE_LEVEL


def constant(node: Node, name: Node) -> bool:
    """Whether the name itself is const: `const int n`, `char *const p`, not `const char *p`
    (a pointer to constant characters)."""
    declared_type = value_type(node, name)
    if declared_type.endswith(("const", "constexpr")):
        return True
    written = has_qualifier(node, "const") or has_qualifier(node, "constexpr")
    return written and "*" not in declared_type


def loop_macro(node: Node) -> bool:
    """A loop macro and its block in a function body (`list_for_each_entry(pos, head, list) {`),
    which the grammar reads as a function without a type whose parameters declare nothing."""
    if node.type != "function_definition":
        return False
    if node.child_by_field_name("type") is not None:
        return split_name(node) is not None and in_body(node)  # read as `type (declarator)`
    declarator = node.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    if params is None or any(_declares(c) for c in params.named_children):
        return False
    return in_body(node)


def _declares(parameter: Node) -> bool:
    """Whether a parameter declares one: it has a declarator, or a type that is more than a
    name (`int`, `const T`); C++ reads a macro's argument `x` as a parameter of type `x`."""
    if not parameter.type.endswith("parameter_declaration"):
        return False
    kind = parameter.child_by_field_name("type")
    bare = kind is not None and kind.type == "type_identifier" and parameter.named_child_count == 1
    return parameter.child_by_field_name("declarator") is not None or not bare


def in_body(node: Node) -> bool:
    """Whether a declaration stands inside a function body."""
    parent = node.parent
    while parent is not None:
        if parent.type == "compound_statement":
            return True
        if parent.type in CONTAINERS:
            return False
        parent = parent.parent
    return False


CONTAINERS = frozenset({"translation_unit", "declaration_list", "field_declaration_list"})
"""Where a walk up from a declaration stops: it is not in a function body."""


def has_qualifier(node: Node, word: str) -> bool:
    return any(c.type == "type_qualifier" and text_of(c) == word for c in node.children)


def macro_function(call: Node) -> Named | None:
    """`SYSCALL_DEFINE3(open, ...) { ... }` at file level: a function named after the macro's
    first argument when it is a name, else after the macro."""
    statement = call.parent
    if statement is None or not at_file_level(statement):
        return None
    arguments = call.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    if first is not None and first.type == "identifier":
        return Named("function", first, text_of(first))
    macro = call.child_by_field_name("function")
    return Named("function", macro, text_of(macro)) if macro is not None else None


def named(kind: str, node: Node, name: Node) -> Named | None:
    """What a C match declares (the `named` hook, docs/adding-a-language.md)."""
    if name.type == "call_expression":
        return macro_function(name)
    if kind == "type" and in_body(node):
        return None
    if loop_macro(node):
        return None
    if node.type == "preproc_def" and _guard(node):
        return None
    if kind in ("macro", "case", "struct", "union", "enum") or node.type == "preproc_def":
        text = text_of(name)
        return Named(kind, name, text) if text else None
    found = declared(name)
    if found is None:
        return None
    leaf, function = found
    if kind == "function" and not function:
        leaf = split_name(node) or leaf
    text = text_of(leaf)
    if not text or text in C_KEYWORDS:
        return None  # a keyword the grammar's recovery read as a name (ckeywords)
    if kind == "function":
        return Named("function", leaf, text)
    if kind == "var":
        if unterminated(node):
            return None
        if function and at_file_level(node, through_errors=True):
            return Named("prototype", leaf, text)  # in an unparsed region too: no local is one
        if function or not at_file_level(node):
            return None
        return Named("constant" if constant(node, leaf) else "var", leaf, text)
    if kind == "type":
        tagged = node.child_by_field_name("type")
        if anonymous_body(tagged):
            return Named(TAGGED[tagged.type], leaf, text)
        return Named("type", leaf, text)
    return Named(kind, leaf, text)


def split_name(node: Node) -> Node | None:
    """The name of `T __attr name(void) {...}`, which the grammar reads as type `name` and a
    parenthesised declarator `(void)` once an attribute macro stands before the name."""
    kind = node.child_by_field_name("type")
    declarator = node.child_by_field_name("declarator")
    if kind is None or kind.type != "type_identifier" or declarator is None:
        return None
    return kind if declarator.type == "parenthesized_declarator" else None


def anonymous_body(node: Node | None) -> bool:
    """A struct, union or enum written with a body and no tag."""
    if node is None or node.type not in TAGGED:
        return False
    return node.child_by_field_name("name") is None and node.child_by_field_name("body") is not None


def unterminated(node: Node) -> bool:
    """A declaration whose `;` the grammar had to invent: the words before a function's name
    that an attribute macro cut off (`static void __cold` of `static void __cold bar(void)`)."""
    last = node.children[-1] if node.children else None
    return last is not None and last.is_missing


def prefix(node: Node) -> Node | None:
    """The cut-off words before a function on its line (`unterminated`), if any."""
    before = node.prev_named_sibling
    if before is None or before.type != "declaration" or not unterminated(before):
        return None
    return before if before.end_point.row >= node.start_point.row - 1 else None


def _guard(node: Node) -> bool:
    """`#define FOO_H` right inside `#ifndef FOO_H`: an include guard, not a macro anyone uses."""
    parent = node.parent
    if node.type != "preproc_def" or node.child_by_field_name("value") is not None:
        return False
    if parent is None or parent.type != "preproc_ifdef":
        return False
    condition = parent.child_by_field_name("name")
    defined = node.child_by_field_name("name")
    return condition is not None and defined is not None and text_of(condition) == text_of(defined)


def visibility(node: Node, kind: str, owner_kind: str, words: list[str]) -> str:
    """`static` at file level is private to the file; everything else is public."""
    if owner_kind:
        return "public"
    cut = prefix(node) if kind == "function" else None
    if cut is not None:
        words = [*words, *(text_of(c) for c in cut.children if c.type == "storage_class_specifier")]
    return "private" if "static" in words else "public"


def mods(node: Node, words: list[str]) -> list[str]:
    """Storage words but `static`, which the visibility says."""
    return [w for w in words if w != "static"]


_LITERAL = re.compile(
    rb"""\(?-?(?:0[xX][0-9a-fA-F]+|[0-9][0-9.]*(?:[eE][-+]?[0-9]+)?)[uUlLfF]*\)?|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)+'"""
)


def literal(node: Node) -> str | None:
    """A macro's body when it is a literal (`0x0002`, `(-1)`, `"x"`), else ""; other values are
    read by their node type."""
    if node.type != "preproc_arg":
        return None
    text = (node.text or b"").strip()
    return text.decode("utf-8", "replace") if _LITERAL.fullmatch(text) else ""


def signature(node: Node, name: Node, source: bytes) -> str:
    """The header up to the body with the name left out: `struct task_struct *(u64 clone_flags,
    ...)`, `int __init (void)`; a macro's parameters; a macro-made function's whole call."""
    if node.type == "preproc_function_def":
        return collapse(text_of(node.child_by_field_name("parameters")))
    if node.type == "preproc_def":
        return ""
    if node.type == "expression_statement":
        return collapse(text_of(node.named_children[0] if node.named_children else node))
    text = header_text(node, name, source)
    cut = prefix(node) if node.type == "function_definition" else None
    if cut is not None:
        words = [text_of(c) for c in cut.children if c.type != "storage_class_specifier" and c.is_named]
        text = collapse(" ".join([*words, text]))
    return text


def header_text(
    node: Node, name: Node, source: bytes, cut: Node | None = None, skip: frozenset[str] = frozenset()
) -> str:
    """A declaration's text from its type to its body (or a child of a `skip` type), without
    storage words, attributes, comments and modifier qualifiers (`constexpr`), and with `cut` (the
    name as written, qualifiers included) left out."""
    cut = cut if cut is not None else name
    parts: list[str] = []
    for child in node.children:
        kind = child.type
        if kind in BODIES or kind == ";" or kind in skip:
            break
        if kind in ("storage_class_specifier", "comment", "virtual", "explicit_function_specifier"):
            continue
        if kind in ATTRIBUTES or (kind == "type_qualifier" and text_of(child) in MODIFIER_QUALIFIERS):
            continue
        if child.start_byte <= cut.start_byte and cut.end_byte <= child.end_byte:
            start, end = child.start_byte, child.end_byte
            parts.append(
                (source[start : cut.start_byte] + b"\0" + source[cut.end_byte : end]).decode(
                    "utf-8", "replace"
                )
            )
            continue
        parts.append(text_of(child))
    before, _, after = " ".join(parts).partition("\0")
    before, after = collapse(before), collapse(after)
    if before.endswith(("*", "&")) or not before:
        return f"{before}{after}" if before.endswith(("*", "&")) else after
    return f"{before} {after}"


def value_type(node: Node, name: Node) -> str:
    """The type a field, constant or variable is declared with: its type words and what its
    declarator adds around the name (`char *[4]` for `char *names[4]`, `int (*)(int)` for
    `int (*cb)(int)`), without an initialiser or a bit width."""
    kind = node.child_by_field_name("type")
    if kind is None:
        return ""
    words: list[str] = []
    holder: Node | None = None
    for child in node.children:
        if child.start_byte <= name.start_byte and name.end_byte <= child.end_byte and child != kind:
            holder = child
            break
        if child == kind or (child.type == "type_qualifier" and text_of(child) not in MODIFIER_QUALIFIERS):
            words.append(text_of(child))
    if holder is not None and holder.type == "init_declarator":
        holder = holder.child_by_field_name("declarator")
    base = collapse(" ".join(words))
    if holder is None or holder == name:
        return base
    text = holder.text or b""
    before = text[: name.start_byte - holder.start_byte].decode("utf-8", "replace")
    after = text[name.end_byte - holder.start_byte :].decode("utf-8", "replace")
    return collapse(f"{base} {before.strip()}{after.strip()}")


def collapse(text: str) -> str:
    return " ".join(text.split())


def import_text(node: Node) -> str:
    """`<linux/sched.h>` for a system header, `local.h` for a quoted one."""
    path = node.child_by_field_name("path")
    text = collapse(text_of(path)) if path is not None else ""
    return text[1:-1] if text.startswith('"') and text.endswith('"') else text


# --- what the grammar reads ------------------------------------------------------------------

RESYNC = re.compile(rb"\}(?<![^\n]\})[^\n]*\n")
"""A `}` in column 0 ends a file-level definition: where the grammar's recovery starts again.
Found from each `}` (the look-behind: at the file's start or after a newline), where `^` was
tried at every byte of every function: 0.25 ms a 50 KB kernel file, now about a tenth."""


# --- .h: C or C++ ----------------------------------------------------------------------------

_LINE_START, _WORD_START, _AFTER_NAME = 1, 2, 3
"""Where a marker must stand: first on its line, at the start of a word, right after a name."""
_MARKERS: tuple[tuple[bytes, re.Pattern[bytes], int], ...] = tuple(
    (literal, re.compile(pattern), where)
    for literal, pattern, where in (
        (b"template", rb"template[ \t]*<", _LINE_START),
        (b"namespace", rb"namespace(?:[ \t]+[A-Za-z_][\w:]*)?[ \t]*\{", _WORD_START),
        (b"namespace", rb"using[ \t]+namespace\b", _WORD_START),
        (b"public", rb"public[ \t]*:(?!:)", _LINE_START),
        (b"private", rb"private[ \t]*:(?!:)", _LINE_START),
        (b"protected", rb"protected[ \t]*:(?!:)", _LINE_START),
        (b"class", rb"class[ \t]+[A-Za-z_]\w*(?:[ \t]+final)?[ \t]*[:{]", _WORD_START),
        (b"::", rb"::~?[A-Za-z_]", _AFTER_NAME),
        (b"nullptr", rb"nullptr\b", _WORD_START),
        (b"constexpr", rb"constexpr\b", _WORD_START),
        (b"decltype", rb"decltype\b", _WORD_START),
        (b"noexcept", rb"noexcept\b", _WORD_START),
        (b"_cast", rb"(?:static|reinterpret|dynamic|const)_cast[ \t]*<", _WORD_START),
        (b'"C++"', rb'extern[ \t]+"C\+\+"', _WORD_START),
        (b"export", rb"export[ \t]+module\b", _LINE_START),
    )
)
_INCLUDE = re.compile(rb"#[ \t]*include[ \t]*[<\"]([^>\"\n]*)[>\"]")
_CPP_HEADER = re.compile(rb"[A-Za-z_]\w*|.*\.(?:hpp|hh|hxx|h\+\+|tpp|ipp)")
_COMMENT_OR_STRING = re.compile(rb'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL)


def includes(source: bytes) -> list[str]:
    """The headers a source includes, as written (`#include <Lib/app.h>` → `Lib/app.h`)."""
    return [m.group(1).decode("utf-8", "replace").strip() for m in _INCLUDE.finditer(source)]


def header_language(source: bytes) -> str:
    """`cpp` when a `.h` file shows C++ outside comments and strings, else `c`.

    The C++ markers: `class X {` or `class X :`, `namespace X {`, `using namespace`, `template <`
    and an access section (`public:`) first on a line, `::` after a name (not in a C23 `[[gnu::x]]`
    attribute), `extern "C++"`, `nullptr`, `constexpr`, `decltype`, `noexcept`, the `*_cast<`
    operators, `export module`, and an `#include` of a header without an extension (`<vector>`)
    or with a C++ one (`.hpp`). A C header wrapped for C++ (`#ifdef __cplusplus` / `extern "C"
    {`) stays C. Each marker is looked for by its literal first, so a header without any is
    decided without a scan of its comments and strings.
    """
    hidden: list[tuple[int, int]] | None = None
    for match in _INCLUDE.finditer(source):
        if _CPP_HEADER.fullmatch(match.group(1)):
            hidden = hidden if hidden is not None else _hidden(source)
            if not _inside(hidden, match.start()):
                return "cpp"
    for literal, pattern, where in _MARKERS:
        if literal not in source:
            continue
        for match in pattern.finditer(source):
            if not _stands(source, match.start(), where):
                continue
            hidden = hidden if hidden is not None else _hidden(source)
            if not _inside(hidden, match.start()):
                return "cpp"
    return "c"


def _stands(source: bytes, at: int, where: int) -> bool:
    before = source[at - 1 : at]
    if where == _AFTER_NAME:
        return (before.isalnum() or before == b"_") and source.rfind(b"[[", max(0, at - 64), at) < 0
    if before.isalnum() or before == b"_":
        return False
    if where == _LINE_START:
        line = source.rfind(b"\n", 0, at) + 1
        return not source[line:at].strip()
    return True


def _hidden(source: bytes) -> list[tuple[int, int]]:
    """The spans of comments and string literals, in order."""
    return [match.span() for match in _COMMENT_OR_STRING.finditer(source)]


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    index = bisect.bisect_right(spans, (at, 1 << 62)) - 1
    return index >= 0 and spans[index][0] <= at < spans[index][1]


USES = Uses(
    calls={"call_expression": "function"},
    members={"field_expression": ("field", "argument")},
    types=frozenset({"type_identifier"}),
    type_parents=frozenset({"type_descriptor", "sizeof_expression", "cast_expression"}),
    wrappers=frozenset({"struct_specifier", "union_specifier", "enum_specifier", "type_descriptor"}),
    scopes=frozenset({"function_definition", "declaration"}),
    implicit_self=False,
)
"""C's uses: calls, `a.b` and `p->b` members typed by their declarations (`struct foo *p`), types.
A prototype's parameters are bound in the prototype alone (`declaration` is a scope)."""

UNITS = (
    *bodies.SLASH_COMMENTS,
    bodies.DIRECTIVE_LINES,
    rb'R"(?P<raw>[^()\\\s]{0,16})\((?s:.*?)\)(?P=raw)"',
    bodies.DOUBLE_QUOTED,
    bodies.SINGLE_QUOTED,
)
"""What braces do not count in, in C and C++: comments, directives (`#define BEGIN {`), C++ raw
strings (`u8R"x(...)x"` from its `R`), strings and character literals."""

OUTLINE = bodies.Braces(UNITS, rb"\)\s*\Z", frozenset({"compound_statement"}))
"""A function body follows its parameter list (or an `__attribute__((...))` after it)."""

SPEC = Spec(
    query="c.scm",
    binding_query="c.bindings.scm",
    uses=USES,
    comments=frozenset({"comment"}),
    strings=frozenset(
        {
            "string_literal",
            "string_content",
            "char_literal",
            "concatenated_string",
            "escape_sequence",
            "system_lib_string",
        }
    ),
    bodies=frozenset({"compound_statement", "field_declaration_list", "enumerator_list"}),
    modifiers=frozenset({"storage_class_specifier"}),
    annotations=ATTRIBUTES,
    visibility=visibility,
    signature=signature,
    import_text=import_text,
    mods=mods,
    named=named,
    prepare=cmacros.prepare_c,
    resync=RESYNC,
    resync_nodes=frozenset({"function_definition", "compound_statement"}),
    regions=regions.column_zero_braces,
    value_type=value_type,
    literal=literal,
    symbol_rows=frozenset({"constant", "var"}),
    outline=OUTLINE,
)
