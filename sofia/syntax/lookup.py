"""Finding symbols by name, shared by `code` (slices of a name anywhere under a directory) and
`refs` (definitions and uses): how a requested name is read, the spellings a qualified name may
take in each language, and which symbols of a parsed file it denotes."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sofia.syntax.tree import Symbol, SymbolTree

if TYPE_CHECKING:
    from sofia.syntax.queried import Spec

MAX_NAME_CHARS = 128
"""Longer names are refused: no identifier anyone writes is that long."""
SEPARATORS = re.compile(r"::|->|\.|\\|#")
_ESCAPED = re.compile(r"`([^`\n]+)`|(?<![\w#])r#([A-Za-z_]\w*)")
"""A segment written escaped, in any language that has the form: in backticks (Kotlin, Swift,
Scala) or Rust's raw `r#type`; the name is what is inside."""
_GO_RECEIVER = re.compile(r"^\(?\*?\s*([A-Za-z_][\w]*)(?:\[[^\]]*\])?\)?\.(\w+)$")


class BadName(ValueError):
    """A requested name that cannot be looked up; the message says why and how to write it.
    Internal, a ValueError its callers turn into a ProviderError (see the drawing in `sofia.errors`)."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


@dataclass(frozen=True)
class Query:
    """A requested name: its text, the qualifier segments before the last one, and that last one."""

    text: str
    qualifier: tuple[str, ...]
    name: str
    member: bool
    """Written as a member (`Class::method`, `->`, or a qualifier that names a type)."""


def parse_query(text: str) -> Query:
    """Read a name as an agent writes it; `::`, `.`, `->`, Ruby's `#` (and PHP's `\\`) all separate segments,
    and a Go receiver spelling `(*Server).Routes` is `Server.Routes`. Raises BadName."""
    from sofia.errors import quote

    wanted = text.strip()
    if not wanted:
        raise BadName("empty symbol name", "give a name such as destroy or UserController::destroy")
    if len(wanted) > MAX_NAME_CHARS:
        raise BadName(
            f"symbol name too long: {quote(wanted, 60)}; at most {MAX_NAME_CHARS} characters",
            "give the symbol's name, qualified at most by its class, module or namespace",
        )
    if _stray_whitespace(wanted):
        raise BadName(
            f"symbol name holds whitespace: {quote(wanted)}",
            "give one name per entry; a name with spaces is given in its backticks (`adds two numbers`)",
        )
    wanted = _ESCAPED.sub(lambda match: match.group(1) or match.group(2), wanted)
    go = _GO_RECEIVER.match(wanted)
    if go and wanted.startswith("("):
        wanted = f"{go.group(1)}.{go.group(2)}"
    parts = SEPARATORS.split(wanted.lstrip("\\").lstrip("$"))
    if any(not part for part in parts):
        raise BadName(
            f"malformed qualified name: {quote(text.strip())}",
            "separate segments with ::, . or -> (App\\Http\\UserController::destroy, Repo.fetch)",
        )
    qualifier = tuple(parts[:-1])
    member = bool(re.search(r"::|->|#", wanted)) or bool(
        qualifier and "\\" not in wanted and qualifier[-1][:1].isupper()
    )
    return Query(text=text.strip(), qualifier=qualifier, name=parts[-1], member=member)


def _stray_whitespace(wanted: str) -> bool:
    """Whitespace that reads as several names written as one (`foo bar`), not as part of one:
    inside backticks (`` `adds two numbers` ``), or in the last segment of a qname as the tools
    print it (`CartTest.adds two numbers`)."""
    plain = _ESCAPED.sub("", wanted)
    if not any(c.isspace() for c in plain):
        return False
    *qualifier, last = SEPARATORS.split(plain)
    return not qualifier or any(c.isspace() for part in qualifier for c in part) or last[:1].isspace()


def spellings(symbol: str, lang: str) -> list[str]:
    """The qnames a requested spelling may stand for in a file of `lang`, most literal first."""
    wanted = symbol.strip().lstrip("\\")
    found = [wanted]
    if "->" in wanted:
        found.append(wanted.replace("->", "::" if lang == "php" else "."))
    if lang == "php":
        if "::" not in wanted and "." in wanted:
            found.append(wanted.replace(".", "::", 1))
        found.extend(s.rsplit("\\", 1)[-1] for s in list(found) if "\\" in s)
    else:
        found.extend(s.replace("::", ".") for s in list(found) if "::" in s)
    found.extend(_language_spellings(wanted, lang))
    unescaped = _unescaped(wanted, lang)
    if unescaped != wanted:
        found.extend([unescaped, *(s.replace("::", ".") for s in [unescaped] if "::" in s and lang != "php")])
    if lang == "go":
        match = _GO_RECEIVER.match(wanted.replace(" ", ""))
        if match:
            found.append(f"{match.group(1)}.{match.group(2)}")
    return list(dict.fromkeys(found))


def _language_spellings(wanted: str, lang: str) -> list[str]:
    """The other qnames the language's record says a requested one stands for (`Spec.spellings`)."""
    spec = _spec(lang)
    return spec.spellings(wanted) if spec is not None and spec.spellings is not None else []


def _unescaped(wanted: str, lang: str) -> str:
    """A name asked for as the file writes it escaped (`` Foo.`in` ``, `S::r#type`), as the
    compiler reads it and a qname holds it (`Foo.in`, `S::type`)."""
    spec = _spec(lang)
    escaped = spec.escaped if spec is not None else None
    return escaped.sub(r"\1", wanted) if escaped is not None else wanted


def _spec(lang: str) -> Spec | None:
    """The query-driven language's Spec; None for a language with its own extractor (PHP, Go…)."""
    from sofia.syntax import queried, registry

    record = registry.language(lang)
    return queried.spec_of(lang) if record is not None and record.spec else None


def last_segment(qname: str) -> str:
    return re.split(r"::|\.|#", qname)[-1] if not qname.startswith("<") else qname


def find(tree: SymbolTree, symbol: str) -> list[Symbol]:
    """Symbols of one file for one requested name: an exact qname or accepted spelling, else
    every symbol whose last qname segment equals a bare name (all of them, in source order)."""
    for spelling in spellings(symbol, tree.lang):
        exact = tree.find(spelling)
        if exact:
            return exact
    bare = _unescaped(symbol.strip(), tree.lang)
    if SEPARATORS.search(bare):
        return _same_segments(tree, bare)
    return [s for s in tree.walk() if last_segment(s.qname) == bare]


def _same_segments(tree: SymbolTree, symbol: str) -> list[Symbol]:
    """Symbols whose qname has the requested segments whatever separates them (Ruby's `Foo#bar`
    asked for as `Foo::bar` or `Foo.bar`), else those whose qname ends with them (C++'s
    `Circle::area` for `geo::Circle::area`, a name asked for without its namespace)."""
    wanted = SEPARATORS.split(symbol.lstrip("\\"))
    same = [s for s in tree.walk() if SEPARATORS.split(s.qname) == wanted]
    if same:
        return same
    return [s for s in tree.walk() if SEPARATORS.split(s.qname)[-len(wanted) :] == wanted]


def close_matches(tree: SymbolTree, symbol: str) -> list[str]:
    """Up to 3 qnames close to a missed spelling (difflib), also comparing bare names."""
    return close_names(tree.qnames(), symbol)


def close_names(qnames: list[str], symbol: str) -> list[str]:
    close = difflib.get_close_matches(symbol, qnames, n=3, cutoff=0.6)
    if len(close) < 3:
        by_segment: dict[str, list[str]] = {}
        for qname in qnames:
            by_segment.setdefault(last_segment(qname), []).append(qname)
        target = last_segment(symbol)
        for segment in difflib.get_close_matches(target, list(by_segment), n=3, cutoff=0.6):
            close.extend(q for q in by_segment[segment] if q not in close)
    return close[:3]
