"""A name in very many files: with uses capped, `refs` classifies a deterministic sample spread
over the tree (the file named after the name first), keeps ripgrep's exact text total, counts
the rest as unclassified and says so; asked for every use, it classifies every file."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.refs import bound
from sofia.runtime import rg
from tests.refs.conftest import entry, refs, rows

FILES = 120
BUCKETS = ("exact", "name", "definitions", "in_comments", "in_strings", "locals", "elsewhere", "other")


@pytest.fixture
def common(tmp_path: Path) -> Path:
    """`helper` defined once (helper.py) and used, mentioned and shadowed in every other file."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "helper.py").write_text("def helper(x):\n    return x\n")
    for index in range(FILES):
        (tmp_path / "pkg" / f"mod{index:03}.py").write_text(
            "from pkg.helper import helper\n\n\n"
            f"def run{index}():\n"
            "    # helper does the work\n"
            f"    return helper({index}) + len('helper')\n\n\n"
            "def shadow(helper):\n"
            "    return helper\n"
        )
    return tmp_path


def rg_count(root: Path, name: str) -> int:
    args = [rg.executable(), "--no-config", "--count-matches", "--no-filename", "-F", "-w", "--hidden"]
    done = subprocess.run([*args, "-e", name, "--", "."], cwd=root, capture_output=True, check=True)
    return sum(int(n) for n in done.stdout.split())


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> int:
    """A budget of about a tenth of the candidates' source, and a sample that stays one whatever
    it reads as (the sampling itself is under test; `widening` below sets the real share back)."""
    limit = 2_000
    monkeypatch.setattr(bound, "FLOOR", limit)
    monkeypatch.setattr(bound, "MIN_SAMPLE", limit)
    monkeypatch.setattr(bound, "SHARE", 0.0)
    monkeypatch.setattr(bound, "WIDEN_SHARE", 2.0)
    return limit


@pytest.fixture
def widening(small_budget: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """The small budget with the real rule for when a sample is followed by every candidate."""
    monkeypatch.setattr(bound, "WIDEN_SHARE", 0.5)
    return small_budget


def sampled(result: dict[str, Any]) -> str:
    notes: list[str] = [n for n in result["notes"] if n.startswith("classified a sample of ")]
    (note,) = notes
    return note


@pytest.mark.parametrize("symbols", [["helper"], ["helper", "shadow"]])
def test_a_capped_call_classifies_a_sample_and_keeps_the_text_total(
    common: Path, small_budget: int, symbols: list[str]
) -> None:
    result = refs(common, *symbols, max_per_symbol=20)
    found = entry(result, "helper")
    totals = found["totals"]
    assert totals["text"] == rg_count(common, "helper")
    assert 0 < totals["unclassified"] < totals["text"]
    assert sum(totals.get(key, 0) for key in BUCKETS) + totals["unclassified"] == totals["text"]
    note = sampled(result)
    assert note.startswith("classified a sample of ") and f" of {FILES + 1:,} candidate files (" in note
    assert note.endswith("or pass max_per_symbol=0 to classify every file")
    # The file named after the name is always in the sample: the definition is found.
    assert [d["file"] for d in found["definitions"]] == ["pkg/helper.py"]
    assert result == refs(common, *symbols, max_per_symbol=20)  # the same sample every time


def test_the_uses_of_the_sample_are_those_of_the_whole_answer(common: Path, small_budget: int) -> None:
    whole = entry(refs(common, "helper", max_per_symbol=0), "helper")
    part = entry(refs(common, "helper", max_per_symbol=1000), "helper")
    for match in ("exact", "name"):
        assert {tuple(r.items()) for r in rows(part, match)} <= {tuple(r.items()) for r in rows(whole, match)}
    files = {r["file"] for r in rows(part, "exact")}
    assert len(files) > 2 and files != {r["file"] for r in rows(whole, "exact")}
    spread = sorted(int(f[len("pkg/mod") : -3]) for f in files if f.startswith("pkg/mod"))
    assert spread[-1] - spread[0] > FILES // 2  # spread over the tree, not the first files in path order


def test_every_use_asked_for_classifies_every_file(common: Path, small_budget: int) -> None:
    result = refs(common, "helper", max_per_symbol=0)
    totals = entry(result, "helper")["totals"]
    assert "unclassified" not in totals
    assert not [n for n in result["notes"] if n.startswith("classified a sample")]
    assert totals["exact"] == 2 * FILES and totals["locals"] == 2 * FILES  # an import and a call each


def test_candidates_within_the_budget_are_all_classified(common: Path) -> None:
    result = refs(common, "helper", max_per_symbol=20)
    assert "unclassified" not in entry(result, "helper")["totals"]
    assert not [n for n in result["notes"] if n.startswith("classified a sample")]


def test_the_budget_follows_what_ripgrep_read() -> None:
    assert bound.budget(10 << 30, capped=False) is None
    assert bound.budget(0, capped=True) == bound.MIN_SAMPLE
    assert (
        bound.MIN_SAMPLE
        < bound.budget(400 << 20, capped=True)
        == int(bound.SHARE * (400 << 20))
        < bound.FLOOR
    )
    assert bound.budget(10 << 30, capped=True) == int(bound.SHARE * (10 << 30)) > bound.FLOOR


def test_candidates_within_the_floor_are_whole_whatever_the_budget(tmp_path: Path) -> None:
    files = [f"m{index}.py".encode() for index in range(3)]
    for raw in files:
        (tmp_path / raw.decode()).write_text("x = 1\n" * 100)
    whole = bound.select(files, tmp_path, 10, ["x"])
    assert (whole.chosen, whole.left_out) == (files, 0)
    sample = bound.select(files, tmp_path, 10, ["x"], known={raw: bound.FLOOR for raw in files})
    assert len(sample.chosen) == 1 and sample.left_out == 2


@pytest.mark.parametrize(
    ("file", "definition"),
    [
        ("util.py", "def helper(x):\n    return x\n"),
        ("slab.c", "void\nhelper(const void *p)\n{\n}\n"),
        ("slab_common.c", "void helper(const void *object)\n{\n}\n"),
        ("macros.h", "#define helper(p) free(p)\n"),
    ],
)
def test_a_sample_holds_the_file_defining_the_name_whatever_its_name(
    tmp_path: Path, small_budget: int, file: str, definition: str
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / file).write_text(definition)
    for index in range(FILES):
        (tmp_path / "pkg" / f"mod{index:03}.py").write_text(
            f"def run{index}():\n    return helper({index})\n" * 3
        )
    found = entry(refs(tmp_path, "helper", max_per_symbol=20), "helper")
    assert found["totals"]["unclassified"] > 0  # a sample
    assert [d["file"] for d in found["definitions"]] == [f"pkg/{file}"]


def test_a_sample_without_the_definition_does_not_say_it_is_nowhere(
    tmp_path: Path, small_budget: int
) -> None:
    (tmp_path / "pkg").mkdir()
    for index in range(FILES):
        (tmp_path / "pkg" / f"mod{index:03}.py").write_text(
            f"def run{index}():\n    return helper({index})\n" * 3
        )
    result = refs(tmp_path, "helper", max_per_symbol=20)
    (note,) = [n for n in result["notes"] if n.startswith("helper: no definition")]
    assert "in the files classified" in note and "under ." not in note
    assert "max_per_symbol=0" in note


def test_the_search_started_while_counting_finds_what_one_search_after_it_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bound, "BATCH", 7)
    files = [f"m{index:02}.c".encode() for index in range(30)]
    for index, raw in enumerate(files):
        body = "int\nhelper(int x)\n{\n}\n" if index % 9 == 4 else "helper(1);\n"
        (tmp_path / raw.decode()).write_text(body)
    searching = bound.Defining(tmp_path, ["helper"], 20.0)
    for start in range(0, 24, 5):  # reported in batches, the last ones never
        searching.add(files[start : start + 5])
    expected = {files[4], files[13], files[22]}
    assert bound.defining_files(files, tmp_path, ["helper"], 20.0) == expected
    assert searching.files(files) == expected
    assert searching.searched  # some were searched while reported


def called_everywhere(root: Path) -> Path:
    """`helper` defined once and called in every file, never a local: a symbol's uses."""
    (root / "pkg").mkdir()
    (root / "pkg" / "util.py").write_text("def helper(x):\n    return x\n")
    for index in range(FILES):
        (root / "pkg" / f"mod{index:03}.py").write_text(
            f"def run{index}():\n    return helper({index})\n" * 3
        )
    return root


def test_a_sample_of_a_symbols_uses_is_followed_by_every_file(tmp_path: Path, widening: int) -> None:
    root = called_everywhere(tmp_path)
    result = refs(root, "helper", max_per_symbol=20)
    totals = entry(result, "helper")["totals"]
    assert "unclassified" not in totals
    assert not [n for n in result["notes"] if n.startswith("classified a sample")]
    assert totals == entry(refs(root, "helper", max_per_symbol=0), "helper")["totals"]
    assert totals["uses"] == 3 * FILES and totals["definitions"] == 1


def test_a_sample_of_a_name_mostly_local_stays_a_sample(tmp_path: Path, widening: int) -> None:
    (tmp_path / "pkg").mkdir()
    for index in range(FILES):
        (tmp_path / "pkg" / f"mod{index:03}.py").write_text(
            f"def run{index}(helper):\n    helper = helper + {index}\n    return helper(helper)\n"
        )
    (tmp_path / "pkg" / "calls.py").write_text("from pkg.mod000 import helper\nhelper()\n")
    result = refs(tmp_path, "helper", max_per_symbol=20)
    totals = entry(result, "helper")["totals"]
    assert totals["unclassified"] > 0 and totals["locals"] > totals.get("uses", 0)
    assert sampled(result).endswith("or pass max_per_symbol=0 to classify every file")


def test_what_widens_a_sample_is_the_share_of_uses_and_definitions(tmp_path: Path) -> None:
    from sofia.providers.refs.model import Parsed
    from sofia.syntax.uses.model import FileUses, Occurrence

    def parsed(*roles: str) -> Parsed:
        occurrences = [Occurrence(start=i, line=1, col=i + 1, role=role) for i, role in enumerate(roles)]
        uses = FileUses(lang="python", module=Path("m"), occurrences={"helper": occurrences})
        return Parsed(rel="m.py", lang="python", uses=uses, lines=1, texts={}, source=b"")

    assert bound.widens([parsed("use", "local"), parsed("definition")])
    assert not bound.widens([parsed("use", "local", "local")])
    assert not bound.widens([parsed("comment", "string")])  # nothing of code: no symbol to total


def test_a_sample_counts_the_name_in_unparsed_types_as_every_file_does(
    tmp_path: Path, small_budget: int
) -> None:
    """The count in file types no language parses comes from the same walk as the candidates',
    so a sample gives what classifying every file gives."""
    (tmp_path / "pkg").mkdir()
    for index in range(FILES):
        (tmp_path / "pkg" / f"mod{index:03}.py").write_text(
            f"def run{index}():\n    return helper({index})\n" * 3
        )
    (tmp_path / "notes.md").write_text("helper and helper again\n")
    (tmp_path / "build.mk").write_text("helper: all\n")
    sample = entry(refs(tmp_path, "helper", max_per_symbol=20), "helper")
    whole = entry(refs(tmp_path, "helper", max_per_symbol=0), "helper")
    assert sample["totals"]["unclassified"] > 0 and "unclassified" not in whole["totals"]
    assert sample["totals"]["unparsed"] == whole["totals"]["unparsed"] == 3
