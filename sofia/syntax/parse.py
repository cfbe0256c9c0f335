"""Entry points of the symbol layer: which language a path is, and parsing a source into a
SymbolTree by dispatching to the language's extraction module (imported on first use)."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

from sofia.syntax.grammars import LanguageUnsupported, ParseUnavailable
from sofia.syntax.tree import SymbolTree

EXTENSIONS: dict[str, str] = {
    ".php": "php",
    ".go": "go",
    ".py": "python",
    ".pyi": "python",
    ".js": "js",
    ".mjs": "js",
    ".cjs": "js",
    ".jsx": "js",
    ".ts": "ts",
    ".mts": "ts",
    ".cts": "ts",
    ".tsx": "tsx",
    ".vue": "vue",
}
"""Supported extensions (lower case) and their language (docs/architecture.md, "The symbol layer")."""

_MODULES = {"php": "php", "go": "go", "python": "python", "js": "js", "ts": "js", "tsx": "js", "vue": "vue"}

PARSE_COUNT = 0
"""How many sources were parsed in this process (tests use it to prove a file is parsed once)."""


def language_for(path: str | os.PathLike[str]) -> str | None:
    """The language of `path` from its extension (case-insensitive), or None when unsupported."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    return EXTENSIONS.get(suffix)


def parse(source: bytes, lang: str, name: str = "") -> SymbolTree:
    """The symbol tree of `source` in `lang`; `name` is the file's path or name when known (a Vue
    Options API component is named after its file: `UserCard.member`).

    Raises ParseTooLarge / ParseTimeout (both ParseUnavailable) when no tree can be had, and
    LanguageUnsupported for a language without an extraction module.
    """
    global PARSE_COUNT
    module_name = _MODULES.get(lang)
    if module_name is None:
        raise LanguageUnsupported(f"unsupported language {lang!r}")
    qualified = f"sofia.syntax.{module_name}"
    try:
        module = importlib.import_module(qualified)
    except ModuleNotFoundError as error:
        if error.name != qualified:
            raise
        raise LanguageUnsupported(f"no extraction module for {lang}") from error
    PARSE_COUNT += 1
    if lang == "vue" and name:
        component = os.path.splitext(os.path.basename(name))[0]
        vue_tree: SymbolTree = module.extract(source, lang, component=component)
        return vue_tree
    tree: SymbolTree = module.extract(source, lang)
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
