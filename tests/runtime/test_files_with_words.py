"""The files holding a word, as ripgrep reports them while it walks (`code DIR NAME` parses the
first while the rest are searched) and as one sorted list: the same files either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from sofia.runtime import rg


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for index in range(300):
        folder = tmp_path / f"d{index % 7}"
        folder.mkdir(exist_ok=True)
        word = "helper" if index % 3 == 0 else "helpers"
        (folder / f"m{index:03}.py").write_text(f"x = {word}()\n")
    (tmp_path / "notes.md").write_text("helper\n")
    return tmp_path


def test_reported_batches_hold_the_same_files_as_the_sorted_list(tree: Path) -> None:
    batches = list(rg.files_with_words_as_found(["helper"], ["."], cwd=tree, globs=["*.py"]))
    reported = [path for batch in batches for path in batch]
    listed = rg.files_with_words(["helper"], ["."], cwd=tree, globs=["*.py"])
    assert len(listed) == 100 and sorted(reported) == sorted(listed)
    assert all(not path.startswith("./") for path in reported)
    assert listed == sorted(listed, key=lambda p: p.encode())


def test_overlapping_paths_list_a_file_once(tree: Path) -> None:
    listed = rg.files_with_words(["helper"], ["d0", "d0/m000.py", "."], cwd=tree, globs=["*.py"])
    assert listed.count("d0/m000.py") == 1


def test_nothing_to_look_for_reports_nothing(tree: Path) -> None:
    assert list(rg.files_with_words_as_found([], ["."], cwd=tree)) == []
    assert rg.files_with_words(["helper"], [], cwd=tree) == []


def test_one_file_named_is_listed_by_its_path(tree: Path) -> None:
    """ripgrep leaves the path out of a count of one file unless told to print it."""
    assert rg.files_with_words(["helper"], ["d0/m000.py"], cwd=tree) == ["d0/m000.py"]
