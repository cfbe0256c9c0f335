"""Small Markdown pieces for the cc renderers (headings, bullets and pipe tables)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>")


def table(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """A pipe table with the keys of the first row as columns; numbers right-aligned."""
    if not rows:
        return []
    columns = list(rows[0])
    align = ["---:" if isinstance(rows[0][c], int) else "---" for c in columns]
    lines = ["| " + " | ".join(columns) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(cell(row[c]) for c in columns) + " |" for row in rows]
    return lines


def section(title: str, body: list[str]) -> list[str]:
    return [f"## {title}", "", *body, ""] if body else []


def notes(result: Mapping[str, Any]) -> list[str]:
    return section("Notes", [f"- {note}" for note in result.get("notes", [])])


def join(lines: list[str]) -> str:
    return "\n".join(lines).rstrip("\n") + "\n"
