"""Other providers reach the Composer machinery through `sofia.providers.composer` alone."""

from __future__ import annotations

import ast
from pathlib import Path

import sofia.providers.composer as composer

PROVIDERS = Path(composer.__file__).parent.parent


def composer_imports(path: Path) -> list[str]:
    """Every module under `sofia.providers.composer` that `path` imports (function-level ones too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("sofia.providers.composer")
        ):
            found.extend(
                node.module if node.module != "sofia.providers.composer" else f"{node.module}.{alias.name}"
                for alias in node.names
            )
        elif isinstance(node, ast.Import):
            found.extend(a.name for a in node.names if a.name.startswith("sofia.providers.composer"))
    return found


def test_other_providers_import_only_the_facade() -> None:
    outside = [p for p in PROVIDERS.rglob("*.py") if PROVIDERS / "composer" not in p.parents]
    reached = {
        f"{path.relative_to(PROVIDERS)}: {name}"
        for path in outside
        for name in composer_imports(path)
        if name.removeprefix("sofia.providers.composer.") not in composer.__all__
    }
    assert reached == set()


def test_the_facade_exports_what_it_lists() -> None:
    assert all(hasattr(composer, name) for name in composer.__all__)
