"""Caps, the output budget, kind filters and the deadline: totals always exact, every cut counted
in `omitted` and named in a note that says how to narrow."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sofia.output.budget import cost
from sofia.providers.contract import Context
from tests.helpers import count_parses
from tests.refs.conftest import FIXTURES, accounted, entry, forget_memo, refs, rows, uses


def many_calls(root: Path, files: int = 30, calls: int = 12) -> Path:
    (root / "lib.py").write_text("def target(x):\n    return x\n")
    for index in range(files):
        body = "from lib import target\n\n\ndef f():\n" + "".join(f"    target({i})\n" for i in range(calls))
        (root / f"m{index:03}.py").write_text(body)
    return root


def shown(item: dict[str, Any]) -> int:
    return sum(len(rows(item, match)) for match in ("exact", "name"))


def test_cap_keeps_totals_exact_and_says_how_to_see_more(tmp_path: Path) -> None:
    result = refs(many_calls(tmp_path), "target", max_per_symbol=50)
    item = entry(result, "target")
    assert item["totals"]["uses"] == 30 * 13 and item["totals"]["text"] == 1 + 30 * 13
    assert shown(item) == 50 and result["omitted"] == {"symbols[0].uses": 340}
    assert result["notes"] == [
        "symbols[0].uses: showing 50 of 390 uses (max_per_symbol=50); target: raise max_per_symbol or "
        "narrow with root, exts, kinds or a qualified name"
    ]


def test_budget_cut_fits_and_counts_the_rest(tmp_path: Path) -> None:
    result = refs(many_calls(tmp_path), "target", budget=2_000, max_per_symbol=0)
    item = entry(result, "target")
    assert cost(result) <= 2_000
    assert 0 < shown(item) < 390 and result["omitted"] == {"symbols[0].uses": 390 - shown(item)}
    assert result["notes"] == [
        f"symbols[0].uses: showing {shown(item)} of 390 uses (budget 2000 tok); target: "
        "narrow with root, exts, kinds or a qualified name"
    ]


def test_uses_are_grouped_under_their_file_in_path_order(tmp_path: Path) -> None:
    result = refs(many_calls(tmp_path, files=2), "target")
    exact = entry(result, "target")["exact"]
    assert list(exact) == ["m000.py", "m001.py"]
    assert [row["line"] for row in exact["m000.py"]] == [1, *range(5, 17)]
    assert set(exact["m000.py"][0]) == {"line", "col", "kind", "in"}


def test_kinds_filter_shows_only_those_kinds_and_keeps_totals() -> None:
    item = entry(refs(FIXTURES / "ts", "Api", kinds=["new"]), "Api")
    assert {row[2] for row in uses(item)} == {"new"}
    assert item["totals"]["uses"] == 8 and item["kinds"]["type"] == 3


def test_definitions_can_be_left_out() -> None:
    item = entry(
        refs(FIXTURES / "php", "UserController::destroy", definitions=False), "UserController::destroy"
    )
    assert "definitions" not in item and item["totals"]["definitions"] == 1


@dataclass(frozen=True)
class RunningOut(Context):
    """A context whose deadline comes near after a number of checks, so the cut is reproducible."""

    checks_left: list[int] | None = None

    def time_left(self) -> float | None:
        assert self.checks_left is not None
        self.checks_left[0] -= 1
        return 100.0 if self.checks_left[0] > 0 else 0.5


def test_deadline_keeps_text_totals_exact_and_notes_what_was_classified(tmp_path: Path) -> None:
    root = many_calls(tmp_path, files=10, calls=3)
    ctx = RunningOut(root=root, budget=None, deadline=time.monotonic() + 100, checks_left=[6])
    result = refs(root, "target", ctx=ctx)
    item = entry(result, "target")
    assert item["totals"]["text"] == 1 + 10 * 4
    assert 0 < item["totals"]["unclassified"] < item["totals"]["text"]
    assert accounted(item) == item["totals"]["text"]
    assert any("before the deadline" in n and "narrow with root or exts" in n for n in result["notes"])


def test_classifying_while_counting_gives_the_same_result(tmp_path: Path) -> None:
    root = many_calls(tmp_path, files=40, calls=2)
    (root / "m007.py").write_text("# target mentioned\ntarget = 3\n")
    streamed = entry(refs(root, "target", max_per_symbol=0), "target")  # one name: classified as counted
    forget_memo()
    counted_first = entry(refs(root, "target", "elsewhere_name", max_per_symbol=0), "target")
    assert streamed == counted_first
    assert streamed["totals"]["uses"] == 39 * 3 and streamed["totals"]["definitions"] == 2


def test_the_symbol_tree_is_built_only_where_a_use_is_shown_or_a_definition_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = many_calls(tmp_path, files=30, calls=2)
    built = count_parses(monkeypatch)
    item = entry(refs(root, "target", max_per_symbol=2), "target")
    assert item["totals"]["uses"] == 30 * 3 and shown(item) == 2
    assert [(r["line"], r["in"]) for r in rows(item, "exact")] == [(1, ""), (5, "f")]  # the import, a call
    assert item["definitions"][0]["qname"] == "target"
    assert len(built) == 2  # m000.py (the use shown) and lib.py (the definition)
