"""Fixtures for the Composer tools: the PHP workspace, small package trees, and a git that counts."""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.contract import Context
from tests.composer.workspace import Workspace, build_workspace


@pytest.fixture(scope="session")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The shared, read-only PHP workspace (tests that change it use `own_workspace`)."""
    return build_workspace(tmp_path_factory.mktemp("php") / "workspace")


@pytest.fixture
def own_workspace(tmp_path: Path) -> Workspace:
    return build_workspace(tmp_path / "workspace")


def context(root: Path, **kwargs: Any) -> Context:
    """An unbudgeted provider context rooted at `root` unless a budget is given."""
    kwargs.setdefault("budget", None)
    return Context(root=root, **kwargs)


def write_package(
    directory: Path, manifest: dict[str, Any] | str, files: dict[str, str] | None = None
) -> Path:
    """A package directory with `composer.json` (a dict is encoded, a str written as is) and `files`."""
    directory.mkdir(parents=True, exist_ok=True)
    text = manifest if isinstance(manifest, str) else json.dumps(manifest, indent=4)
    (directory / "composer.json").write_text(text)
    for name, content in (files or {}).items():
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)
    return directory


@pytest.fixture
def counting_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[list[str]]]:
    """Put a `git` first on PATH that logs its arguments and runs the real git; returns a log reader."""
    real = shutil.which("git")
    assert real is not None
    bin_dir = tmp_path / "counting-bin"
    bin_dir.mkdir()
    log = tmp_path / "git-calls.jsonl"
    wrapper = bin_dir / "git"
    wrapper.write_text(
        "#!/usr/bin/env python3\n"
        "import json, os, sys\n"
        f"with open({str(log)!r}, 'a') as out:\n"
        "    out.write(json.dumps(sys.argv[1:]) + '\\n')\n"
        f"os.execv({real!r}, [{real!r}, *sys.argv[1:]])\n"
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")

    def calls() -> list[list[str]]:
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]

    return calls
