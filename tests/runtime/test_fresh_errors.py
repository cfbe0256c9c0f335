"""A missing program is reported by a new exception on every call: one shared instance would grow
its traceback with each raise and keep every frame alive in a long-lived worker."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from sofia.errors import ProviderError
from sofia.providers.composer import check
from sofia.runtime import git, rg


def raised(action: Callable[[], object]) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        action()
    return caught.value


def frames(error: BaseException) -> int:
    return len(traceback.extract_tb(error.__traceback__))


def no_rg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[], object]:
    monkeypatch.setattr(rg, "candidates", lambda: [str(tmp_path / "rg")])
    rg.locate.cache_clear()
    return rg.locate


def no_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[], object]:
    monkeypatch.setenv("PATH", str(tmp_path))
    return lambda: git.run(["status"], cwd=tmp_path)


def no_composer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[], object]:
    return lambda: check.require_tools(str(tmp_path))


def no_php(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[], object]:
    composer = tmp_path / "composer"
    composer.write_text("#!/bin/sh\n")
    composer.chmod(0o755)
    return lambda: check.require_tools(str(tmp_path))


@pytest.mark.parametrize("missing", [no_rg, no_git, no_composer, no_php])
def test_each_raise_is_a_new_error_with_its_own_traceback(
    missing: Callable[[pytest.MonkeyPatch, Path], Callable[[], object]],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    action = missing(monkeypatch, tmp_path)
    try:
        errors = [raised(action) for _ in range(5)]
    finally:
        rg.locate.cache_clear()
    assert len({id(error) for error in errors}) == 5
    assert [frames(error) for error in errors] == [frames(errors[0])] * 5
    assert len({str(error) for error in errors}) == 1 and str(errors[0])
