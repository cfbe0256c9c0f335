"""The tree-sitter symbol layer shared by `code`, `grep`, `refs` and `changed` (docs/architecture.md,
"The symbol layer").

Nothing heavy is imported here: grammars load on the first parse.
"""

from __future__ import annotations

from sofia.syntax.grammars import (
    MAX_PARSE_BYTES,
    LanguageUnsupported,
    ParseTimeout,
    ParseTooLarge,
    ParseUnavailable,
    error_nodes,
)
from sofia.syntax.parse import EXTENSIONS, language_for, parse, parse_file
from sofia.syntax.touched import touched_symbols
from sofia.syntax.tree import Symbol, SymbolTree, slice_text

__all__ = [
    "EXTENSIONS",
    "MAX_PARSE_BYTES",
    "LanguageUnsupported",
    "ParseTimeout",
    "ParseTooLarge",
    "ParseUnavailable",
    "Symbol",
    "SymbolTree",
    "error_nodes",
    "language_for",
    "parse",
    "parse_file",
    "slice_text",
    "touched_symbols",
]
