"""One file, one document: the decision rules (docs/code.md, "Which files are summarised": unreadable,
binary, unsupported type, below the raw threshold, too large, parse failed, summary not smaller) and
the summary document assembled from a summariser's fields (key order, `brief`, elided columns)."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sofia import settings
from sofia.output.budget import cost
from sofia.output.tables import elide
from sofia.output.tokens import estimate
from sofia.providers.code import unfollowed
from sofia.providers.code.cells import ELIDABLE
from sofia.providers.code.inputs import Input
from sofia.providers.code.model import SourceFile, Summary, SummaryOptions
from sofia.providers.code.unfollowed import Unfollowed
from sofia.runtime.files import looks_binary
from sofia.syntax import (
    MAX_PARSE_BYTES,
    LanguageUnsupported,
    ParseUnavailable,
    SymbolTree,
    language_for,
    parse,
)
from sofia.syntax.parse import resolve

BOM = b"\xef\xbb\xbf"

PLAIN_KEYS = ("imports", "types", "functions")
OPTIONAL_KEYS = ("properties", "ctor", "constants", "cases", "vue", "unresolved")
BRIEF_DROPPED_KEYS = ("imports", "properties")
BRIEF_DROPPED_COLUMNS = ("value", "attrs", "detail")

Summariser = Callable[[SymbolTree, SourceFile, SummaryOptions], Summary]


def raw_below() -> int:
    """`SOFIA_CODE_RAW_BELOW` in bytes: 0 disables the passthrough; a bad value is a usage error."""
    value: int = settings.get("SOFIA_CODE_RAW_BELOW")
    return value


@dataclass
class Read:
    """A file as read once: bytes, decoded text, language; `error` set when it could not be read."""

    source: bytes = b""
    text: str = ""
    lang: str = ""
    error: str = ""
    invalid_utf8: bool = False


@dataclass
class FileResult:
    document: dict[str, Any]
    raw_tok: int = 0
    notes: list[str] = field(default_factory=list)
    unfollowed: Unfollowed = field(default_factory=Unfollowed)
    """What could not be followed in this file; the pipeline counts it over the call."""


def process(item: Input, root: Path, options: SummaryOptions, below: int) -> FileResult:
    """Rules a–g for one file (docs/code.md, "Which files are summarised"), with what could not be
    followed."""
    result = decide(item, root, options, below)
    if not result.unfollowed.errors and not result.unfollowed.declarations:
        result.unfollowed = unfollowed.of_document(result.document)
    return result


def read(path: Path) -> Read:
    """Read a regular file whole; special files and OS errors become `error` (never raised)."""
    from sofia.runtime import files

    lang = language_for(path) or ""
    try:
        source = files.read_regular(path)
    except files.NotRegular:
        return Read(lang=lang, error="not a regular file")
    except OSError as error:
        return Read(lang=lang, error=error.strerror or str(error))
    lang = resolve(lang, source, os.fspath(path)) if lang else lang  # a C++ `.h` is cpp
    return Read(source=source, text=decode(source), lang=lang, invalid_utf8=not is_utf8(source))


def decode(source: bytes) -> str:
    """Text as the agent sees it: UTF-8 with U+FFFD for invalid bytes, a leading BOM stripped."""
    return source.removeprefix(BOM).decode("utf-8", "replace")


def is_utf8(source: bytes) -> bool:
    try:
        source.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def count_lines(text: str) -> int:
    """Lines counted on `\\n`; a last line without a newline counts too."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def size_text(size: int) -> str:
    """`0K`, `3.1K`, `8K` below one MiB, then `5.2 MiB`."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MiB"
    return f"{size // 1024}K" if size % 1024 == 0 else f"{size / 1024:.1f}K"


def header(rel: str, lang: str, mode: str, lines: int) -> dict[str, Any]:
    return {"path": rel, "lang": lang, "mode": mode, "lines": lines}


def skipped(rel: str, lang: str, lines: int, reason: str) -> dict[str, Any]:
    return {**header(rel, lang, "skipped", lines), "reason": reason}


def raw(rel: str, file: Read, reason: str, parse_errors: int = 0) -> dict[str, Any]:
    document = header(rel, file.lang, "raw", count_lines(file.text))
    if parse_errors:
        document["parse_errors"] = parse_errors
    document["reason"] = reason
    document["content"] = file.text
    return document


def summariser(lang: str) -> Summariser:
    """The summarise function of `lang`'s module (imported on first use)."""
    from sofia.syntax import registry

    record = registry.language(lang)
    if record is None:
        raise KeyError(lang)
    module = importlib.import_module(f"sofia.providers.code.summary_{record.summary}")
    function: Summariser = module.summarise
    return function


def decide(item: Input, root: Path, options: SummaryOptions, below: int) -> FileResult:
    """Rules a–g for one file: the first that applies decides the document."""
    file = read(item.path)
    if file.error:
        return FileResult(skipped(item.rel, file.lang, 0, f"unreadable: {file.error}"))
    raw_tok = estimate(file.source)
    notes = [f"{item.rel}: invalid UTF-8 bytes shown as U+FFFD"] if file.invalid_utf8 else []
    if looks_binary(file.source):
        return FileResult(skipped(item.rel, file.lang, 0, f"binary ({size_text(len(file.source))})"), raw_tok)
    if not file.lang:
        return FileResult(raw(item.rel, file, "unsupported_type"), raw_tok, notes)
    always = options.brief or (options.api and file.lang == "php")  # asked for structure, not text
    if below > 0 and len(file.source) < below and not always:
        return FileResult(raw(item.rel, file, "below_threshold"), raw_tok, notes)
    if len(file.source) > MAX_PARSE_BYTES:
        return FileResult(raw(item.rel, file, "too_large"), raw_tok, notes)
    summarise = summariser(file.lang)
    try:
        tree = parse(file.source, file.lang, item.rel, outline=True)
    except LanguageUnsupported:
        return FileResult(raw(item.rel, file, "unsupported_type"), raw_tok, notes)
    except ParseUnavailable:
        return FileResult(raw(item.rel, file, "too_large"), raw_tok, notes)
    source_file = SourceFile(item.path, item.rel, root, file.source, file.text, file.lang)
    summary = summarise(tree, source_file, options)
    document = summary_document(item.rel, file, tree.parse_errors, summary, options.brief)
    baseline = raw_tok + summary.extra_raw_tok
    if tree.parse_errors > 0 and not declares_anything(tree, document):  # symbols built only then
        return FileResult(raw(item.rel, file, "parse_failed", tree.parse_errors), raw_tok, notes)
    if cost(document) < baseline or options.brief:  # brief asks for the structure, whatever it costs
        found = unfollowed.of_summary(tree, item.rel, summary.skipped)
        return FileResult(document, baseline, [*notes, *summary.notes], found)
    return FileResult(raw(item.rel, file, "summary_not_smaller"), baseline, notes)


def declares_anything(tree: SymbolTree, document: dict[str, Any]) -> bool:
    return bool(tree.symbols) or any(document.get(k) for k in ("types", "functions", *OPTIONAL_KEYS))


def summary_document(
    rel: str, file: Read, parse_errors: int, summary: Summary, brief: bool
) -> dict[str, Any]:
    """The summary document: header, namespace, parse_errors (when any), the plain tables, then the
    non-empty optional ones, in the documented order; `brief` applied and default-only columns elided."""
    fields = dict(summary.fields)
    document = header(rel, file.lang, "summary", count_lines(file.text))
    document["namespace"] = fields.pop("namespace", "")
    if parse_errors:
        document["parse_errors"] = parse_errors
    for key in PLAIN_KEYS:
        document[key] = fields.pop(key, [])
    for key in OPTIONAL_KEYS:
        value = fields.pop(key, None)
        if value:
            document[key] = value
    document.update((k, v) for k, v in fields.items() if v)
    if brief:
        document = briefed(document)
    return elided(document)


def briefed(document: dict[str, Any]) -> dict[str, Any]:
    """`brief`: no imports or properties, and no value, attrs or detail cells anywhere."""
    out: dict[str, Any] = {}
    for key, value in document.items():
        if key in BRIEF_DROPPED_KEYS:
            continue
        if key in ELIDABLE and isinstance(value, list):
            value = [{k: v for k, v in row.items() if k not in BRIEF_DROPPED_COLUMNS} for row in value]
        out[key] = value
    return out


def elided(document: dict[str, Any]) -> dict[str, Any]:
    """Columns holding only their default in every row of a table are dropped from that table."""
    return {
        key: elide(value, ELIDABLE[key]) if key in ELIDABLE and isinstance(value, list) else value
        for key, value in document.items()
    }
