"""Fixtures for the Packagist tools: a local fake Packagist and the PHP workspace."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.composer.conftest import counting_git, own_workspace, workspace
from tests.packagist.server import FakePackagist, local_packagist

__all__ = ["counting_git", "own_workspace", "packagist", "workspace"]


@pytest.fixture
def packagist(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakePackagist]:
    """A running fake Packagist that both the p2 client and the update API point at."""
    with local_packagist(monkeypatch) as fake:
        yield fake
