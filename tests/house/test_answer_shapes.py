"""Every tool declares the JSON shape of its answer (`sofia/providers/shapes/`), the reference
pages print it, and the checker holds answers to it. Every served tool's real answer over MCP is
checked in tests/server/test_calls.py; here, `code`'s summaries and slices (whose MCP payload is
text) in process, and the checker itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sofia.output.shape import mismatches, problems, render
from sofia.providers.contract import Context
from sofia.providers.registry import PROVIDERS, by_name
from sofia.providers.shapes import shapes
from tests.helpers import write_files

TOOLS = [p.name for p in PROVIDERS if not p.module.startswith("tests.")]


def test_every_tool_declares_one_well_formed_shape() -> None:
    declared = shapes()
    assert [name for name in TOOLS if name not in declared] == []
    assert [name for name in declared if name not in TOOLS] == []
    assert {name: list(problems(shape)) for name, shape in declared.items() if list(problems(shape))} == {}


def test_the_reference_page_prints_the_shape() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "reference" / "grep.md").read_text()
    assert render(shapes()["grep"]) in page
    assert "more_in?: [{" in page


SHAPE = {"path": "str", "lines": "int", "fresh": "bool|null", "rows?": [{"n": "float"}], "by": {"*": "int"}}


@pytest.mark.parametrize(
    ("value", "found"),
    [
        ({"path": "a", "lines": 1, "fresh": None, "by": {}}, []),
        ({"path": "a", "lines": 1, "fresh": True, "rows": [{"n": 1.5}, {"n": 2}], "by": {"x": 1}}, []),
        ({"path": "a", "fresh": None, "by": {}}, ["$: missing key 'lines'"]),
        ({"path": "a", "lines": 1, "fresh": None, "by": {}, "new": 1}, ["$: undeclared key 'new'"]),
        ({"path": "a", "lines": True, "fresh": None, "by": {}}, ["$.lines: expected int, got bool"]),
        ({"path": "a", "lines": 1, "fresh": "no", "by": {}}, ["$.fresh: expected bool|null, got str"]),
        (
            {"path": "a", "lines": 1, "fresh": None, "by": {}, "rows": {}},
            ["$.rows: expected a list, got an object"],
        ),
        ({"path": "a", "lines": 1, "fresh": None, "by": {}, "rows": [{}]}, ["$.rows[0]: missing key 'n'"]),
        ({"path": "a", "lines": 1, "fresh": None, "by": {"x": "1"}}, ["$.by['x']: expected int, got str"]),
        ([], ["$: expected an object, got a list"]),
    ],
)
def test_the_checker_names_every_departure(value: Any, found: list[str]) -> None:
    assert list(mismatches(value, SHAPE)) == found


def test_a_malformed_shape_is_named() -> None:
    assert list(problems({"a": "string", "b": ["int", "str"], "c": [{"d": "int|nil"}]})) == [
        "$.a: unknown type string",
        "$.b: a list shape holds exactly one item shape",
        "$.c[].d: unknown type nil",
    ]


BIG = (
    "<?php\nnamespace Shop;\n\nfinal class Cart\n{\n"
    + "".join(
        f"    public const LIMIT_{i} = {i};\n\n    /** Item {i}. */\n    public function item{i}(int $n = {i}): int\n"
        f"    {{\n        return $n * {i};\n    }}\n\n"
        for i in range(60)
    )
    + "}\n"
)


VUE = """<script setup lang="ts">
import TaskDialog from './TaskDialog.vue'
const props = defineProps<{ taskId: number }>()
const emit = defineEmits(['close'])
</script>

<template><TaskDialog :id="props.taskId" @close="emit('close')" /></template>
"""


@pytest.mark.parametrize(
    "arguments",
    [
        {"files": ["src/Cart.php"]},
        {"files": ["src/Cart.php"], "brief": True},
        {"files": ["src/Cart.php", "src/missing.bin"], "exported": True},
        {"files": ["src/Cart.php"], "symbols": ["Cart::item3", "Cart::nothing"]},
        {"files": ["src"], "symbols": ["item4"]},
        {"files": ["web/Task.vue"], "brief": True},
    ],
)
def test_code_answers_in_its_declared_shape(tmp_path: Path, arguments: dict[str, Any]) -> None:
    write_files(tmp_path, {"src/Cart.php": BIG, "src/missing.bin": "\0\1binary", "web/Task.vue": VUE})
    provider = by_name("code")
    assert provider is not None
    result = provider.run(provider.params.model_validate(arguments), Context(root=tmp_path, budget=None))
    assert list(mismatches(result, shapes()["code"])) == []
