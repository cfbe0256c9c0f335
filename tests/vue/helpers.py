"""Helpers for the vue_routes tests: the tool called in-process on a tree the test writes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers import call


def routes_of(workspace: Path, budget: int | None = None, **params: Any) -> dict[str, Any]:
    """The route table of `workspace`, unbudgeted unless the test says otherwise."""
    result: dict[str, Any] = call("vue_routes", params, workspace, budget)
    return result
