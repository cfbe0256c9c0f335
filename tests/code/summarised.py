"""Summary documents made without the compact-or-raw decision, for facts about small fixtures (a
five-line enum comes back raw from `code`, rightly; its summary still has to be right)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sofia.errors import render_all
from sofia.providers.code import documents
from sofia.providers.code.model import SourceFile, SummaryOptions
from sofia.syntax import parse


def summarised(root: Path, rel: str, **options: bool) -> dict[str, Any]:
    """The summary document of `root/rel` as `code` would build it (columns elided, `brief` applied),
    its notes as the MCP server spells them."""
    path = root / rel
    file = documents.read(path)
    tree = parse(file.source, file.lang)
    summarise = documents.summariser(file.lang)
    assert summarise is not None
    chosen = SummaryOptions(**options)
    summary = summarise(tree, SourceFile(path, rel, root, file.source, file.text, file.lang), chosen)
    doc = documents.summary_document(rel, file, tree.parse_errors, summary, chosen.brief)
    doc["notes"] = summary.notes
    return render_all(doc)
