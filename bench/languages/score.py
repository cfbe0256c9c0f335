"""Scoring sofia's answers against ctags' definitions: which definitions a summary lists, whether a
slice holds a definition's whole range, whether a grep hit inside a body names that function.

Names are matched on their last segment: sofia prints qualified names (`HashMap.Node` in `types`,
owner `HashMap.Node` and name `getKey` in `functions`; C++ `Foo::bar`), ctags the bare name.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from languages.ctags import FUNCTION_KINDS, Tag

SEPARATOR = {
    "java": ".",
    "kotlin": ".",
    "csharp": ".",
    "c": ".",
    "cpp": "::",
    "rust": "::",
    "ruby": "#",
    "swift": ".",
    "scala": ".",
}
"""How sofia writes an owner and a member in one slice key (`owner` + this + `name`), as its language
registry says (`Language.separator`); a type row's name is already qualified (`Outer.Inner`)."""
SEGMENT = re.compile(r"::|[.#]")
WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]{2,}")
"""An identifier of three characters or more, not the tail of a number (`0xFFFFFFFFL`)."""
LINE_TOLERANCE = 1


@dataclass(frozen=True)
class Row:
    table: str
    kind: str
    name: str
    owner: str
    line: int
    end_line: int
    mods: str

    def key(self, lang: str) -> str:
        """The slice key sofia prints for this row: `owner` + separator + `name`; Ruby writes an
        instance method `Owner#name` and a singleton method (`def self.name`) `Owner.name`."""
        if not self.owner:
            return self.name
        separator = SEPARATOR[lang]
        if lang == "ruby":
            separator = "." if "self" in self.mods.split() else "#"
        return f"{self.owner}{separator}{self.name}"


def last_segment(name: str) -> str:
    """`A::B.c` → `c`, without blanks: ctags writes `operator ==`, sofia `operator==`. Ruby
    operators (`==`, `<=>`, `[]=`) have no separator inside."""
    parts = [p for p in SEGMENT.split(name) if p]
    return "".join((parts[-1] if parts else name).split())


def same_name(tag: Tag, row_name: str) -> bool:
    return last_segment(tag.name) == last_segment(row_name)


def rows(document: dict[str, Any]) -> list[Row]:
    out = [
        Row(
            "types",
            t.get("kind", ""),
            t["name"],
            "",
            t["line"],
            t.get("end_line", t["line"]),
            t.get("mods", ""),
        )
        for t in document.get("types", [])
    ]
    out += [
        Row(
            "functions",
            "function",
            f["name"],
            f.get("owner", ""),
            f["line"],
            f.get("end_line", f["line"]),
            f.get("mods", ""),
        )
        for f in document.get("functions", [])
    ]
    return out


@dataclass
class Scored:
    found: dict[Tag, Row] = field(default_factory=dict)
    misses: list[dict[str, Any]] = field(default_factory=list)
    files: int = 0
    unsummarised: Counter[str] = field(default_factory=Counter)
    whole: int = 0
    """Definitions in files given whole (`summary_not_smaller`): every one is in the text, none is
    scored."""


def match(tag: Tag, candidates: list[Row]) -> Row | None:
    same = [r for r in candidates if same_name(tag, r.name)]
    near = [r for r in same if abs(r.line - tag.line) <= LINE_TOLERANCE]
    return min(near, key=lambda r: abs(r.line - tag.line)) if near else None


def definitions(lang: str, tags: dict[str, list[Tag]], documents: dict[str, dict[str, Any]]) -> Scored:
    """Each counted ctags definition found in the file's summary, or a miss saying why not."""
    scored = Scored()
    for rel, wanted in tags.items():
        document = documents.get(rel, {"mode": "missing", "reason": "not in sf's answer"})
        scored.files += 1
        if document.get("mode") != "summary":
            scored.unsummarised[f"{document.get('mode')}: {document.get('reason', '')}"] += 1
            if document.get("reason") == "summary_not_smaller":
                scored.whole += len(wanted)
                continue
        found_rows = rows(document)
        for tag in wanted:
            row = match(tag, found_rows)
            if row is not None:
                scored.found[tag] = row
                continue
            same = [r for r in found_rows if same_name(tag, r.name)]
            if document.get("mode") != "summary":
                why = f"file not summarised ({document.get('mode')}: {document.get('reason', '')})"
            elif same:
                closest = min(same, key=lambda r: abs(r.line - tag.line))
                why = f"named at line {closest.line} ({closest.key(lang)}), not {tag.line}±1"
            else:
                why = "no row of that name"
            scored.misses.append(miss(tag, why))
    return scored


def miss(tag: Tag, why: str) -> dict[str, Any]:
    return {
        "file": tag.path,
        "line": tag.line,
        "end": tag.end,
        "kind": tag.kind,
        "name": tag.name,
        "scope": tag.scope,
        "declaration": tag.text.strip()[:200],
        "why": why,
    }


def covers(slice_: dict[str, Any], tag: Tag, lines: list[str]) -> bool:
    """The slice holds ctags' whole range, and its text is the file's own lines (byte-exact)."""
    if tag.end is None or not (slice_["line"] <= tag.line and slice_["end_line"] >= tag.end):
        return False
    return bool(slice_["text"] == "".join(lines[slice_["line"] - 1 : slice_["end_line"]]))


def file_lines(path: Path) -> list[str]:
    """The file's lines with their own line ends (`\r\n` kept: slices are compared byte for byte),
    split on `\n` only, as line numbers count them."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def inner_lines(
    tags: list[Tag], lines: list[str], per_file: int, every: list[Tag] | None = None
) -> list[tuple[int, str, Tag]]:
    """Up to `per_file` (line, word, function) strictly inside a counted function's body whose
    innermost counted definition is that function (lambdas and local functions are no symbols: a
    line inside one belongs to the function around it), each with an identifier of that line.
    With `every` (all ctags' tags, counted or not), a line declaring or inside another
    definition nested in the function is not picked: some languages make a local function a
    symbol of its own (Rust's `fn check<T: Send>() {}` inside a function, a local `struct`)."""
    ranged = [t for t in tags if t.end is not None and t.end > t.line]
    functions = [t for t in ranged if t.kind in FUNCTION_KINDS]
    # A nested definition holds its last line (an expression body's ends with code, not `}`) and
    # the comment lines right above it, which sofia's ranges take in (docs/code.md): neither is
    # a line of the function around it alone.
    others = [t for t in every or [] if t.end is not None and t.end >= t.line]
    leading = {t.line: _comment_top(lines, t.line) for t in others}
    declared = {t.line for t in tags} | {t.line for t in every or []}
    picked: list[tuple[int, str, Tag]] = []
    used_words: set[str] = set()
    for function in functions:
        assert function.end is not None
        for number in range(function.line + 1, function.end):
            if number in declared:
                continue
            holders = [t for t in ranged if t.line < number < (t.end or 0)]
            innermost = min(holders, key=lambda t: (t.end or 0) - t.line)
            if innermost is not function:
                continue
            if any(function.line < t.line and leading[t.line] <= number <= (t.end or 0) for t in others):
                continue
            words = [w for w in WORD.findall(lines[number - 1]) if w not in used_words]
            if words:
                word = max(words, key=len)
                used_words.add(word)
                picked.append((number, word, function))
                break
    step = max(1, len(picked) // per_file)
    return picked[::step][:per_file]


COMMENT_STARTS = ("//", "/*", "*", "#")


def _comment_top(lines: list[str], line: int) -> int:
    """The first of the comment lines directly above `line` (1-based), or `line` itself."""
    top = line
    while top > 1 and lines[top - 2].strip().startswith(COMMENT_STARTS):
        top -= 1
    return top


def top_patterns(misses: list[dict[str, Any]], limit: int = 8) -> list[tuple[str, int]]:
    """The commonest shapes of missed declarations: kind, why, and the declaration's leading words
    with names blanked."""
    shapes: Counter[str] = Counter()
    for item in misses:
        head = re.sub(r"\b" + re.escape(item["name"]) + r"\b", "NAME", item["declaration"])
        head = re.sub(r"\(.*", "(…", head)[:60]
        why = re.sub(r"\d+", "N", item["why"].split(" (")[0])
        shapes[f"{item['kind']} — {why} — `{head}`"] += 1
    return shapes.most_common(limit)
