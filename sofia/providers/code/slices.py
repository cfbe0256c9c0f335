"""Symbol slices: the exact source of named symbols, matched by qname or an
accepted spelling, with close matches for misses and the whole file when that is cheaper."""

from __future__ import annotations

from typing import Any

from sofia.errors import quote, tool
from sofia.output.notes import Place
from sofia.output.tokens import estimate
from sofia.providers.code import unfollowed
from sofia.providers.code.documents import Read, count_lines, decode, header, raw, read, size_text
from sofia.providers.code.inputs import Input
from sofia.providers.contract import ProviderError
from sofia.runtime.files import looks_binary
from sofia.syntax import (
    EXTENSIONS,
    MAX_PARSE_BYTES,
    ParseUnavailable,
    Symbol,
    SymbolTree,
    lookup,
    parse,
    slice_text,
)

AVAILABLE_SHOWN = 40
WHOLE_FILE_NOTE = "whole file returned"


def spellings(symbol: str, lang: str) -> list[str]:
    """The qnames a requested spelling may stand for, most literal first (see `sofia.syntax.lookup`)."""
    return lookup.spellings(symbol, lang)


def find(tree: SymbolTree, symbol: str) -> list[Symbol]:
    """Symbols for one request (see `sofia.syntax.lookup.find`)."""
    return lookup.find(tree, symbol)


def close_matches(tree: SymbolTree, symbol: str) -> list[str]:
    """Up to 3 qnames close to a missed spelling."""
    return lookup.close_matches(tree, symbol)


def run_slices(item: Input, symbols: list[str], below: int) -> dict[str, Any]:
    """The slice-mode result for one file (budget applied later by the caller)."""
    file, tree = _parsed(item)
    found, missing, notes = _matched(tree, symbols)
    unparsed = unfollowed.error_places(tree, item.rel) if missing else []
    if not found:
        raise none_found(item.rel, symbols, missing, tree, unparsed)
    notes.extend(unfollowed.Unfollowed(errors=unparsed).notes())
    document = _document(item, file, found, below, notes)
    if missing:
        document["missing"] = missing
    return {"files": [document], "notes": notes, "stats": {"raw_tok": estimate(file.source)}}


def _parsed(item: Input) -> tuple[Read, SymbolTree]:
    """The file read and parsed, or the error saying why symbols cannot be sliced from it."""
    file = read(item.path)
    if file.error:
        raise ProviderError(f"unreadable: {item.rel}: {file.error}", "check the path and its permissions")
    if not file.lang:
        raise ProviderError(
            f"symbols cannot be sliced from this file type: {item.rel}",
            f"symbols work in {' '.join(sorted(EXTENSIONS))} files; drop the symbols to get the file",
        )
    if looks_binary(file.source):
        raise ProviderError(f"binary file: {item.rel}", "symbols can only be sliced from source files")
    if len(file.source) > MAX_PARSE_BYTES:
        raise ProviderError(
            f"too large to parse: {item.rel} ({size_text(len(file.source))})",
            f"use {tool('grep')} to find the lines you need",
        )
    try:
        return file, parse(file.source, file.lang, item.rel)
    except ParseUnavailable as error:
        raise ProviderError(
            f"could not parse {item.rel}: {error}", f"use {tool('grep')} to find the lines you need"
        ) from None


def _matched(tree: SymbolTree, symbols: list[str]) -> tuple[list[Symbol], list[dict[str, str]], list[str]]:
    """The symbols each request names, each once and in request order; the requests that name
    none, with close matches; a note for each spelling that matches several."""
    found: list[Symbol] = []
    missing: list[dict[str, str]] = []
    notes: list[str] = []
    for symbol in symbols:
        matched = find(tree, symbol)
        if not matched:
            missing.append({"symbol": symbol, "close": ", ".join(close_matches(tree, symbol))})
            continue
        if len(matched) > 1 and not any(
            spelling == matched[0].qname for spelling in spellings(symbol, tree.lang)
        ):
            notes.append(
                f"{symbol} matches {len(matched)} symbols: {', '.join(s.qname for s in matched)}; all are shown"
            )
        found.extend(s for s in matched if all(s is not f for f in found))
    return found, missing, notes


def _document(item: Input, file: Read, found: list[Symbol], below: int, notes: list[str]) -> dict[str, Any]:
    """The slices, or the whole file when it is small or the slices would cost as much (said in
    `notes`)."""
    texts = [decode_slice(file.source, s) for s in found]
    whole_reason = ""
    if below > 0 and len(file.source) < below:
        whole_reason = "below_threshold"
    elif estimate("".join(texts)) >= estimate(file.source):
        whole_reason = "slices_not_smaller"
    if not whole_reason:
        document = header(item.rel, file.lang, "slice", count_lines(file.text))
        document["slices"] = [
            {"symbol": s.qname, "kind": s.kind, "line": s.slice_line, "end_line": s.end_line, "text": text}
            for s, text in zip(found, texts, strict=True)
        ]
        return document
    names = list(dict.fromkeys(s.qname for s in found))
    document = raw(item.rel, file, whole_reason)
    document["symbols"] = names
    why = (
        f"{size_text(len(file.source))} < {size_text(below)}"
        if whole_reason == "below_threshold"
        else "slices would not be smaller"
    )
    notes.append(f"{WHOLE_FILE_NOTE} ({why}); it contains {', '.join(names)}")
    return document


def decode_slice(source: bytes, symbol: Symbol) -> str:
    return decode(slice_text(source, symbol))


def none_found(
    rel: str, symbols: list[str], missing: list[dict[str, str]], tree: SymbolTree, unparsed: list[Place]
) -> ProviderError:
    close = list(dict.fromkeys(c for m in missing for c in m["close"].split(", ") if c))
    qnames = tree.qnames()
    available = ", ".join(qnames[:AVAILABLE_SHOWN]) or "none (the file declares no symbols)"
    if len(qnames) > AVAILABLE_SHOWN:
        available += f" (+{len(qnames) - AVAILABLE_SHOWN})"
    hint = f"close: {', '.join(close)}; available: {available}" if close else f"available: {available}"
    if unparsed:
        hint += f"; {unfollowed.Unfollowed(errors=unparsed).notes()[0]}"
    return ProviderError(f"none of the symbols were found in {rel}: {quote(', '.join(symbols))}", hint)
