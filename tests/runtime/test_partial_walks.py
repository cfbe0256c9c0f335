"""ripgrep's status 2 with results is a partial success in every walk and search: what it could
read is complete, what it could not is counted and named, and no error is ever without a reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from sofia.errors import ProviderError
from sofia.providers.code.inputs import MAX_FILES
from sofia.providers.composer import ls
from sofia.providers.contract import Context
from sofia.providers.vue import Params as VueParams
from sofia.providers.vue import run as vue_routes
from sofia.runtime import proc, rg
from tests.code.conftest import code
from tests.composer.conftest import context, write_package
from tests.grep.conftest import grep
from tests.unreadable import unreadable_directory


def tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return root


def skip_reason(listing: rg.Listing) -> str:
    (entry,) = listing.skipped
    assert entry.path == "src/locked"
    assert entry.reason.startswith("unreadable: ") and entry.reason != "unreadable: "
    return entry.reason


def test_a_walk_lists_the_rest_and_names_what_it_could_not_read(tmp_path: Path) -> None:
    tree(tmp_path, {"src/a.php": "<?php\n", "src/z/b.php": "<?php\n"})
    with unreadable_directory(tmp_path / "src" / "locked"):
        listing = rg.walk(["."], cwd=tmp_path)
        assert listing.files == ["src/a.php", "src/z/b.php"]
        skip_reason(listing)
        alone = rg.walk(["src/locked"], cwd=tmp_path)
        assert alone.files == [] and skip_reason(alone)


def test_code_over_a_tree_with_an_unreadable_directory_works_and_notes_it(tmp_path: Path) -> None:
    tree(tmp_path, {"src/a.py": "def a():\n    return 1\n", "src/z/b.py": "def b():\n    return 2\n"})
    with unreadable_directory(tmp_path / "src" / "locked"):
        for given in (".", "**/*.py", "src"):
            result = code(tmp_path, given)
            assert [doc["path"] for doc in result["files"]] == ["src/a.py", "src/z/b.py"]
            (note,) = [n for n in result["notes"] if "could not be read" in n]
            assert note.startswith(f"1 entry could not be read and were left out of {given}: src/locked (")


def test_code_over_a_large_tree_still_gives_the_file_limit_error(tmp_path: Path) -> None:
    tree(tmp_path, {f"pkg/m{i}.py": "x = 1\n" for i in range(MAX_FILES + 5)})
    with unreadable_directory(tmp_path / "src" / "locked"), pytest.raises(ProviderError) as error:
        code(tmp_path, ".")
    assert error.value.message == f". matched {MAX_FILES + 5:,} files; the limit is {MAX_FILES} per call"


def test_code_on_only_an_unreadable_directory_says_so(tmp_path: Path) -> None:
    with unreadable_directory(tmp_path / "src" / "locked"), pytest.raises(ProviderError) as error:
        code(tmp_path, "src/locked")
    assert error.value.message == "no readable supported files under src/locked"
    assert "src/locked (unreadable: " in error.value.hint


def test_grep_lists_the_unreadable_directory_under_skipped(tmp_path: Path) -> None:
    tree(tmp_path, {"src/a.php": "NEEDLE\n"})
    with unreadable_directory(tmp_path / "src" / "locked"):
        result = grep(tmp_path, "NEEDLE")
    assert result["patterns"][0]["total"] == 1
    (row,) = result["skipped"]
    assert row["path"] == "src/locked" and row["reason"].startswith("unreadable: ")


def test_vue_finds_the_router_and_notes_what_it_could_not_search(tmp_path: Path) -> None:
    tree(tmp_path, {"src/router/index.ts": "export default [{ path: '/', name: 'home' }]\n"})
    with unreadable_directory(tmp_path / "src" / "locked"):
        result = vue_routes(VueParams(), Context(root=tmp_path))
    assert [n for n in result["notes"] if n.startswith("1 entry could not be read and were not searched")]


def test_composer_reports_an_unreadable_directory_as_an_error_row(tmp_path: Path) -> None:
    write_package(tmp_path / "app", {"name": "acme/app"})
    with unreadable_directory(tmp_path / "lib"):
        result = ls.run(ls.Params(), context(tmp_path))
    assert [r["name"] for r in result["packages"]] == ["acme/app"]
    (row,) = result["errors"]
    assert row["dir"] == "lib" and row["error"].startswith("not searched: unreadable: ")


@pytest.mark.parametrize(
    ("returncode", "stderr", "reason"),
    [
        (2, b"", "ripgrep exited with status 2 without saying why"),
        (2, b"\n  \n", "ripgrep exited with status 2 without saying why"),
        (-9, b"", "ripgrep was killed by signal 9"),
        (2, b"rg: error parsing glob\n", "error parsing glob"),
    ],
)
def test_a_failed_run_always_says_why(returncode: int, stderr: bytes, reason: str) -> None:
    done = proc.Completed(["rg"], returncode, b"", stderr)
    with pytest.raises(ProviderError) as error:
        rg.outcome(done, "listing .", results=False)
    assert error.value.message == f"ripgrep failed listing .: {reason}"


def test_status_two_with_results_but_no_named_entry_is_partial() -> None:
    done = proc.Completed(["rg"], 2, b"a.php\0", b"")
    assert rg.outcome(done, "listing .", results=True) == [
        rg.Skipped(rg.UNNAMED, "unreadable: ripgrep exited with status 2 without saying why")
    ]
