"""Slices by name under a directory or glob: "show me `UserController::destroy`" without knowing
its file. ripgrep finds the files holding each name's last segment as a word, those are parsed,
and `sofia.syntax.lookup` picks the symbols, as for a single file; at most MAX_SLICES slices
come back, in path order, the rest counted."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sofia.errors import ArgumentError, tool
from sofia.output.budget import MARGIN, cost, largest_prefix, note, with_omitted
from sofia.output.notes import Place, not_followed
from sofia.providers.code.documents import count_lines, decode, header, read
from sofia.providers.code.globs import is_glob
from sofia.providers.code.inputs import display, match_glob, resolve
from sofia.providers.code.model import SLICE_MODE
from sofia.providers.contract import Context, ProviderError
from sofia.runtime.files import looks_binary
from sofia.syntax import EXTENSIONS, MAX_PARSE_BYTES, ParseUnavailable, Symbol, lookup, parse, slice_text

MAX_SLICES = 20
SUGGESTION_WORDS = 2_000
"""Identifiers read to suggest close matches for a name defined nowhere."""
GLOBS = [f"*{ext}" for ext in EXTENSIONS]


def wants_lookup(files: list[str], root: Any) -> bool:
    """Symbols with anything but one existing regular file: look them up under the paths given."""
    if len(files) != 1:
        return True
    path = resolve(root, files[0])
    return path.is_dir() or (not os.path.lexists(path) and is_glob(files[0]))


def run_by_name(files: list[str], symbols: list[str], ctx: Context) -> dict[str, Any]:
    from sofia.runtime import rg

    root = ctx.root
    queries = []
    for text in symbols:
        try:
            queries.append((text, lookup.parse_query(text)))
        except lookup.BadName as error:
            raise ArgumentError(str(error), error.hint) from None
    words = sorted({q.name for _, q in queries})
    walk_notes: list[str] = []
    searched = _paths(files, root, ctx, walk_notes)
    reported = rg.files_with_words_as_found(words, searched, cwd=root, globs=GLOBS, timeout=ctx.timeout(60.0))
    looked = _look_up(reported, [text for text, _ in queries], root, ctx)
    found = [hit for rel in sorted(looked, key=os.fsencode) for hit in looked[rel].found]
    missing = [text for text, _ in queries if all(t != text for _, _, _, t in found)]
    if not found:
        qnames = [q for rel in sorted(looked, key=os.fsencode) for q in looked[rel].qnames]
        raise _nowhere(missing, searched, list(dict.fromkeys(qnames)), root, ctx, looked)
    unread = [place for rel in sorted(looked, key=os.fsencode) if (place := looked[rel].unread) is not None]
    if unread:
        walk_notes.append(not_followed("files", unread, "they hold the name but could not be parsed"))
    sources = {rel: looked[rel].source for rel in looked if looked[rel].found}
    documents = {rel: looked[rel].document for rel in sources}
    return _result(found, sources, documents, missing, searched, root, ctx, walk_notes)


@dataclass
class _Looked:
    """What one candidate file gave: the symbols answering a requested name, its declared names
    (for close matches), or why it could not be read."""

    found: list[tuple[str, str, Symbol, str]] = field(default_factory=list)
    """(path, lang, symbol, requested name), in the file's order."""
    qnames: list[str] = field(default_factory=list)
    unread: Place | None = None
    source: bytes = b""
    document: dict[str, Any] = field(default_factory=dict)


def _look_up(reported: Iterator[list[str]], texts: list[str], root: Any, ctx: Context) -> dict[str, _Looked]:
    """Each candidate parsed as ripgrep reports it, while it goes on searching the rest (the
    parse of a name's candidates overlaps the walk instead of following it); keyed by path."""
    looked: dict[str, _Looked] = {}
    for batch in reported:
        for rel in batch:
            if rel in looked:
                continue
            ctx.check_deadline()
            ctx.progress(len(looked), None, rel)
            looked[rel] = _look_in(rel, texts, root)
    return looked


def _look_in(rel: str, texts: list[str], root: Any) -> _Looked:
    file = read(resolve(root, rel))
    why = _unparsable(file)
    if why:
        return _Looked(unread=Place(rel, 0, why))
    try:
        tree = parse(file.source, file.lang, rel, holding=_words(texts))
    except ParseUnavailable as error:
        return _Looked(unread=Place(rel, 0, str(error) or "the parser gave up"))
    result = _Looked(qnames=list(tree.qnames()), source=file.source)
    for text in texts:
        for symbol in lookup.find(tree, text):
            if all(s is not symbol for _, _, s, _ in result.found):
                result.found.append((rel, file.lang, symbol, text))
    if result.found:
        result.document = header(rel, file.lang, "slice", count_lines(file.text))
    else:
        result.unread = _in_unparsed_body(rel, file.source, tree.unparsed, texts)
    return result


def _words(texts: list[str]) -> list[str]:
    """The words a lookup of `texts` needs the definitions of: each name's last segment."""
    return sorted({lookup.parse_query(text).name for text in texts})


def _in_unparsed_body(
    rel: str, source: bytes, unparsed: list[tuple[int, int]], texts: list[str]
) -> Place | None:
    """The first body the grammar could not read that holds one of the names asked for (a
    definition there has no symbol: docs/architecture.md, "A body the grammar cannot read")."""
    words = [lookup.parse_query(text).name.encode() for text in texts]
    for start, end in unparsed:
        if any(source.find(word, start, end) >= 0 for word in words):
            line = source.count(b"\n", 0, start) + 1
            last = source.count(b"\n", 0, end) + 1
            return Place(rel, line, f"in a body not parsed (lines {line}-{last})")
    return None


def _unparsable(file: Any) -> str:
    """Why a candidate file cannot be searched for definitions, or ""."""
    if file.error:
        return str(file.error)
    if not file.lang:
        return "no grammar for it"
    if looks_binary(file.source):
        return "binary"
    if len(file.source) > MAX_PARSE_BYTES:
        return f"larger than {MAX_PARSE_BYTES:,} bytes"
    return ""


def _paths(files: list[str], root: Any, ctx: Context, notes: list[str]) -> list[str]:
    """The directories and files to search, globs matched (relative to the root)."""
    paths: list[str] = []
    for text in files:
        path = resolve(root, text)
        if os.path.lexists(path):
            paths.append(display(root, path))
        elif is_glob(text):
            paths.extend(match_glob(text, path, root, ctx.timeout(60.0), notes))
        else:
            raise ProviderError(f"not found: {text}", f"paths are relative to {root}")
    return list(dict.fromkeys(paths))


def _result(
    found: list[tuple[str, str, Symbol, str]],
    sources: dict[str, bytes],
    documents: dict[str, dict[str, Any]],
    missing: list[str],
    searched: list[str],
    root: Any,
    ctx: Context,
    walk_notes: list[str],
) -> dict[str, Any]:
    notes = [*walk_notes, *_cap_notes(found), *_defined_again_notes(found)]
    slices = [
        (
            path,
            {
                "symbol": s.qname,
                "kind": s.kind,
                "line": s.slice_line,
                "end_line": s.end_line,
                "text": decode(slice_text(sources[path], s)),
            },
        )
        for path, _, s, _ in found[:MAX_SLICES]
    ]
    from sofia.output.tokens import estimate

    raw_tok = sum(estimate(sources[p]) for p in dict.fromkeys(p for p, _ in slices))

    def build(count: int) -> dict[str, Any]:
        return _shown(slices, count, len(found), documents, missing, notes, ctx.budget, raw_tok)

    if ctx.budget is None:
        return build(len(slices))
    limit = ctx.budget - MARGIN
    count = largest_prefix(len(slices), lambda k: cost(build(k)) <= limit)
    return build(max(count, 1))


def _cap_notes(found: list[tuple[str, str, Symbol, str]]) -> list[str]:
    """The note for the slices past the per-call cap, naming the first of them."""
    if len(found) <= MAX_SLICES:
        return []
    rest = found[MAX_SLICES:]
    files = list(dict.fromkeys(path for path, _, _, _ in rest))
    named = ", ".join(f"{s.qname} ({p}:{s.line})" for p, _, s, _ in rest[:10])
    more = f" and {len(rest) - 10} more" if len(rest) > 10 else ""
    hint = f"not shown: {named}{more} in {len(files)} files; narrow the path or qualify the name"
    return [f"slices: showing {MAX_SLICES} of {len(found)} slices (at most {MAX_SLICES} per call); {hint}"]


def _defined_again_notes(found: list[tuple[str, str, Symbol, str]]) -> list[str]:
    """A note for each requested name that more than one definition answers."""
    per_name: dict[str, list[str]] = {}
    for path, _, symbol, text in found:
        per_name.setdefault(text, []).append(f"{symbol.qname} ({path})")
    return [
        f"{text} is defined {len(places)} times: {', '.join(places[:5])}"
        for text, places in per_name.items()
        if len(places) > 1
    ]


def _shown(
    slices: list[tuple[str, dict[str, Any]]],
    count: int,
    total: int,
    documents: dict[str, dict[str, Any]],
    missing: list[str],
    notes: list[str],
    budget: int | None,
    raw_tok: int,
) -> dict[str, Any]:
    """The result showing the first `count` slices, grouped under their files, the rest counted."""
    docs: dict[str, dict[str, Any]] = {}
    for path, piece in slices[:count]:
        docs.setdefault(path, {**documents[path], "slices": []})["slices"].append(piece)
    result: dict[str, Any] = {"mode": SLICE_MODE, "files": list(docs.values())}
    if missing:
        result["missing"] = [{"symbol": m, "close": ""} for m in missing]
    extra = []
    if count < len(slices):
        later = [str(piece["symbol"]) for _, piece in slices[count:]]
        hint = f"not shown: {', '.join(later)}; request them separately"
        extra.append(note("slices", count, total, "slices", budget, hint))
    result["notes"] = [*notes, *extra]
    with_omitted(result, {"slices": total - count})
    result["stats"] = {"raw_tok": raw_tok}
    return result


def _nowhere(
    names: list[str],
    searched: list[str],
    qnames: list[str],
    root: Any,
    ctx: Context,
    looked: dict[str, _Looked],
) -> ProviderError:
    """The error for names defined nowhere under the paths, with close matches, how many parsed
    files hold the name without defining it, where it occurs in files of types sofia does not
    parse, and what the lookup did not read (skipped directories, binary files, candidates it
    could not parse)."""
    close = _close_names(names, searched, qnames, root, ctx)
    where = ", ".join(searched[:3]) + (" …" if len(searched) > 3 else "")
    hint = f"close: {', '.join(close[:5])}" if close else "check the spelling, or widen the path"
    elsewhere = _unparsed_notes(names, searched, root, ctx)
    unread = [place for rel in sorted(looked, key=os.fsencode) if (place := looked[rel].unread) is not None]
    unseen = _skipped_notes(names, searched, set(looked), root, ctx)
    if unread:
        unseen.append(not_followed("files", unread, "they hold the name but could not be parsed"))
    message = f"no definition of {', '.join(names)} under {where}"
    if elsewhere:
        message += f" in a parsed language; {'; '.join(elsewhere)}"
        hint = hint if close else f"{tool('grep')} finds every occurrence"
    read = sum(looked[rel].unread is None for rel in looked)
    if read:
        files = "1 parsed file there holds" if read == 1 else f"{read:,} parsed files there hold"
        words = list(dict.fromkeys(lookup.parse_query(name).name for name in names))
        defining = "it" if names == words and len(names) == 1 else ", ".join(names)
        message += f"; {files} {_held_words(words)}, none defining {defining}"
        message += f" ({tool('refs')} lists its uses)"
    return ProviderError("; ".join([message, *unseen]), hint)


def _held_words(words: list[str]) -> str:
    """`kfree as a word` (for `UserControler::destroy`: `destroy`, the word ripgrep found),
    `one of a, b as a word`."""
    return f"{'one of ' if len(words) > 1 else ''}{', '.join(words)} as a word"


def _close_names(
    names: list[str], searched: list[str], qnames: list[str], root: Any, ctx: Context
) -> list[str]:
    """Qualified names declared in the files holding the last segment, else identifiers written
    under the paths, close to each name."""
    from sofia.runtime import proc, rg

    close: list[str] = []
    for name in names:
        close += [c for c in lookup.close_names(qnames, name) if c not in close]
    for name in names if not close else []:
        last = lookup.parse_query(name).name
        stem = re.escape(last[:3]) if len(last) >= 3 else re.escape(last)
        args = [
            rg.executable(),
            "--no-config",
            "--only-matching",
            "--no-filename",
            "--no-line-number",
            "--ignore-case",
        ]
        args += [*rg.walk_args(cwd=root), *(f"--iglob={g}" for g in GLOBS), f"--max-count={SUGGESTION_WORDS}"]
        args += [f"--regexp=\\b[A-Za-z_]\\w*{stem}\\w*|\\b{stem}\\w*", "--", *searched]
        done = proc.run(args, cwd=root, timeout=ctx.timeout(20.0))
        words = sorted(set(done.out.split()))
        close += [c for c in lookup.close_names(words, last) if c not in close and c != last]
    return close


def _skipped_notes(
    names: list[str], searched: list[str], seen: set[str], root: Any, ctx: Context
) -> list[str]:
    """For a name found nowhere: the directories the walk skipped by default name and the binary
    files of parsed types that hold the name (the lookup's walk reads neither), each with how
    to include one, so "no definition" is never said of what sofia did not look at."""
    from sofia.runtime import rg, skips

    words = sorted({lookup.parse_query(name).name for name in names})
    probe = rg.Probe(searched, cwd=root)
    try:
        held = rg.files_with_words(
            words, searched, cwd=root, globs=GLOBS, timeout=ctx.timeout(20.0), binary=True
        )
        found = probe.skips(ctx.timeout(10.0))
    finally:
        probe.kill()
    found.binary = {path for path in held if path not in seen}
    return skips.notes(found, str, "files")


def _unparsed_notes(names: list[str], searched: list[str], root: Any, ctx: Context) -> list[str]:
    """Each name's occurrences in files of types sofia does not parse (docs/languages.md)."""
    from sofia.runtime import unparsed
    from sofia.syntax.registry import EXTENSIONS

    notes: list[str] = []
    for name in names:
        last = lookup.parse_query(name).name
        found = unparsed.count(
            last, searched, cwd=root, parsed_extensions=EXTENSIONS, timeout=ctx.timeout(20.0)
        )
        note = found.note(last, advice="")
        if note:
            notes.append(note.split(": ", 1)[1] if len(names) == 1 else note)
    return notes
