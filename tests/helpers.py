"""Helpers shared by every test area: a tool called in-process the way the server's worker calls it,
the real `sf` as a subprocess, real git repositories."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sofia.errors import render_all
from sofia.providers.contract import Context
from sofia.providers.registry import by_name


def call(
    tool: str,
    arguments: Mapping[str, Any],
    root: Path | Context,
    budget: int | None = None,
    *,
    cli: bool = False,
    **context: Any,
) -> Any:
    """The result of `tool` (its registry name) called in-process as the server's worker calls it:
    the registry's record, `arguments` validated by the tool's input model (the CLI's, with `cli`:
    its CLI-only fields), and a `Context` rooted at `root` with `budget` (None: unlimited) and any
    other `Context` field given (`clock=`, `progress=`, `deadline=`, `allowed=`). A test that
    needs a `Context` of its own making passes it as `root`. Parameter references in the result
    are spelled the MCP way, as the worker spells them."""
    provider = by_name(tool)
    assert provider is not None, f"no tool named {tool}"
    model = provider.cli_params if cli else provider.params
    params = model.model_validate(dict(arguments))
    if isinstance(root, Context):
        assert budget is None and not context, "a whole Context carries its own budget and fields"
        ctx = root
    else:
        ctx = Context(root=root, budget=budget, **context)
    return render_all(provider.run(params, ctx))


def write_files(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Each of `files` (relative path: content) written below `root`, directories made; returns `root`."""
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content if isinstance(content, bytes) else content.encode())
    return root


def run_sf(
    *args: str,
    cwd: Path | str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run the real `sf` command line (`python -m sofia`) and capture its output as text."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "sofia", *args],
        cwd=cwd,
        env=full_env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def git(repo: Path, *args: str, check: bool = True) -> str:
    """Run git in `repo` and return its stdout."""
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout


class Repo:
    """A real git repository in a temporary directory, with helpers to write files and commit."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        git(path, "init", "-q", "-b", "main")

    def write(self, rel: str, content: str | bytes) -> Path:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_bytes(content.encode())
        return target

    def git(self, *args: str, check: bool = True) -> str:
        return git(self.path, *args, check=check)

    def commit(self, message: str = "change", paths: Sequence[str] = ()) -> str:
        self.git("add", "-A", *(["--", *paths] if paths else []))
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD").strip()


def count_parses(monkeypatch: Any) -> list[str]:
    """The languages of the symbol trees built from now on, one entry per parse, in order: every
    language's `extract` is wrapped (`sofia.syntax.parse` calls it by attribute), so no counter
    lives in the product for the tests' sake."""
    import importlib

    from sofia.syntax import registry

    built: list[str] = []
    for module in {importlib.import_module(record.symbols) for record in registry.LANGUAGES}:
        real = module.extract

        def counting(source: bytes, lang: str, *rest: Any, _real: Any = real) -> Any:
            built.append(lang)
            return _real(source, lang, *rest)

        monkeypatch.setattr(module, "extract", counting)
    return built
