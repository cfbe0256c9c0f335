"""Python summaries: against `ast` on the standard library, and every construct a Python summary
lists (docs/code.md, "What a summary holds", and `summary_python`)."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.code import summary_python
from sofia.providers.code.model import SourceFile, SummaryOptions
from sofia.syntax import parse
from tests.code.conftest import FIXTURES

PY = FIXTURES / "python"
STDLIB = Path(sysconfig.get_paths()["stdlib"])


def summarise(path: Path, root: Path, **options: bool) -> dict[str, Any]:
    source = path.read_bytes()
    file = SourceFile(
        path, path.relative_to(root).as_posix(), root, source, source.decode("utf-8", "replace"), "python"
    )
    return summary_python.summarise(parse(source, "python"), file, SummaryOptions(**options)).fields


def widgets(**options: bool) -> dict[str, Any]:
    return summarise(PY / "shop" / "catalog" / "widgets.py", PY, **options)


def function(fields: dict[str, Any], owner: str, name: str, index: int = 0) -> dict[str, Any]:
    return [r for r in fields["functions"] if r["owner"] == owner and r["name"] == name][index]


def ast_rows(source: bytes) -> tuple[list[tuple[str, int, int]], list[tuple[str, str, int, int]]]:
    """Classes (outside functions) and the module functions and methods `ast` sees."""
    classes: list[tuple[str, int, int]] = []
    functions: list[tuple[str, str, int, int]] = []

    def visit(node: ast.AST, owner: str, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                qname = f"{owner}.{child.name}" if owner else child.name
                if not in_function:
                    classes.append((qname, child.lineno, child.end_lineno or 0))
                visit(child, qname, in_function)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if not in_function:
                    functions.append((owner, child.name, child.lineno, child.end_lineno or 0))
                visit(child, owner, True)
            else:
                visit(child, owner, in_function)

    visit(ast.parse(source), "", False)
    return classes, functions


STDLIB_SAMPLE = sorted(STDLIB.glob("*.py"))[::4][:50]


@pytest.mark.parametrize("path", STDLIB_SAMPLE, ids=lambda p: p.name)
def test_classes_and_functions_equal_ast(path: Path) -> None:
    fields = summarise(path, STDLIB)
    classes, functions = ast_rows(path.read_bytes())
    assert [(t["name"], t["line"], t["end_line"]) for t in fields["types"]] == classes
    assert [(f["owner"], f["name"], f["line"], f["end_line"]) for f in fields["functions"]] == functions


def test_module_path_imports_and_constants() -> None:
    fields = widgets()
    assert fields["namespace"] == "shop.catalog.widgets"
    assert fields["imports"] == [
        "__future__.annotations",
        "logging",
        "os.path as osp",
        "collections.abc.Iterable",
        "dataclasses.dataclass",
        "dataclasses.field",
        "typing.TYPE_CHECKING",
        "typing.ClassVar",
        "typing.overload",
        ".pricing",
        ".pricing.Currency as Cur",
        ".pricing.round_price",
        "orjson as json_lib",
        "json as json_lib",
        "..orders.models.Order",
    ]
    assert [(c["kind"], c["name"], c["type"], c["value"]) for c in fields["constants"]] == [
        ("var", "__all__", "", ""),
        ("var", "log", "", ""),
        ("const", "DEFAULT_CURRENCY", "", '"EUR"'),
        ("const", "MAX_ITEMS", "int", "500"),
        ("var", "_cache", "dict[str, float]", ""),
    ]


def test_classes_with_multiline_bases_nesting_and_decorators() -> None:
    types = {t["name"]: t for t in widgets()["types"]}
    assert list(types) == ["Base", "Mixin", "Widget", "Widget.Meta", "Gadget"]
    assert types["Widget"]["extends"] == "Base, Mixin, metaclass=type"
    assert (types["Widget"]["line"], types["Widget"]["end_line"]) == (43, 96)
    assert types["Gadget"]["attrs"] == "dataclass(frozen=True)"


def test_signatures_mods_and_attrs() -> None:
    fields = widgets()
    fetch = function(fields, "", "fetch")
    assert fetch["sig"] == (
        "(url: str, timeout: float = 10.0, *, retries: int = 3, headers: dict[str, str] | None = None) -> bytes"
    )
    assert fetch["mods"] == "async"
    assert (fetch["line"], fetch["end_line"]) == (109, 118)
    label = function(fields, "Widget", "label")
    assert (label["mods"], label["attrs"], label["sig"]) == ("property", "", "(self) -> str")
    setter = function(fields, "Widget", "label", 1)
    assert (setter["mods"], setter["attrs"]) == ("", "label.setter")
    assert function(fields, "Widget", "parse")["mods"] == "staticmethod"
    assert function(fields, "Widget", "from_order")["mods"] == "classmethod"
    assert function(fields, "", "_private_helper")["sig"] == '(path: str = osp.join("a", "very", "…) -> str'
    assert function(fields, "Widget", "_reprice")["vis"] == "private"
    assert function(fields, "Widget", "__repr__")["vis"] == "public"


def test_nested_functions_and_docstring_defs_are_not_listed() -> None:
    names = [f["name"] for f in widgets()["functions"]]
    assert "clamp" not in names
    assert "fake" not in names


def test_overloads_one_row_each() -> None:
    rows = [f for f in widgets()["functions"] if f["name"] == "total_price"]
    assert [(r["sig"], r["attrs"]) for r in rows] == [
        ("(items: Widget) -> float", "overload"),
        ("(items: Iterable[Widget]) -> float", "overload"),
        ("(items, currency=DEFAULT_CURRENCY)", ""),
    ]


def test_properties_from_class_body_dataclass_fields_and_init() -> None:
    rows = [(p["owner"], p["name"], p["type"], p["value"], p["vis"]) for p in widgets()["properties"]]
    assert rows == [
        ("Base", "name", "", "", "public"),
        ("Widget", "kind", "ClassVar[str]", '"widget"', "public"),
        ("Widget", "shelf", "", "3", "public"),
        ("Widget", "price", "", "", "public"),
        ("Widget", "_tags", "", "", "private"),
        ("Widget", "discount", "float", "0.0", "public"),
        ("Widget.Meta", "ordering", "", "", "public"),
        ("Gadget", "serial", "str", "", "public"),
        ("Gadget", "weight", "float", "1.5", "public"),
        ("Gadget", "parts", "list[str]", "", "public"),
        ("Gadget", "_secret", "str", '"x"', "private"),
    ]


def test_dunder_all_decides_what_is_exported() -> None:
    fields = widgets(exported=True)
    assert [t["name"] for t in fields["types"]] == ["Widget", "Widget.Meta", "Gadget"]
    assert [(f["owner"], f["name"]) for f in fields["functions"]] == [
        ("Widget", "__init__"),
        ("Widget", "label"),
        ("Widget", "label"),
        ("Widget", "parse"),
        ("Widget", "from_order"),
        ("Widget", "__repr__"),
        ("Widget.Meta", "sort_key"),
        ("", "fetch"),
        ("", "total_price"),
        ("", "total_price"),
        ("", "total_price"),
        ("", "_legacy_total"),
    ]
    assert [c["name"] for c in fields["constants"]] == ["DEFAULT_CURRENCY"]
    assert "_secret" not in [p["name"] for p in fields["properties"]]


def test_without_dunder_all_underscore_names_are_private(tmp_path: Path) -> None:
    module = tmp_path / "svc.py"
    module.write_text(
        "class _Hidden:\n    pass\n\n\nclass Shown:\n    def __init__(self):\n        self._x = 1\n"
        "\n    def _helper(self):\n        pass\n\n\ndef run():\n    pass\n\n\ndef _internal():\n    pass\n"
    )
    fields = summarise(module, tmp_path, exported=True)
    assert [t["name"] for t in fields["types"]] == ["Shown"]
    assert [(f["owner"], f["name"]) for f in fields["functions"]] == [("Shown", "__init__"), ("", "run")]
    assert fields["properties"] == []
    assert fields["namespace"] == "svc"
