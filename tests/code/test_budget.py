"""The output budget (docs/code.md, "Output budget"): whole documents in order, exact counts, line-boundary cuts."""

from __future__ import annotations

from pathlib import Path

from sofia.output.budget import cost
from sofia.output.tokens import estimate
from tests.code.conftest import code, slice_text


def service(index: int, methods: int = 8) -> str:
    body = "".join(f'\tlog.Printf("step %d", {i})\n' for i in range(30))
    funcs = "".join(
        f"// Handle{m} handles request kind {m}.\nfunc (s *Service{index}) Handle{m}(ctx context.Context, id int) error {{\n{body}\treturn nil\n}}\n\n"
        for m in range(methods)
    )
    return f'package svc\n\nimport (\n\t"context"\n\t"log"\n)\n\n// Service{index} serves.\ntype Service{index} struct{{}}\n\n{funcs}'


def test_forty_files_over_budget_are_omitted_in_order_with_a_note(tmp_path: Path) -> None:
    for index in range(40):
        (tmp_path / "svc").mkdir(exist_ok=True)
        (tmp_path / "svc" / f"s{index:02}.go").write_text(service(index))
    first = code(tmp_path, "svc", budget=4000)
    assert first == code(tmp_path, "svc", budget=4000)
    shown = [d["path"] for d in first["files"]]
    everything = [f"svc/s{i:02}.go" for i in range(40)]
    assert shown == everything[: len(shown)]
    assert 0 < len(shown) < 40
    assert first["omitted"] == {"files": 40 - len(shown)}
    rest = ", ".join(everything[len(shown) :])
    assert first["notes"] == [
        f"files: showing {len(shown)} of 40 files (budget 4000 tok); "
        f"not shown: {rest}; request them separately, narrow the path or use brief=true"
    ]
    assert cost(first) <= 4000
    assert first["stats"]["raw_tok"] > 40 * 1500


def test_a_huge_raw_file_is_cut_at_a_line_boundary(tmp_path: Path) -> None:
    line = "var generated = 1 // padding to make a large file\n"
    content = "package gen\n" + line * (5 * 1024 * 1024 // len(line))
    (tmp_path / "gen.go").write_text(content)
    result = code(tmp_path, "gen.go", budget=20_000)
    doc = result["files"][0]
    assert doc["reason"] == "too_large"
    assert content.startswith(doc["content"]) and doc["content"].endswith("\n")
    kept = doc["content"].count("\n")
    total = content.count("\n")
    assert result["notes"] == [
        "1 file not followed (not summarised): gen.go shown whole: too large or too slow to parse",
        f"gen.go: content cut at line {kept} of {total} (budget 20000 tok); "
        "use symbols=[…] or grep for the part you need",
    ]
    assert "omitted" not in result  # a text made shorter, no list left out
    assert 19_500 < cost(result) <= 20_000


def test_a_summary_over_budget_goes_brief_then_loses_rows(tmp_path: Path, no_passthrough: None) -> None:
    (tmp_path / "big.go").write_text(service(1, methods=200))
    result = code(tmp_path, "big.go", budget=1500)
    doc = result["files"][0]
    assert doc["mode"] == "summary"
    assert "imports" not in doc
    kept = len(doc["functions"])
    assert 0 < kept < 200
    assert doc["functions"][0]["name"] == "Handle0"
    assert result["notes"] == [
        "big.go: brief form (budget 1500 tok); use symbols=[…] or a narrower call",
        f"files[0].functions: showing {kept} of 200 rows (budget 1500 tok); big.go: use symbols=[…] or a narrower call",
    ]
    assert result["omitted"] == {"files[0].functions": 200 - kept}
    assert cost(result) <= 1500


def test_slices_over_budget_cut_the_crossing_one_and_name_the_rest(
    tmp_path: Path, no_passthrough: None
) -> None:
    (tmp_path / "big.go").write_text(service(1, methods=40))
    wanted = [f"Handle{m}" for m in range(40)]
    result = code(tmp_path, "big.go", symbols=wanted, budget=2000)
    pieces = result["files"][0]["slices"]
    assert [p["symbol"] for p in pieces] == [f"Service1.{w}" for w in wanted[: len(pieces)]]
    last = pieces[-1]
    assert last["end_line"] - last["line"] + 1 == last["text"].count("\n")
    assert any(n.startswith(f"Service1.Handle{len(pieces) - 1}: cut at line") for n in result["notes"])
    later = ", ".join(f"Service1.{w}" for w in wanted[len(pieces) :])
    assert result["notes"][-1] == (
        f"files[0].slices: showing {len(pieces)} of 40 slices (budget 2000 tok); "
        f"not shown: {later}; request them separately"
    )
    assert result["omitted"] == {"files[0].slices": 40 - len(pieces)}
    assert cost(result) <= 2000
    assert estimate(slice_text(result)) <= 2000


def test_unlimited_budget_keeps_everything(tmp_path: Path) -> None:
    for index in range(5):
        (tmp_path / f"s{index}.go").write_text(service(index))
    result = code(tmp_path, ".", budget=None)
    assert len(result["files"]) == 5 and "omitted" not in result
