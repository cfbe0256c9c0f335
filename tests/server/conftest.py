"""MCP server tests run async (anyio on asyncio, like the server) against a real `sf mcp`."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"
