"""Markdown rendering of a result document: scalars as bold key lines, tables as pipe tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def render(doc: Mapping[str, Any], level: int = 1) -> str:
    """Markdown for `doc`; empty lists are left out (they carry nothing for a reader)."""
    out: list[str] = []
    _render_mapping(doc, level, out)
    text = "\n".join(out).strip("\n")
    return text + "\n"


def _render_mapping(doc: Mapping[str, Any], level: int, out: list[str]) -> None:
    scalars = [(k, v) for k, v in doc.items() if _is_scalar(v)]
    for key, value in scalars:
        out.append(f"**{key}**: {_cell(value)}  ")
    if scalars:
        out.append("")
    for key, value in doc.items():
        if _is_scalar(value) or value == [] or value == {}:
            continue
        heading = "#" * min(level + 1, 6)
        out.append(f"{heading} {key}")
        out.append("")
        _render_value(value, level + 1, out)


def _render_value(value: Any, level: int, out: list[str]) -> None:
    if isinstance(value, Mapping):
        _render_mapping(value, level, out)
    elif isinstance(value, list) and all(isinstance(v, Mapping) and _is_flat(v) for v in value):
        out.extend(_table(value))
        out.append("")
    elif isinstance(value, list) and all(_is_scalar(v) for v in value):
        out.extend(f"- {_cell(v)}" for v in value)
        out.append("")
    elif isinstance(value, list):
        heading = "#" * min(level + 1, 6)
        for index, item in enumerate(value, 1):
            title = _title(item) if isinstance(item, Mapping) else ""
            out.append(f"{heading} {index}. {title}".rstrip())
            out.append("")
            _render_value(item, level + 1, out)


def _table(rows: list[Mapping[str, Any]]) -> list[str]:
    columns: list[str] = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join(" --- " for _ in columns) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(_cell(row.get(c, "")) for c in columns) + " |")
    return lines


def _title(item: Mapping[str, Any]) -> str:
    for value in item.values():
        if isinstance(value, str) and value:
            return value
    return ""


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _is_flat(row: Mapping[str, Any]) -> bool:
    return all(_is_scalar(v) for v in row.values())


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>")
