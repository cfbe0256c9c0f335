"""The compact cells of the text form in the query-driven languages (docs/code.md, "The text form
(TOON)"): what their rows repeat or say by default is written once or not at all.

* the visibility leads the `mods` cell, as it leads the declaration in source (`private val`,
  `public override`), and the language's default visibility (Spec.default_visibility: Swift's
  `internal`, Kotlin's `public`) is not written;
* `line` and `end_line` are one `lines` cell: `47-51`, or `45` for a one-line declaration;
* imports fold on every shared prefix, not only the last one: `android.{os.Bundle,view.View}`,
  `expo.modules.{core.Promise,kotlin.{AppContext,Promise}}`.

The JSON document keeps the flat columns (`vis`, `mods`, `line`, `end_line`) and every import whole.
"""

from __future__ import annotations

from typing import Any

from sofia.providers.code.cells import ELIDABLE

SPANNED = ("types", "functions")
"""Tables whose rows have a line range."""


def rows(table: str, items: list[dict[str, Any]], default_visibility: str) -> list[dict[str, Any]]:
    """The rows of `table` with the visibility inside `mods` and one `lines` cell."""
    written_default = str(ELIDABLE.get(table, {}).get("vis", "public"))
    return [row_of(table, row, written_default, default_visibility) for row in items]


def row_of(table: str, row: dict[str, Any], written_default: str, default_visibility: str) -> dict[str, Any]:
    """One row: `vis` (absent from the JSON row when it is `written_default`) folded into `mods`
    unless it is the language's default, `line`/`end_line` into `lines`."""
    vis = str(row.get("vis", written_default))
    mods = " ".join(word for word in (vis if vis != default_visibility else "", row.get("mods", "")) if word)
    out: dict[str, Any] = {}
    for key, value in row.items():
        if key in ("vis", "mods"):
            out["mods"] = mods
        elif key == "line" and table in SPANNED and "end_line" in row:
            out["lines"] = span(int(value), int(row["end_line"]))
        elif key != "end_line" or table not in SPANNED:
            out[key] = value
    if mods and "mods" not in out:
        out["mods"] = mods
    return out


def span(line: int, end_line: int) -> int | str:
    """`47-51`; a declaration on one line is its line number."""
    return line if end_line == line else f"{line}-{end_line}"


def fold_imports(imports: list[str], separator: str) -> list[str]:
    """Imports written as a tree of their shared prefixes: the first import under a first segment
    keeps its place, and holds every other one there (`java.{io.File,util.{List,Map}}`). Imports
    that cannot fold (an alias `X as Y`, a list of the language's own `a::{b, c}`, a wildcard,
    one that is a prefix of another) stay as they are."""
    paths = {item: parts(item, separator) for item in imports}
    whole = {tuple(p) for p in paths.values() if p}
    foldable = {
        item: p
        for item, p in paths.items()
        if p and not any(other[: len(p)] == tuple(p) and len(other) > len(p) for other in whole)
    }
    roots: dict[str, dict[str, Any]] = {}
    for p in foldable.values():
        node = roots.setdefault(p[0], {})
        for part in p[1:]:
            node = node.setdefault(part, {})
    out: list[str] = []
    done: set[str] = set()
    seen: set[str] = set()
    for item in imports:
        path = foldable.get(item)
        if path is None or item in seen:  # an import written again (in another scope) stays so
            out.append(item)
            continue
        seen.add(item)
        if path[0] not in done:
            done.add(path[0])
            out.append(written(path[0], roots[path[0]], separator))
    return out


def written(name: str, children: dict[str, Any], separator: str) -> str:
    """A node of the prefix tree: its name, then its one child or its children in braces."""
    if not children:
        return name
    inner = [written(child, below, separator) for child, below in children.items()]
    tail = inner[0] if len(inner) == 1 else "{" + ",".join(inner) + "}"
    if name.startswith("<"):  # a C system header: `<linux/{mm.h,slab.h}>`
        return f"{name}{separator}{tail}>"
    return f"{name}{separator}{tail}"


def parts(item: str, separator: str) -> list[str]:
    """The segments of a foldable import (`<` kept on the first of a C system header's); [] for
    one that is not."""
    bracket = item.startswith("<") and item.endswith(">")
    body = item[1:-1] if bracket else item
    if " " in body or "{" in body or "<" in body or separator not in body.strip(separator):
        return []
    segments = body.split(separator)
    if segments[-1] == "*" or not all(segments):
        return []
    if bracket:
        segments[0] = "<" + segments[0]
    return segments
