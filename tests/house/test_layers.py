"""The import graph has no cycles and no arrow running upwards (the layers are in
`tests/house/imports.py`, and docs/architecture.md explains them)."""

from __future__ import annotations

import re

from tests.house.imports import cycles, graph, layer, modules


def test_every_module_has_a_layer() -> None:
    assert [module for module in modules() if layer(module) < 0] == []


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_no_layer_imports_one_above_it() -> None:
    upward = [
        f"{module}:{line} imports {target}"
        for module, targets in graph().items()
        for target, line in targets.items()
        if layer(target) > layer(module)
    ]
    assert upward == []


def test_only_the_server_and_the_pool_import_mcp_or_loky() -> None:
    """Everything else must start without them (they cost most of a second to import)."""
    pattern = re.compile(r"^\s*(?:from|import)\s+(?:mcp|mcp_types|loky)\b", re.M)
    allowed = ("sofia.server", "sofia.workers")
    offenders = [
        module
        for module, path in modules().items()
        if not module.startswith(allowed) and pattern.search(path.read_text())
    ]
    assert offenders == []
