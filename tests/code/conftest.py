"""Helpers for the `code` tests: calling the provider in-process against a real directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sofia.errors import render_all
from sofia.providers.code import Params, run
from sofia.providers.contract import Context

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "code"


def code(root: Path, *files: str, budget: int | None = 20_000, **options: Any) -> dict[str, Any]:
    """`run` as an MCP call would make it: files relative to `root`, the default budget, parameter
    references spelled as the MCP server spells them."""
    result = render_all(run(Params(files=list(files), **options), Context(root=root, budget=budget)))
    assert isinstance(result, dict)
    return result


def document(result: dict[str, Any], path: str) -> dict[str, Any]:
    return next(d for d in result["files"] if d["path"] == path)


@pytest.fixture
def no_passthrough(monkeypatch: pytest.MonkeyPatch) -> None:
    """Summarise files of every size (`SOFIA_CODE_RAW_BELOW=0`)."""
    monkeypatch.setenv("SOFIA_CODE_RAW_BELOW", "0")


@pytest.fixture(autouse=True)
def default_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOFIA_CODE_RAW_BELOW", raising=False)
