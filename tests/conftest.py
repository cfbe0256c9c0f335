"""Shared test plumbing: an environment isolated from the developer's own git, Claude Code and
cache configuration, and a real git repository per test (the helpers are in tests/helpers.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import Repo


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """Async tests run on asyncio, as the server does (not on every backend that is installed)."""
    return "asyncio"


@pytest.fixture(scope="session", autouse=True)
def isolated_environment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No user git config, no pager, no footer, a private cache dir: tests see only what they build."""
    home = tmp_path_factory.mktemp("home")
    gitconfig = home / ".gitconfig"
    gitconfig.write_text(
        "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"
    )
    saved = dict(os.environ)
    os.environ.update(
        {
            "GIT_CONFIG_GLOBAL": str(gitconfig),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
            "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
            "SOFIA_FOOTER": "off",
            "SOFIA_CACHE_DIR": str(home / "cache"),
            "CC_PROJECTS_DIR": str(home / "no-claude-projects"),
        }
    )
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_EXTERNAL_DIFF", "GIT_DIFF_OPTS", "SOFIA_MAX_OUTPUT_TOKENS"):
        os.environ.pop(key, None)
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")
