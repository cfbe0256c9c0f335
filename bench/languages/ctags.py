"""The definitions oracle: Universal Ctags (Debian `universal-ctags`), run once per language over
the sampled files, and which of its kinds count.

Counted per language (ctags kind names, `--list-kinds-full=LANG`); never counted: prototypes,
macros, members/fields, properties, enumerators, variables, constants, typedefs/aliases,
namespaces/packages/modules (Rust), `impl` blocks, locals, and anything whose scope runs through a
function or method (local functions, lambdas, classes declared in a body):

| sofia | ctags parser | counted kinds |
|---|---|---|
| java | Java | class, interface, enum, annotation (`@interface`), method (constructors included) |
| kotlin | Kotlin | class, interface, object, method |
| csharp | C# | class, struct, interface, enum, method |
| c | C | function, struct, union, enum |
| cpp | C++ | function, class, struct, union, enum |
| rust | Rust | function, method, struct, enum, interface (trait) |
| ruby | Ruby | class, module, method, singletonMethod |
| swift | none in this ctags | see `swift_tags`: a line regex written here, not an independent oracle |
| scala | none in this ctags | the Scala compiler's parser instead (`languages/scalac.py`): class, trait, object, method |

ctags runs with `--extras=-{anonymous}`, not `--extras=-F`: `-F` drops every file-scope tag, which
in C is every `static` function and every struct defined in a `.c` file.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

PARSER = {
    "java": "Java",
    "kotlin": "Kotlin",
    "csharp": "C#",
    "c": "C",
    "cpp": "C++",
    "rust": "Rust",
    "ruby": "Ruby",
}
KINDS = {
    "java": {"class", "interface", "enum", "annotation", "method"},
    "kotlin": {"class", "interface", "object", "method"},
    "csharp": {"class", "struct", "interface", "enum", "method"},
    "c": {"function", "struct", "union", "enum"},
    "cpp": {"function", "class", "struct", "union", "enum"},
    "rust": {"function", "method", "struct", "enum", "interface"},
    "ruby": {"class", "module", "method", "singletonMethod"},
    "swift": {"function", "class", "struct", "enum", "protocol"},
    "scala": {"class", "trait", "object", "method"},
}
FUNCTION_KINDS = {"function", "method", "singletonMethod"}
"""Kinds whose bodies hold code: a grep hit inside one should name it."""
SCOPE_SEPARATOR = re.compile(r"::|\.")
OPTIONS = ("--output-format=json", "--fields=+neKS", "--extras=-{anonymous}", "--sort=no")


@dataclass(frozen=True)
class Tag:
    path: str
    name: str
    kind: str
    line: int
    end: int | None
    scope: str
    scope_kind: str
    text: str
    """The declaration line as ctags' pattern holds it."""

    @property
    def qualified(self) -> str:
        return f"{self.scope}.{self.name}" if self.scope else self.name


def command(lang: str) -> list[str]:
    return ["ctags", *OPTIONS, f"--language-force={PARSER[lang]}", "-o", "-", "-L", "-"]


def run_ctags(root: Path, files: list[str], lang: str) -> dict[str, list[Tag]]:
    """Every tag ctags gives for `files` (relative to `root`), by file; Swift through `swift_tags`,
    Scala through the Scala compiler's parser (`languages/scalac.py`)."""
    if lang == "scala":
        from languages.scalac import scalac_tags

        return scalac_tags(root, files)
    out: dict[str, list[Tag]] = {f: [] for f in files}
    if lang == "swift":
        for rel in files:
            out[rel] = swift_tags(rel, (root / rel).read_text(errors="replace"))
        return out
    done = subprocess.run(
        command(lang), cwd=root, input="\n".join(files) + "\n", capture_output=True, text=True, check=True
    )
    for line in done.stdout.splitlines():
        record = json.loads(line)
        if record.get("_type") != "tag" or record["path"] not in out:
            continue
        pattern = record.get("pattern", "")
        out[record["path"]].append(
            Tag(
                path=record["path"],
                name=record["name"],
                kind=record.get("kind", ""),
                line=int(record.get("line", 0)),
                end=int(record["end"]) if "end" in record else None,
                scope=record.get("scope", ""),
                scope_kind=record.get("scopeKind", ""),
                text=(pattern[2:-2] if pattern.startswith("/^") else pattern).replace("\\/", "/"),
            )
        )
    if lang in BRACE_ENDS:
        for rel, tags in out.items():
            lines = (root / rel).read_text(errors="replace").splitlines()
            out[rel] = [
                t if t.end is not None else replace(t, end=brace_end(lines, t.line, lang)) for t in tags
            ]
    return {rel: without_misreadings(tags, lang) for rel, tags in out.items()}


CONSTANT_KINDS = {"enumConstant", "enumerator"}
TYPE_KINDS = {"struct", "union", "enum"}
CSHARP_TYPE = re.compile(r"\b(?:class|struct|interface|enum|record)\s+(?P<name>\w+)")
CSHARP_TYPE_KINDS = {"class", "struct", "interface"}


def without_misreadings(tags: list[Tag], lang: str) -> list[Tag]:
    """Four ctags misreadings are dropped: a Java enum constant with a body (`NON_SEALED(…) {`)
    tagged a second time as a method of that name; a C/C++ variable of a struct, union or enum
    type tagged as that type (`static enum sof_tokens comp_tokens[] = {` as enum `comp_tokens`);
    a generic C# class tagged by its constraint's type parameter (`class EnumOps<T> where T : Enum`
    as class `T`); a Ruby `def self.name` inside an `if` at class level tagged as a singleton
    method named `self`."""
    constants = {(t.name, t.line) for t in tags if t.kind in CONSTANT_KINDS}
    kept = []
    for tag in tags:
        keyword = CSHARP_TYPE.search(tag.text)
        if lang == "csharp" and tag.kind in CSHARP_TYPE_KINDS and keyword and keyword["name"] != tag.name:
            continue
        if tag.kind not in CONSTANT_KINDS and (tag.name, tag.line) in constants:
            continue
        if tag.kind in TYPE_KINDS and re.search(rf"\b{re.escape(tag.name)}\s*(\[|=|;|,|\))", tag.text):
            continue
        if lang == "ruby" and tag.kind == "singletonMethod" and tag.name == "self":
            continue
        kept.append(tag)
    return kept


def counted(tags: list[Tag], lang: str) -> list[Tag]:
    """The definitions scored: counted kinds, named, and not local to a function or method."""
    functions = {t.qualified for t in tags if t.kind in FUNCTION_KINDS}
    kept = []
    for tag in tags:
        if tag.kind not in KINDS[lang] or tag.name.startswith(("__anon", "<")):
            continue
        if tag.scope_kind in FUNCTION_KINDS or any(p in functions for p in scope_prefixes(tag.scope)):
            continue
        kept.append(tag)
    return kept


def scope_prefixes(scope: str) -> list[str]:
    """`a.b.c` → `a`, `a.b`, `a.b.c` (ctags writes `.` or `::` between scopes)."""
    prefixes = [scope[: m.start()] for m in SCOPE_SEPARATOR.finditer(scope)]
    return [*prefixes, scope] if scope else []


SWIFT_DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|open|package|static|class"
    r"|final|override|mutating|nonmutating|convenience|required|dynamic|indirect|nonisolated|"
    r"@MainActor|@objc|@available\([^)]*\))\s+)*"
    r"(?P<keyword>func|class|struct|enum|protocol|actor|extension)\s+(?P<name>[A-Za-z_]\w*|`[^`]+`)"
)
SWIFT_KIND = {
    "func": "function",
    "class": "class",
    "struct": "struct",
    "enum": "enum",
    "protocol": "protocol",
    "actor": "class",
    "extension": "extension",
}


STRING = re.compile(r'"(?:[^"\\]|\\.)*"' + r"|'(?:[^'\\]|\\.)'")
"""A string or a one-character literal (a Rust lifetime `'a` has no closing quote and stays)."""
CONTINUES = ("{", "->", "where", "throws", "rethrows", "async", ")", ":", ".", ",")
BRACE_ENDS = {"rust", "kotlin"}
"""Languages whose ctags parser gives no end line: `brace_ends` finds it."""
BRACE_SCAN = 400
"""Lines scanned from a declaration for its opening brace."""


def code_of(line: str, in_comment: bool) -> tuple[str, bool]:
    """The code of one line of a C-family language (strings blanked, comments cut), and whether a
    block comment is still open after it."""
    if in_comment:
        if "*/" not in line:
            return "", True
        line = line.split("*/", 1)[1]
    code = STRING.sub('""', line).split("//", 1)[0]
    if "/*" in code:
        code, rest = code.split("/*", 1)
        return code, "*/" not in rest
    return code, False


def continues(code: str, following: str) -> bool:
    """Whether a declaration that opened no body yet goes on past this line."""
    return (
        code.count("(") > code.count(")")
        or code.rstrip().endswith((",", "(", "->", ":", "="))
        or following.startswith(CONTINUES)
    )


def brace_end(lines: list[str], start: int, lang: str) -> int | None:
    """The line of the brace closing the body that follows the declaration on line `start`, or None
    when it has none: a `;` first (Rust), an expression body `=` (Kotlin), or a Kotlin declaration
    whose line ends with nothing more to come (`data class P(val x: Int)`)."""
    depth = 0
    parens = 0
    opened = False
    in_comment = False
    for index in range(start - 1, min(len(lines), start - 1 + BRACE_SCAN)):
        code, in_comment = code_of(lines[index], in_comment)
        for char in code:
            if not opened:
                if char in "([":
                    parens += 1
                elif char in ")]":
                    parens -= 1
                elif parens == 0 and (char == ";" or (char == "=" and lang == "kotlin")):
                    return None
                elif char == "{":
                    opened, depth = True, 1
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return index + 1
        if not opened and lang == "kotlin" and parens <= 0:
            following = next((n.strip() for n in lines[index + 1 :] if n.strip()), "")
            if not continues(code, following):
                return None
    return None


def swift_tags(rel: str, text: str) -> list[Tag]:
    """Swift declarations by a line regex and brace counting (this ctags has no Swift parser):
    `func`, `class`, `struct`, `enum`, `protocol`, `actor` at the start of a line after attributes
    and modifiers, outside comments; the end is the line of the brace that closes the body, and a
    declaration inside a function body is marked local (`scope_kind` function)."""
    tags: list[Tag] = []
    stack: list[tuple[int, int]] = []
    """(depth inside the body, index in tags) of each open declaration body."""
    depth = 0
    pending: int | None = None
    in_comment = False
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        code, in_comment = code_of(line, in_comment)
        found = SWIFT_DECLARATION.match(code)
        if found:
            enclosing = [tags[i] for _, i in stack]
            local = any(t.kind == "function" for t in enclosing)
            scope = ".".join(t.name for t in enclosing)
            tags.append(
                Tag(
                    rel,
                    found["name"].strip("`"),
                    SWIFT_KIND[found["keyword"]],
                    number,
                    None,
                    scope,
                    "function" if local else (enclosing[-1].kind if enclosing else ""),
                    line.rstrip(),
                )
            )
            pending = len(tags) - 1
        for char in code:
            if char == "{":
                depth += 1
                if pending is not None:
                    stack.append((depth, pending))
                    pending = None
            elif char == "}":
                if stack and stack[-1][0] == depth:
                    index = stack.pop()[1]
                    tags[index] = replace(tags[index], end=number)
                depth -= 1
        if pending is not None:
            following = next((n.strip() for n in lines[number:] if n.strip()), "")
            if not continues(code, following):
                pending = None
    return tags
