"""The text (TOON) form of a summary document: the same facts as the JSON document, with what
repeats written once.

* rows of one owner are grouped under `<table>.<Owner>` (`functions.Cart`, `properties.Props`)
  when that is shorter than repeating the owner in every row; a group elides its own default
  columns;
* in a Vue file the component's own Options API members are headed by Vue's section names
  (`methods`, `computed`, `watch`), the component being the file;
* constants are grouped by kind (`const`, `let`, `var`, and `const.<Owner>` for class constants)
  when shorter than a `kind` column;
* in the query-driven languages, a function's `sig` that is the row above's is written `^`, the
  visibility leads `mods` unless it is the language's default, a line range is one `lines` cell,
  and imports fold on every shared prefix (`compact`);
* imports sharing a directory, package or namespace are written once with braces
  (`../composables/{useLocale,usePortal}`, `App\\Service\\{Mailer,Users}`);
* what is said otherwise is not repeated: `lang` when it is the extension, a Vue component's
  name when it is the file's, `mode: summary` (a file given whole is printed verbatim under a
  `# raw:` header instead); an empty namespace, empty tables and empty Vue lists are left out.

JSON output (`--json`, MCP) keeps the flat document (docs/code.md, "What a summary holds").
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from sofia.output.tables import elide
from sofia.providers.code import compact
from sofia.providers.code.cells import ELIDABLE
from sofia.syntax import queried, registry
from sofia.syntax.queried import Spec

GROUPED = ("functions", "properties", "ctor", "constants", "cases")
"""Tables whose rows may be grouped by owner (and constants by kind)."""
BASES = {"constants": "kind", "functions": "mods"}
"""The column that may name a row's group instead of its table."""
OPTION_SECTIONS = frozenset({"computed", "watch"})
"""Vue Options API sections kept in `mods`; they head their own groups."""
SEPARATORS = {
    "php": "\\",
    "python": ".",
    "java": ".",
    "kotlin": ".",
    "csharp": ".",
    "swift": ".",
    "scala": ".",
    "rust": "::",
}
"""Where an import's last segment starts, per language (`/` elsewhere: C's `<linux/{mm.h,slab.h}>`)."""

Render = Callable[[Any], str]


def display(document: dict[str, Any], render: Render) -> dict[str, Any]:
    """The text form of a summary document; `render` measures candidate layouts (TOON)."""
    path = str(document.get("path", ""))
    lang = str(document.get("lang", ""))
    spec = _spec(lang)
    out: dict[str, Any] = {}
    for key, value in document.items():
        if key == "lang" and _told_by_extension(value, path, spec is not None):
            continue
        if (key == "namespace" and value == "") or (key == "mode" and value == "summary"):
            continue
        if isinstance(value, list) and not value:
            continue
        if spec is not None and key in COMPACTED:
            value = compact.rows(key, value, spec.default_visibility)
        if key == "imports":
            if spec is not None:
                out[key] = compact.fold_imports(value, SEPARATORS.get(lang, "/"))
            else:
                out[key] = fold_imports(value, lang)
        elif key == "types" and spec is not None:
            out[key] = elide(value, {"mods": ""})
        elif key in GROUPED and isinstance(value, list):
            layout = shortest(key, value, render)
            if key == "functions" and spec is not None:
                layout = {name: ditto(rows) for name, rows in layout.items()}
            if document.get("lang") == "vue":
                layout = {component_key(name, rows, path): rows for name, rows in layout.items()}
            out.update(layout)
        elif key == "vue" and isinstance(value, dict):
            out[key] = vue_display(value, path)
        else:
            out[key] = value
    return out


DITTO = "^"
"""A `sig` written for the one of the row above (`^`)."""
DITTO_LEAST = 12
"""Shorter signatures are written out: `()` says as much as `^`."""


def ditto(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows whose `sig` is the row above's, at least DITTO_LEAST characters long, with `^` for it:
    a run of functions of one signature (a driver's callbacks, a family of overloads on one
    shape) writes it once."""
    out: list[dict[str, Any]] = []
    previous = None
    for row in rows:
        sig = row.get("sig")
        same = isinstance(sig, str) and len(sig) >= DITTO_LEAST and sig == previous
        out.append({**row, "sig": DITTO} if same else row)
        previous = sig
    return out


COMPACTED = ("types", "functions", "properties")
"""Tables whose cells the query-driven languages write compactly (`compact.rows`)."""


def _spec(lang: str) -> Spec | None:
    """The Spec of a language read through a query file (Java, Kotlin, C#, C, C++, Rust, Ruby,
    Swift), whose rows are written compactly; None for the languages with their own summarisers."""
    record = registry.language(lang) if lang else None
    return queried.spec_of(lang) if record is not None and record.spec else None


def _told_by_extension(lang: object, path: str, queried_lang: bool) -> bool:
    """Whether the file's extension says its `lang`: it is the extension, or (in a query-driven
    language) the extension is always read as it (`.kt`: kotlin; a `.h` may be C or C++)."""
    extension = os.path.splitext(path)[1].lower()
    if lang == extension.lstrip("."):
        return True
    record = registry.language(str(lang)) if queried_lang else None
    return record is not None and extension in record.extensions and extension not in record.sniffed


def component_key(name: str, rows: list[dict[str, Any]], path: str) -> str:
    """A Vue component's own Options API groups under Vue's section names (`methods`, `computed`,
    `watch`): the owner is the component, named by the file."""
    stem = os.path.splitext(os.path.basename(path))[0]
    base, _, owner = name.partition(".")
    if owner != stem or any(row.get("mods") in OPTION_SECTIONS for row in rows):
        return name
    return "methods" if base == "functions" else base


def vue_display(vue: dict[str, Any], path: str) -> dict[str, Any]:
    stem = os.path.splitext(os.path.basename(path))[0]
    return {
        k: v
        for k, v in vue.items()
        if not (k == "component" and v == stem) and not (isinstance(v, list) and not v)
    }


def shortest(table: str, rows: list[dict[str, Any]], render: Render) -> dict[str, Any]:
    """The layout of one table that renders shortest: flat, or grouped by owner (and kind)."""
    candidates = [{table: elide(rows, ELIDABLE.get(table, {}))}]
    for by_kind in (False, True) if rows and BASES.get(table, "") in rows[0] else (False,):
        for least in (1, 2, 3):
            candidates.append(grouped(table, rows, least, by_kind))
    return min(candidates, key=lambda layout: len(render(layout)))


def base_of(table: str, row: dict[str, Any], by_kind: bool) -> tuple[str, str]:
    """The group a row goes to and the column that names it: its table, or its kind (a constant's
    `const`/`let`/`var`, a Vue Options API member's `computed`/`watch` section)."""
    column = BASES.get(table, "")
    if not by_kind or not column:
        return table, ""
    value = str(row.get(column, ""))
    if table == "functions" and value not in OPTION_SECTIONS:
        return table, ""
    return value, column


def grouped(table: str, rows: list[dict[str, Any]], least: int, by_kind: bool) -> dict[str, Any]:
    """Rows of owners with at least `least` rows under `<base>.<Owner>`, the rest under `<base>`
    (keeping their owner column), where `<base>` is the table or, with `by_kind`, the row's kind."""
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (base_of(table, row, by_kind)[0], str(row.get("owner", "")))
        counts[key] = counts.get(key, 0) + 1
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        base, column = base_of(table, row, by_kind)
        owner = str(row.get("owner", ""))
        alone = bool(owner) and counts[(base, owner)] >= least
        name = f"{base}.{owner}" if alone else base
        drop = {column, "owner"} if alone else {column}
        groups.setdefault(name, []).append({k: v for k, v in row.items() if k not in drop})
    defaults = {**ELIDABLE.get(table, {}), "owner": ""}
    return {name: elide(group, defaults) for name, group in groups.items()}


def fold_imports(imports: list[str], lang: str) -> list[str]:
    """Imports sharing everything up to their last separator written once: `dir/{a,b}`. Aliased
    imports (`X as Y`, Go's `alias path`) stay as they are; the first of a group keeps its place."""
    separator = SEPARATORS.get(lang, "/")
    heads: dict[str, list[str]] = {}
    for item in imports:
        head, tail = split(item, separator)
        if head and tail:
            heads.setdefault(head, []).append(tail)
    out: list[str] = []
    done: set[str] = set()
    for item in imports:
        head, tail = split(item, separator)
        if not head or not tail or len(heads[head]) < 2:
            out.append(item)
        elif head not in done:
            done.add(head)
            closing = ">" if head.startswith("<") else ""  # a C system header: `<sys/{a.h,b.h}>`
            out.append(f"{head}{separator}{{{','.join(heads[head])}}}{closing}")
    return out


def split(item: str, separator: str) -> tuple[str, str]:
    """(everything before the last separator, the rest); ("", "") when not foldable."""
    if item.startswith("<") and item.endswith(">"):
        head, tail = split(item[1:-1], separator)
        return (f"<{head}", tail) if head else ("", "")
    if " " in item or "{" in item or separator not in item.strip(separator):
        return "", ""
    head, _, tail = item.rpartition(separator)
    return ("", "") if tail == "*" else (head, tail)
