"""Macros the C and C++ grammars cannot know, blanked before parsing at the same length (spaces,
newlines kept), so every byte offset of the tree is the file's own and slices stay exact.

Two kinds. Attribute macros of the Linux kernel and glibc, by name (`static int __init foo(void)`,
`const char __user *p`, `__printf(2, 3)`). And a project's own macros, by where they stand: upper
case names with an underscore (`FMT_API`, `EIGEN_DEVICE_FUNC`) on a line of their own between
declarations (`FMT_BEGIN_NAMESPACE`), before a declaration keyword (`FMT_CONSTEXPR auto f()`),
after `class` or `explicit` (`class FMT_API format_error`), after storage keywords alone and
before a type and a name (`static THREAD_LOCAL comm_size_t buffer_size_;`), after a function's parameters
(`int rows() const EIGEN_NOEXCEPT {`), or called alone on a line between declarations
(`ATOMIC64_OPS(add, +=)`, `EIGEN_INHERIT_ASSIGNMENT_OPERATORS(Transpose)`); in C++ also before a
constructor's name (`FMT_CONSTEXPR20 basic_memory_buffer(...)`); first on a line before a type and
a function's name (`FMT_CONSTEXPR digits::result on_digit(...)`). In C++ any word before a
destructor's `~` that is no keyword is a macro too (`__device__ ~Foo()`). A macro call followed by a body
(`SYSCALL_DEFINE1(...) {`) is left alone: it defines a function.
"""

from __future__ import annotations

import re

from sofia.syntax.languages.ckeywords import CPP_KEYWORDS

ATTRIBUTE_MACROS = frozenset(
    [
        "__init",
        "__exit",
        "__meminit",
        "__meminitdata",
        "__init_memblock",
        "__initdata_memblock",
        "__initdata",
        "__initconst",
        "__exitdata",
        "__ref",
        "__refdata",
        "__cold",
        "__hot",
        "__noreturn",
        "__weak",
        "__user",
        "__kernel",
        "__iomem",
        "__percpu",
        "__rcu",
        "__force",
        "__bitwise",
        "__safe",
        "__nocast",
        "__must_check",
        "__maybe_unused",
        "__always_unused",
        "__used",
        "__visible",
        "__always_inline",
        "__noinline",
        "__inline",
        "__inline__",
        "__read_mostly",
        "__ro_after_init",
        "__cacheline_aligned",
        "__cacheline_aligned_in_smp",
        "____cacheline_aligned",
        "____cacheline_aligned_in_smp",
        "__packed",
        "__pure",
        "__attribute_const__",
        "__latent_entropy",
        "__randomize_layout",
        "__sched",
        "__kprobes",
        "__lockfunc",
        "__nocfi",
        "__noclone",
        "__naked",
        "__softirq_entry",
        "__irq_entry",
        "__cpuidle",
        "__flatten",
        "__noinstr",
        "__deprecated",
        "__THROW",
        "__THROWNL",
        "__wur",
        "__attribute_pure__",
        "__attribute_malloc__",
        "__attribute_warn_unused_result__",
        "__attribute_noinline__",
        "__BEGIN_DECLS",
        "__END_DECLS",
        "notrace",
        "asmlinkage",
        "noinline",
        "noinstr",
    ]
)
"""Attribute macros the grammar cannot know (the Linux kernel's and glibc's): read as blanks of
the same length, so `static int __init foo(void)` parses as a function and offsets hold."""
CALLED_MACROS = frozenset(
    [
        "__printf",
        "__scanf",
        "__aligned",
        "__section",
        "__alloc_size",
        "__realloc_size",
        "__acquires",
        "__releases",
        "__must_hold",
        "__nonnull",
        "__attr_access",
        "__attr_dealloc",
        "__attribute_format_arg__",
        "__attribute_alloc_size__",
        "__cond_acquires",
        "__diagnose_as_builtin",
    ]
)
"""Attribute macros written with arguments (`__printf(2, 3)`): blanked with their arguments."""

_MACRO_WORD = re.compile(rb"_(?<![A-Za-z0-9_]_)_{1,3}[A-Za-z][A-Za-z0-9_]*+")
"""Found by its leading underscores (a literal the scan skips to), at the start of a word (the
look-behind after the first `_`: tried at every `_` of a snake_case name the scan cost 0.6 ms a
50 KB kernel file, now 0.07); checked against the table."""
_PLAIN_WORDS = (b"notrace", b"asmlinkage", b"noinline", b"noinstr")
"""The attribute macros without leading underscores, found by a plain search."""
_WORDS = frozenset(word.encode() for word in ATTRIBUTE_MACROS)
_CALLED = frozenset(word.encode() for word in CALLED_MACROS)

_CANDIDATE = re.compile(rb"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Z0-9]*+_[A-Z0-9_]*+(?=[ \t\n/]|$)")
"""A project macro's name (upper case with an underscore: `FMT_API`; `DWORD` is left alone) at
the start of a word, where it may stand as an attribute: before a blank, a line end or a comment.
Possessive, and tried only where a word starts: a long constant before a `(` or `,`
(`STB0899_OFFST_RF_AGC_GAIN(`) was tried again from each of its letters, backtracking each time."""
_CALL = rb"[ \t]*([A-Z][A-Z0-9]*+_[A-Z0-9_]*+\((?:[^()\n]|\([^()\n]*\))*\))[ \t]*(?://[^\n]*)?$"
_CALL_LINE = re.compile(_CALL, re.MULTILINE)
"""A macro called alone on a line (matched at the file's start)."""
_CALL_AFTER_NEWLINE = re.compile(rb"\n" + _CALL, re.MULTILINE)
"""The same on every later line, found from its newline: a scan for a literal byte, where `^`
was tried at every offset of the file."""
_NAMES_REST = re.compile(rb"(?:[ \t]+[A-Z][A-Z0-9]*_[A-Z0-9_]*)*")
_LINE_REST = re.compile(rb"[ \t]*(?://[^\n]*|/\*.*?\*/[ \t]*)?(?:\n|$)")
_KEYWORD = re.compile(
    rb"[ \t]+(?:class|struct|union|enum|namespace|template|inline|static|extern|constexpr|consteval"
    rb"|virtual|explicit|friend|void|bool|char|int|auto|unsigned|signed|long|short|float|double"
    rb"|const|typename|operator)\b"
)
_NAME_FOLLOWS = re.compile(rb"[ \t]+~?[A-Za-z_]")
_CALL_FOLLOWS = re.compile(rb"[ \t]+(?:inline[ \t]+)?~?[A-Za-z_]\w*[ \t]*\(")
_TAG_FOLLOWS = re.compile(rb"[ \t]+[A-Za-z_]\w*[ \t]*(?:[:{]|final\b)")
_TYPE = rb"(?:::)?[A-Za-z_]\w*(?:[ \t]*<[^;{}()\n]*>)?(?:::[A-Za-z_]\w*(?:[ \t]*<[^;{}()\n]*>)?)*"
_DECLARATION_FOLLOWS = re.compile(
    rb"[ \t]+" + _TYPE + rb"[ \t*&]*[ \t*&](?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*[ \t]*[(;=\[]"
)
"""A type (qualified, with template arguments) and a declared name after a macro first on its
line: `FMT_CONSTEXPR digits::result on_digit(`, `THREAD_LOCAL BruckMap Network::bruck_map_;`,
which no declaration without a macro starts with."""
_STORAGE_ONLY = re.compile(rb"[ \t]*(?:(?:static|extern|inline|mutable|constexpr|thread_local)[ \t]+)+")
"""Storage keywords alone before a macro (`static THREAD_LOCAL comm_size_t buffer_size_;`): with a
type and a declared name after it, the macro stands where only an attribute can."""
_BEFORE_DESTRUCTOR = re.compile(rb"[ \t]*((?:[A-Za-z_]\w*[ \t]+)+)~[A-Za-z_]\w*[ \t]*\(")
"""Words before a destructor's `~` first on a line: each that is no keyword is a macro
(`__device__ ~Foo()`, `lib_export ~Foo();`), where the grammar reads the name without its `~`.
Matched from the start of each line holding a `~` (a match never crosses a line)."""
_WORD = re.compile(rb"[A-Za-z_]\w*")
_BODY_FOLLOWS = re.compile(rb"[ \t]*(?:[{;]|\n|$)")
_AFTER_PARAMETERS = re.compile(rb"\)[ \t]*(?:const[ \t]+)?(?:(?:noexcept|override|final)[ \t]+)*$")
_SPECIFIER_BEFORE = re.compile(rb"\b(?:class|explicit|virtual|friend)[ \t]+$")
_TAG_BEFORE = re.compile(rb"\b(?:struct|union)[ \t]+$")
_FOLLOWS = frozenset(b"{}(),;|&+-*/=?<>[.!%^")
"""What a macro on a line of its own must not be followed by (it is then part of an expression,
an enumerator list, or a function it defines)."""
_ENDS = frozenset(b";{}:)>")
"""How the code line before a macro on a line of its own may end."""


def prepare_c(source: bytes) -> bytes:
    return _blank(source, cpp=False)


def prepare_cpp(source: bytes) -> bytes:
    return _blank(source, cpp=True)


def _blank(source: bytes, *, cpp: bool) -> bytes:
    spans = _known(source)
    spans.extend(_uses(source, cpp))
    if cpp and b"~" in source:
        spans.extend(_before_destructors(source))
    for start, end, call in _call_lines(source):
        if _between_declarations(source, start, end):
            spans.append(call)
    if not spans:
        return source
    out = bytearray(source)
    for start, end in spans:
        out[start:end] = bytes(10 if byte == 10 else 32 for byte in source[start:end])
    return bytes(out)


def _call_lines(source: bytes) -> list[tuple[int, int, tuple[int, int]]]:
    """Each line that is one macro call (and a comment): where the line starts and ends, and the
    call's span."""
    found: list[tuple[int, int, tuple[int, int]]] = []
    first = _CALL_LINE.match(source)
    if first is not None:
        found.append((first.start(), first.end(), first.span(1)))
    found.extend((m.start() + 1, m.end(), m.span(1)) for m in _CALL_AFTER_NEWLINE.finditer(source))
    return found


def _uses(source: bytes, cpp: bool) -> list[tuple[int, int]]:
    """The spans of project macros standing where only an attribute or a declaration wrapper can."""
    spans: list[tuple[int, int]] = []
    done = 0
    for match in _CANDIDATE.finditer(source):
        start, end = match.span()
        if start < done or (start > 0 and (source[start - 1 : start].isalnum() or source[start - 1] == 95)):
            continue
        line = source.rfind(b"\n", 0, start) + 1
        before = source[line:start]
        if before.lstrip()[:1] == b"#" or (line >= 2 and source[line - 2] == 92):
            continue
        words = _NAMES_REST.match(source, end)
        last = words.end() if words is not None else end
        if (
            _KEYWORD.match(source, last)
            or (_AFTER_PARAMETERS.search(before) and _BODY_FOLLOWS.match(source, last))
            or (_TAG_BEFORE.search(before) and _TAG_FOLLOWS.match(source, end))
            or (cpp and _SPECIFIER_BEFORE.search(before) and _NAME_FOLLOWS.match(source, last))
            or (_STORAGE_ONLY.fullmatch(before) and _DECLARATION_FOLLOWS.match(source, last))
        ):
            spans.append((start, last))
        elif not before.strip():
            rest = _LINE_REST.match(source, last)
            alone = rest is not None and _between_declarations(source, line, rest.end())
            if (
                alone
                or (cpp and _CALL_FOLLOWS.match(source, last))
                or _DECLARATION_FOLLOWS.match(source, last)
            ):
                spans.append((start, last))
        done = max(done, spans[-1][1] if spans else 0)
    return spans


def _before_destructors(source: bytes) -> list[tuple[int, int]]:
    """The spans of the words before a destructor that are no C++ keyword (`virtual` stays)."""
    spans: list[tuple[int, int]] = []
    lines: set[int] = set()
    tilde = source.find(b"~")
    while tilde >= 0:
        lines.add(source.rfind(b"\n", 0, tilde) + 1)
        tilde = source.find(b"~", tilde + 1)
    for line in sorted(lines):
        match = _BEFORE_DESTRUCTOR.match(source, line)
        if match is None:
            continue
        words = [word for word in _WORD.finditer(source, *match.span(1))]
        if any(word.group(0) in _STATEMENT_WORDS for word in words):
            continue  # `return ~mask(x);`: an expression
        spans.extend(word.span() for word in words if word.group(0).decode() not in CPP_KEYWORDS)
    return spans


_STATEMENT_WORDS = frozenset(
    {b"return", b"case", b"throw", b"co_return", b"co_yield", b"sizeof", b"else", b"do"}
)
"""Keywords a `~` expression follows: the line is a statement, not a destructor."""


def _known(source: bytes) -> list[tuple[int, int]]:
    """The spans of the kernel's and glibc's attribute macros (with their arguments)."""
    spans: list[tuple[int, int]] = []
    for word in _PLAIN_WORDS:
        at = source.find(word)
        while at >= 0:
            end = at + len(word)
            alone = (at == 0 or not _word_byte(source[at - 1])) and (
                end == len(source) or not _word_byte(source[end])
            )
            if alone:
                spans.append((at, end))
            at = source.find(word, end)
    for match in _MACRO_WORD.finditer(source):
        word = match.group(0)
        start, end = match.span()
        if start > 0 and _word_byte(source[start - 1]):
            continue
        if word in _CALLED:
            close = _closing(source, end)
            if close < 0:
                continue
            end = close
        elif word not in _WORDS:
            continue
        spans.append((start, end))
    return spans


def _between_declarations(source: bytes, start: int, end: int) -> bool:
    """A line of its own stands between declarations: the code before it ends a statement, a
    block or a label (or is a directive or a comment), and what follows starts a declaration."""
    after = end
    while after < len(source) and source[after] in b" \t\r\n":
        after += 1
    if after < len(source) and source[after] in _FOLLOWS and source[after : after + 2] not in (b"//", b"/*"):
        return False
    for _ in range(8):  # a run of macros alone on their lines: FMT_BEGIN_NAMESPACE, then FMT_..._BEGIN
        before, begin = _previous_line(source, start)
        if not before:
            return True
        if before.endswith(b"\\"):
            return False  # the body of a multi-line #define
        if not _ALONE.fullmatch(before):
            break
        start = begin
    return (
        before[:1] == b"#"
        or before[:2] in (b"//", b"/*", b"* ")
        or before.endswith(b"*/")
        or before[-1] in _ENDS
    )


_ALONE = re.compile(rb"[A-Z][A-Z0-9]*_[A-Z0-9_]*")
"""A project macro alone on its line: between declarations where the line before it is."""


def _previous_line(source: bytes, at: int) -> tuple[bytes, int]:
    """The last line with text before offset `at` (a line start), stripped, and where it starts;
    (b"", 0) at the top."""
    end = at - 1
    while end > 0:
        begin = source.rfind(b"\n", 0, end) + 1
        text = source[begin:end].strip()
        if text:
            return text, begin
        end = begin - 1
    return b"", 0


def _word_byte(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122


def _closing(source: bytes, offset: int) -> int:
    """Just past the `)` closing the parenthesis that follows `offset` (spaces between), or -1."""
    at = offset
    while at < len(source) and source[at] in b" \t":
        at += 1
    if at >= len(source) or source[at] != 40:
        return -1
    depth = 0
    for index in range(at, min(len(source), at + 400)):
        byte = source[index]
        if byte == 40:
            depth += 1
        elif byte == 41:
            depth -= 1
            if depth == 0:
                return index + 1
    return -1
