"""Helpers for the `code` tests: calling the provider in-process against a real directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sofia.providers.code import as_text
from tests.helpers import call

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "code"


def code(root: Path, *files: str, budget: int | None = 20_000, **options: Any) -> dict[str, Any]:
    """`code` as an MCP call would make it: files relative to `root`, the default budget."""
    result = call("code", {"files": list(files), **options}, root, budget)
    assert isinstance(result, dict)
    return result


def slice_text(result: dict[str, Any]) -> str:
    """The text a slice-mode result travels as."""
    text = as_text(result)
    assert text is not None, "a slice result travels as text"
    return text


def document(result: dict[str, Any], path: str) -> dict[str, Any]:
    return next(d for d in result["files"] if d["path"] == path)


@pytest.fixture
def no_passthrough(monkeypatch: pytest.MonkeyPatch) -> None:
    """Summarise files of every size (`SOFIA_CODE_RAW_BELOW=0`)."""
    monkeypatch.setenv("SOFIA_CODE_RAW_BELOW", "0")


@pytest.fixture(autouse=True)
def default_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOFIA_CODE_RAW_BELOW", raising=False)
