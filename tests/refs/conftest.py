"""Helpers for the refs tests: the provider called in-process on the fixture trees."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.contract import Context
from tests.helpers import call

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "refs"

Row = tuple[str, int, str, str]


def refs(
    workspace: Path, *symbols: str, budget: int | None = None, ctx: Context | None = None, **params: Any
) -> dict[str, Any]:
    """`run` with every use shown unless the test says otherwise."""
    params.setdefault("max_per_symbol", 0)
    result: dict[str, Any] = call("refs", {"symbols": list(symbols), **params}, ctx or workspace, budget)
    return result


def entry(result: dict[str, Any], symbol: str) -> dict[str, Any]:
    return next(e for e in result["symbols"] if e["symbol"] == symbol)


def rows(item: dict[str, Any], match: str) -> list[dict[str, Any]]:
    """The shown uses of one match, each with its file (the answer groups them under it)."""
    return [{"file": file, **row} for file, grouped in item.get(match, {}).items() for row in grouped]


def uses(item: dict[str, Any]) -> set[Row]:
    """(file, line, kind, match) of every shown use."""
    return {
        (row["file"], row["line"], row["kind"], match)
        for match in ("exact", "name")
        for row in rows(item, match)
    }


def accounted(item: dict[str, Any]) -> int:
    """Every bucket an occurrence of the written name can land in."""
    totals = item["totals"]
    keys = ("definitions", "in_comments", "in_strings", "locals", "elsewhere", "other", "unclassified")
    return sum(totals.get(k, 0) for k in keys) + totals["uses"]


def forget_memo() -> None:
    """Drop what refs' memo keeps, as a fresh worker would start."""
    from sofia.providers.refs import memo

    memo._entries.clear()
    memo._held = 0


def memo_held() -> tuple[int, int]:
    """(entries, bytes counted) refs' memo keeps now."""
    from sofia.providers.refs import memo

    return len(memo._entries), memo._held


@pytest.fixture(autouse=True)
def fresh_memo() -> Iterator[None]:
    """Every test starts with nothing kept from another test's calls."""
    forget_memo()
    yield
    forget_memo()
