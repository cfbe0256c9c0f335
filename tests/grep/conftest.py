"""Helpers for the grep tests: the provider called in-process, ripgrep's own `--vimgrep` answer for
the same search, and a generated tree shaped like a small polyglot monorepo."""

from __future__ import annotations

import random
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sofia.errors import render_all
from sofia.providers.contract import Context
from sofia.providers.grep.provider import Params, run
from sofia.runtime import rg

SPEC_IGNORE_DIRS = [
    ".git",
    ".hg",
    ".svn",
    ".idea",
    ".vscode",
    "node_modules",
    "vendor",
    "var",
    "dist",
    "build",
    "target",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".next",
    ".nuxt",
    "coverage",
]
"""The directory names spec tools-code §0.4 skips below the root, spelled out independently."""

Location = tuple[str, int, int]


def grep(workspace: Path, *patterns: str, budget: int | None = 20_000, **params: Any) -> dict[str, Any]:
    """The provider's result for `patterns` searched with `workspace` as the workspace root, its
    parameter references spelled as the MCP server spells them."""
    return render_all(run(Params(patterns=list(patterns), **params), Context(root=workspace, budget=budget)))


def every_hit(workspace: Path, pattern: str, **params: Any) -> dict[str, Any]:
    """The single pattern entry with no cap and no budget, so every hit is listed."""
    result = grep(workspace, pattern, budget=None, max_per_pattern=0, **params)
    assert result["notes"] == [] or all("skipped" in n for n in result["notes"])
    if not result["patterns"]:
        return {"total": 0, "files": 0, "hits": []}
    entry: dict[str, Any] = result["patterns"][0]
    return entry


def rows(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """A pattern entry's hits as flat rows, each with its file (hits are grouped by file)."""
    hits = entry["hits"]
    if isinstance(hits, list):  # every_hit's empty entry
        return list(hits)
    return [{"file": file, **hit} for file, grouped in hits.items() for hit in grouped]


def locations(entry: dict[str, Any]) -> set[Location]:
    return {(hit["file"], hit["line"], hit["col"]) for hit in rows(entry)}


def vimgrep(
    root: Path,
    pattern: str,
    *,
    regex: bool = False,
    word: bool = False,
    case: bool = True,
    exts: Sequence[str] = (),
    ignore_dirs: Sequence[str] = (),
) -> set[Location]:
    """What `rg --vimgrep` reports for the same search, run the way a user would run it."""
    args = [rg.executable(), "--no-config", "--vimgrep", "--null", "--hidden", "--no-require-git"]
    args += [] if regex else ["--fixed-strings"]
    args += ["--word-regexp"] if word else []
    args += ["--case-sensitive" if case else "--ignore-case"]
    args += [f"--iglob=*.{ext.lstrip('.')}" for ext in exts]
    args += [f"--glob=!{name}/" for name in (*SPEC_IGNORE_DIRS, *ignore_dirs)]
    args += [f"--regexp={pattern}", "--", "."]
    done = subprocess.run(args, cwd=root, capture_output=True, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode in (0, 1), done.stderr
    found: set[Location] = set()
    for record in done.stdout.splitlines():
        path, rest = record.split(b"\0", 1)
        line, col, _ = rest.split(b":", 2)
        name = path.decode("utf-8", "replace").removeprefix("./")
        found.add((name, int(line), int(col)))
    return found


WORDS = [
    "user",
    "order",
    "invoice",
    "payment",
    "cart",
    "item",
    "price",
    "total",
    "token",
    "session",
    "cache",
    "queue",
    "worker",
    "route",
    "controller",
    "service",
    "repository",
    "model",
    "view",
    "store",
    "state",
    "handler",
    "request",
    "response",
    "config",
]
CYRILLIC = ("технология", "технологии", "технолог", "поиск", "пользователь")


def _line(rng: random.Random) -> str:
    """A line of code-like text mixing identifiers, the searched tokens and their near misses."""
    parts = []
    for _ in range(rng.randint(2, 9)):
        roll = rng.random()
        if roll < 0.08:
            parts.append(rng.choice(["TOKEN", "token", "Token", "TOKEN_42", "xTOKEN", "TOKEN_X", "TOKEN7"]))
        elif roll < 0.12:
            parts.append(rng.choice(CYRILLIC))
        elif roll < 0.16:
            parts.append(f"fn{rng.randint(0, 999)}()")
        else:
            parts.append(rng.choice(WORDS) + rng.choice(["", "Id", "_id", ".get()", "->save();", "(", ")"]))
    indent = " " * rng.choice([0, 2, 4, 8])
    return indent + " ".join(parts)


def generate_tree(root: Path, files: int = 260, seed: int = 7) -> Path:
    """A reproducible polyglot tree: packages of sources in several languages, ignored directories
    (defaults, .gitignore'd, a user-chosen one), hidden files, CRLF and upper-case extensions."""
    rng = random.Random(seed)
    extensions = ["php", "ts", "py", "go", "vue", "md", "txt", "PHP", "Ts", "json"]
    places = [
        "packages/billing/src",
        "packages/billing/tests",
        "packages/shop/src/components",
        "packages/shop/src/stores",
        "services/api/internal/http",
        "services/api/cmd",
        "tools/scripts",
        "docs",
        ".github/workflows",
        "packages/shop/node_modules/left-pad",
        "services/api/vendor/github.com/lib",
        "packages/billing/generated",
        "packages/shop/dist",
        "logs",
        "deep/a/b/c/d/e",
    ]
    for index in range(files):
        place = rng.choice(places)
        name = f"{rng.choice(WORDS)}_{index}.{rng.choice(extensions)}"
        body = "\n".join(_line(rng) for _ in range(rng.randint(1, 40)))
        ending = "\r\n" if index % 11 == 0 else "\n"
        target = root / place / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((body.replace("\n", ending) + ending).encode())
    (root / ".gitignore").write_text("logs/\n*.tmp\n")
    (root / "scratch.tmp").write_text("TOKEN in an ignored file\n")
    (root / ".env").write_text("TOKEN=secret-ish TOKEN_42\n")
    (root / "no-newline.txt").write_bytes(b"last line TOKEN without newline")
    return root


@pytest.fixture(scope="session")
def generated_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_tree(tmp_path_factory.mktemp("generated") / "monorepo")
