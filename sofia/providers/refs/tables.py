"""The CLI's TOON and Markdown of a `refs` answer: each match's uses as one flat table, the file
written on its first row only (`""` below it: the same file). In TOON that is one header and
short rows, cheaper than a header per file; JSON keeps the answer's own grouping under the file
(docs/refs.md, "Output")."""

from __future__ import annotations

from typing import Any

from sofia.providers.refs.model import MATCHES


def render(result: Any, fmt: str) -> str | None:
    """TOON or Markdown of the flat tables; None (the generic rendering) for JSON and any other
    result."""
    if fmt == "json" or not isinstance(result, dict) or not isinstance(result.get("symbols"), list):
        return None
    from sofia.output import render as generic

    return generic.render(flat(result), fmt)


def flat(result: dict[str, Any]) -> dict[str, Any]:
    """`result` with every `{file: [row, ...]}` of uses as `[{"file": ..., **row}, ...]`."""
    symbols = [
        {key: _rows(value) if key in MATCHES else value for key, value in entry.items()}
        for entry in result["symbols"]
    ]
    return {**result, "symbols": symbols}


def _rows(grouped: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [
        {"file": "" if index else file, **row}
        for file, rows in grouped.items()
        for index, row in enumerate(rows)
    ]
