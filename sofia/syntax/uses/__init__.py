"""Occurrences of a name in a parsed file, classified on the syntax tree: definitions, uses (with
their kind and what they statically refer to), locals that shadow the name, and mentions in
comments and strings. `refs` builds on it; `lookup` shares its query spelling with `code`.

Finding where the name occurs is a word search over the file's bytes (the same word rule ripgrep
uses); everything after that is read from the tree at that position.
"""

from __future__ import annotations

from sofia.syntax.uses.model import Binding, FileUses, Occurrence, Syntax
from sofia.syntax.uses.nodes import word_positions
from sofia.syntax.uses.scan import analyze, syntax_of

__all__ = ["Binding", "FileUses", "Occurrence", "Syntax", "analyze", "syntax_of", "word_positions"]
