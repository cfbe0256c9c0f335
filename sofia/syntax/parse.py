"""Entry points of the symbol layer: which language a path is, and parsing a source into a
SymbolTree by dispatching to the language's extraction module (imported on first use)."""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from pathlib import Path

from sofia.syntax import registry
from sofia.syntax.grammars import LanguageUnsupported, ParseUnavailable
from sofia.syntax.tree import SymbolTree

EXTENSIONS = registry.EXTENSIONS
"""Supported extensions (lower case) and their language (docs/languages.md)."""


def language_for(path: str | os.PathLike[str]) -> str | None:
    """The language of `path` from its extension (case-insensitive), or None when unsupported."""
    return registry.language_for(path)


def resolve(lang: str, source: bytes, name: str = "") -> str:
    """The language `source` is read as: an extension two languages share (`.h`) is decided by
    the record's sniff from the content (also when the file's `name` is not known)."""
    record = registry.language(lang)
    if record is None or not record.sniff:
        return lang
    if name and os.path.splitext(name)[1].lower() not in record.sniffed:
        return lang
    if _SNIFFED and _SNIFFED[0][0] is source and _SNIFFED[0][1] == record.sniff:
        return _SNIFFED[0][2]
    module_name, _, function = record.sniff.partition(":")
    decided: str = getattr(importlib.import_module(module_name), function)(source)
    _SNIFFED[:] = [(source, record.sniff, decided)]
    return decided


_SNIFFED: list[tuple[bytes, str, str]] = []
"""The last source sniffed (the very object: bytes never change), its sniff and what it decided:
`code` decides a `.h` file's language when it reads the file and again when it parses it."""


def parse(
    source: bytes, lang: str, name: str = "", *, outline: bool = False, holding: Sequence[str] = ()
) -> SymbolTree:
    """The symbol tree of `source` in `lang`; `name` is the file's path or name when known (a Vue
    Options API component is named after its file: `UserCard.member`). `outline` asks only for
    what a summary shows: an extraction module with an `outline` function may then leave function
    bodies unparsed (`sofia.syntax.bodies`). `holding` asks only for the definitions of those
    names (a lookup): a module with a `holding` function may then parse only the declarations
    that hold them (`sofia.syntax.regions`).

    Raises ParseTooLarge / ParseTimeout (both ParseUnavailable) when no tree can be had, and
    LanguageUnsupported for a language without an extraction module.
    """
    record = registry.language(lang)
    if record is None:
        raise LanguageUnsupported(f"unsupported language {lang!r}")
    lang = resolve(lang, source, name)
    record = registry.language(lang) or record
    try:
        module = importlib.import_module(record.symbols)
    except ModuleNotFoundError as error:
        if error.name != record.symbols:
            raise
        raise LanguageUnsupported(f"no extraction module for {lang}") from error
    if holding and hasattr(module, "holding"):
        held: SymbolTree = module.holding(source, lang, name, holding)
        return held
    extract = getattr(module, "outline", None) if outline else None
    tree: SymbolTree = (extract or module.extract)(source, lang, name)
    return tree


def parse_file(path: str | Path, source: bytes | None = None) -> SymbolTree | None:
    """The symbol tree of the file at `path` (read unless `source` is given), or None when its
    language is unsupported, it cannot be read, or no tree can be had (too large, timed out)."""
    lang = language_for(path)
    if lang is None:
        return None
    if source is None:
        try:
            source = Path(path).read_bytes()
        except OSError:
            return None
    try:
        return parse(source, lang, os.fspath(path))
    except ParseUnavailable:
        return None
