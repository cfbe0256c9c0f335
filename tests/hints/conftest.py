"""The hint tests drive the real `sf mcp` (anyio on asyncio, like the server) and the real `sf`."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"
