"""Where sofia cannot read a name: with no `exts`, one ripgrep walk over every file type counts
the name in the files of types no language record parses, beside the candidates it classifies,
and the answer says how many and where instead of "not found" (docs/refs.md, "Never blind")."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sofia.runtime import proc, rg
from tests.refs.conftest import entry, refs


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """`helper` defined and called in Python, `only_here` only in a Markdown file and a makefile
    fragment, a binary `.py` and a binary `.dat` that both hold `only_here`."""
    (tmp_path / "src").mkdir()
    (tmp_path / "assets").mkdir()
    (tmp_path / "src" / "a.py").write_text("def helper():\n    return 1\n")
    (tmp_path / "src" / "b.py").write_text("x = helper()\n")
    (tmp_path / "notes.md").write_text("only_here and only_here, helper\n")
    (tmp_path / "build.mk").write_text("only_here: all\n")
    (tmp_path / "src" / "c.py").write_bytes(b"only_here\0binary\n")
    (tmp_path / "assets" / "blob.dat").write_bytes(b"only_here\0binary\n")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    return tmp_path


def test_a_name_only_in_unparsed_types_is_counted_with_its_types(tree: Path) -> None:
    result = refs(tree, "only_here")
    item = entry(result, "only_here")
    assert item["totals"]["text"] == 0 and item["totals"]["unparsed"] == 3
    assert (
        "only_here: no definition in a parsed language; 3 occurrences in 2 files of types sofia "
        "does not parse (.md, .mk); use grep"
    ) in result["notes"]
    assert not any("not found" in note for note in result["notes"])


def test_binary_files_are_noted_only_among_the_types_refs_reads(tree: Path) -> None:
    """The walk sees the binary `.dat` too; a note names what refs would have read, `src/c.py`."""
    notes = refs(tree, "only_here")["notes"]
    binary = [note for note in notes if "binary file" in note]
    assert len(binary) == 1 and "src/c.py" in binary[0] and "blob.dat" not in binary[0]


def test_a_defined_name_keeps_its_totals_and_carries_no_note_on_other_types(tree: Path) -> None:
    result = refs(tree, "helper")
    item = entry(result, "helper")
    assert item["totals"]["text"] == 2 and item["totals"]["definitions"] == 1
    assert "unparsed" not in item["totals"]
    assert not any("does not parse" in note for note in result["notes"])


def test_candidates_are_the_files_of_parsed_types_only(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One count run over every type, none for the other types after it; what is classified
    is only what a language record reads."""
    commands: list[list[str]] = []
    start = proc.Background.__init__

    def spy(self: proc.Background, args: list[str], *rest: object, **options: object) -> None:
        commands.append(list(args))
        start(self, args, *rest, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(proc.Background, "__init__", spy)
    monkeypatch.setattr(proc, "run", _refusing(proc.run))
    item = entry(refs(tree, "only_here"), "only_here")
    counts = [c for c in commands if "--count-matches" in c]
    assert len(counts) == 1 and not any(a.startswith("--iglob") for a in counts[0])
    assert item["totals"]["unparsed"] == 3


def _refusing(run: object) -> object:
    def refuse(args: list[str], *rest: object, **options: object) -> object:
        assert "--count-matches" not in args, "a second count walk ran"
        return run(args, *rest, **options)  # type: ignore[operator]

    return refuse


def test_with_exts_other_types_are_not_walked_and_not_found_names_the_types(tree: Path) -> None:
    result = refs(tree, "only_here", exts=["py"])
    item = entry(result, "only_here")
    assert "unparsed" not in item["totals"]
    assert "only_here: not found in the .py files under ." in result["notes"]


def test_the_counts_equal_rgs_over_the_same_walk(tree: Path) -> None:
    """Parsed types' text total plus the other types' count is rg's own whole-word count."""
    args = [rg.executable(), "--no-config", "--count-matches", "--no-filename", "-F", "-w"]
    args += rg.walk_args(cwd=tree)
    done = subprocess.run([*args, "-e", "helper", "--", "."], cwd=tree, capture_output=True, check=True)
    total = sum(int(line) for line in done.stdout.split())
    item = entry(refs(tree, "helper"), "helper")
    assert item["totals"]["text"] + 1 == total  # notes.md's one `helper`
