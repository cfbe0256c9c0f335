"""composer_check over the real MCP server: progress notifications per package (the server thins them
to one per 50 ms, always delivering the last)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.composer.conftest import write_package
from tests.server.harness import connect, server_env, text

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_progress_per_package(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    write_package(root / "a", {"name": "acme/a", "scripts": {"check": "php -r 'exit(0);'"}})
    write_package(root / "b", {"name": "acme/b", "scripts": {"check": "php -r 'echo \"1) T::x\"; exit(1);'"}})
    write_package(root / "c", {"name": "acme/c"})
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with connect(
        root, "--workers", "1", "--tools", "composer_check", env=server_env(test_providers=False)
    ) as server:
        result = await server.call("composer_check", {"jobs": 2}, progress_callback=on_progress)
    assert not result.is_error, text(result)
    payload = json.loads(text(result))
    assert payload["summary"] == {"ok": 1, "fail": 1, "skip": 1, "timeout": 0, "error": 0}
    steps = [(done, total) for done, total, _ in seen]
    assert steps[-1] == (3.0, 3.0)
    assert all(total == 3.0 for _, total in steps)
    assert [done for done, _ in steps] == sorted({done for done, _ in steps})
    assert {message.split()[0] for _, _, message in seen if message} <= {"acme/a", "acme/b", "acme/c"}
