"""Turning a provider result into CLI text: TOON (default), JSON or Markdown, plus the optional footer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sofia import settings
from sofia.output import jsonfmt, markdown
from sofia.output.tokens import estimate

Renderer = Callable[[Any, str], "str | None"]


def render(result: Any, fmt: str, custom: Renderer | None = None) -> str:
    """CLI text for `result` in `fmt`; a provider's own renderer gets the first word."""
    if custom is not None:
        text = custom(result, fmt)
        if text is not None:
            return text if text.endswith("\n") or not text else text + "\n"
    if isinstance(result, str):
        return result if result.endswith("\n") or not result else result + "\n"
    if fmt == "json":
        return jsonfmt.pretty(result)
    body = without_stats(result)
    if fmt == "md":
        return markdown.render(body)
    from sofia.output import toon

    return toon.render(body)


def without_stats(result: Any) -> Any:
    """TOON and Markdown bodies leave `stats` out: it only feeds the footer."""
    if isinstance(result, dict) and "stats" in result:
        return {k: v for k, v in result.items() if k != "stats"}
    return result


def footer(printed: str, result: Any) -> str:
    """`# sf ≈N tok · raw ≈R` (or `# sf ≈N tok`), or "" when `SOFIA_FOOTER=off`."""
    if not settings.get("SOFIA_FOOTER"):
        return ""
    line = f"# sf ≈{estimate(printed)} tok"
    if isinstance(result, dict):
        stats = result.get("stats")
        if isinstance(stats, dict) and isinstance(stats.get("raw_tok"), int):
            line += f" · raw ≈{stats['raw_tok']}"
    return line
