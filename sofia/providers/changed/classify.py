"""Language and category of a changed path, pure functions of the path (docs/changed.md,
"Language and category")."""

from __future__ import annotations

import posixpath

from sofia.syntax.parse import EXTENSIONS

LANGS = {
    **EXTENSIONS,
    ".rs": "rust",
    ".sql": "sql",
    ".css": "css",
    ".scss": "css",
    ".sass": "css",
    ".less": "css",
    ".html": "template",
    ".twig": "template",
    ".sh": "shell",
    ".bash": "shell",
}
"""The symbol layer's languages plus names for a few more that sofia reports but does not parse."""

TEST_DIRS = {"test", "tests", "__tests__", "testdata"}
DOC_EXTS = {".md", ".rst", ".adoc", ".txt"}
DOC_NAMES = {"readme", "changelog", "license", "contributing", "authors"}
BUILD_NAMES = {
    "Makefile", "GNUmakefile", "go.mod", "go.sum", "go.work", "composer.json", "composer.lock", "package.json",
    "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.toml", "Cargo.lock", "pyproject.toml", "setup.py",
    "setup.cfg", "tox.ini", "CMakeLists.txt",
}  # fmt: skip
CONFIG_EXTS = {
    ".yaml", ".yml", ".json", ".jsonc", ".xml", ".toml", ".ini", ".env", ".neon", ".conf", ".cfg", ".properties",
    ".dist",
}  # fmt: skip

CATEGORY_PRIORITY = ("other", "docs", "config", "build", "test", "migration", "source")
"""The order in which categories give up rows when a result is over budget (source last)."""


def language(path: str) -> str:
    """The language name of `path` from its extension, or "" when sofia has no name for it."""
    return LANGS.get(posixpath.splitext(path)[1].lower(), "")


def _is_requirements(base: str) -> bool:
    return (base.startswith("requirements") or base.startswith("constraints")) and base.endswith(".txt")


def category(path: str) -> str:
    """test / migration / docs / build / config / source / other: the first rule that matches."""
    directories = path.split("/")[:-1]
    base = posixpath.basename(path)
    stem, ext = posixpath.splitext(base)
    ext = ext.lower()
    lower = base.lower()
    if (
        base.endswith(("_test.go", "Test.php", "_test.py"))
        or (base.startswith("test_") and base.endswith(".py"))
        or base == "conftest.py"
        or ".test." in base
        or ".spec." in base
        or any(d in TEST_DIRS for d in directories)
    ):
        return "test"
    if (
        any(d in ("migrations", "migrate") for d in directories)
        or "alembic/versions/" in path
        or "migration" in lower
    ):
        return "migration"
    if (
        (ext in DOC_EXTS and not _is_requirements(base) and base != "CMakeLists.txt")
        or any(d in ("docs", "doc") for d in directories)
        or (stem if ext else base).lower() in DOC_NAMES
    ):
        return "docs"
    if (
        base in BUILD_NAMES
        or _is_requirements(base)
        or base.startswith("Dockerfile")
        or lower.endswith(".dockerfile")
        or lower.endswith(".lock")
    ):
        return "build"
    if (
        ext in CONFIG_EXTS
        or base.startswith(".env")
        or (base.startswith(".") and "." not in base[1:])
        or "config" in directories
    ):
        return "config"
    if language(path):
        return "source"
    return "other"
