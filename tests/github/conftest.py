"""The fake gh for every GitHub test: first on PATH, a fresh case table per test, and every argument
vector it saw collected for the test that checks them against gh's documented flags."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.github.fakegh import FakeGh

SESSION_LOG_NAME = "all-gh-calls.jsonl"


@pytest.fixture(scope="session")
def gh_session_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.getbasetemp() / SESSION_LOG_NAME


@pytest.fixture
def fake_gh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gh_session_log: Path) -> Iterator[FakeGh]:
    fake = FakeGh(tmp_path / "fake-gh", gh_session_log)
    for key, value in fake.env().items():
        monkeypatch.setenv(key, value)
    yield fake
    fake.flush_to_session()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The argument test reads what the other GitHub tests made gh do, so it runs after them."""
    items.sort(key=lambda item: "test_gh_arguments" in item.nodeid)
