"""Fixtures of the cc tests: projects roots built from the transcript generator, a pinned clock."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sofia.errors import render_all
from sofia.providers.contract import Context
from tests.cc import transcripts

NOW = 1772450100.0  # 2026-03-02T11:15:00Z


@pytest.fixture
def ab_root(tmp_path: Path) -> Path:
    """Sessions A and B only: the reference fixture with its expected values."""
    root = tmp_path / "projects"
    transcripts.write_ab(root)
    return root


@pytest.fixture
def full_root(tmp_path: Path) -> Path:
    """A, B and C with C's sidecar and legacy agent files and an orphaned agent file."""
    root = tmp_path / "projects"
    transcripts.write_ab(root)
    transcripts.write_extras(root)
    return root


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test starts with an empty parse cache of its own."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("SOFIA_CACHE_DIR", str(cache))
    monkeypatch.delenv("SOFIA_CC_CACHE", raising=False)
    return cache / "cc"


def context(budget: int | None = None, now: float = NOW, root: Path | None = None) -> Context:
    return Context(root=root or Path("/"), budget=budget, clock=lambda: now)


Call = Callable[..., dict[str, Any]]


@pytest.fixture
def call() -> Call:
    """`call(module, budget=None, **params)`: run a cc provider in-process with the pinned clock; its
    parameter references spelled as the MCP server spells them."""

    def run(module: Any, budget: int | None = None, cli: bool = False, **params: Any) -> dict[str, Any]:
        model = module.CliParams if cli else module.Params
        result: dict[str, Any] = render_all(module.run(model(**params), context(budget)))
        return result

    return run
