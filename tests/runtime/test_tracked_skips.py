"""A directory holding files git tracks is searched whatever its name; the default name skips
(`vendor`, `build`, `target`, `node_modules`, `dist`, …) apply only where git tracks nothing, and
whatever a call skips by default is counted in a note saying how to include it — in grep, refs,
code and vue_routes alike. The reference is ripgrep itself with the repository's ignore files."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from sofia.runtime import rg, skips
from tests.code.conftest import code
from tests.grep.conftest import grep, locations
from tests.helpers import Repo, call

NEEDLE = "EXPORT_SYMBOL_GPL"
TRACKED = {
    "drivers/target/core.c": f"int core(void) {{ return 0; }}\n{NEEDLE}(core);\n",
    "drivers/nvme/target/admin.c": f"{NEEDLE}(admin);\n",
    "include/target/target_core.h": f"/* {NEEDLE} */\n",
    "tools/build/feature.c": f"{NEEDLE}(feature);\n",
    "vendor/github.com/acme/lib/lib.go": f"package lib\n\n// {NEEDLE}\nfunc Lib() {{}}\n",
    "build/gen/vendor/deep.c": f"{NEEDLE}(deep);\n",
    "we[i]rd*/vendor/odd.c": f"{NEEDLE}(odd);\n",
    "kernel/fork.c": f"{NEEDLE}(fork);\n",
    "web/src/router/index.ts": "export const routes = [{ path: '/', component: Home }]\n",
    ".gitignore": "web/dist/\n*.o\n",
}
UNTRACKED = {
    "node_modules/left-pad/index.js": f"// {NEEDLE}\n",
    "dist/bundle.js": f"// {NEEDLE}\n",
    "web/node_modules/pkg/router/index.ts": "export const routes = []\n",
    "web/dist/app.js": f"// {NEEDLE} (ignored by .gitignore)\n",
    "drivers/target/new.c": f"{NEEDLE}(new_untracked_file_in_a_tracked_directory);\n",
    "drivers/target/core.o": f"{NEEDLE}\n",
}


@pytest.fixture
def tree(repo: Repo) -> Path:
    for rel, text in TRACKED.items():
        repo.write(rel, text)
    repo.commit("sources", paths=list(TRACKED))
    for rel, text in UNTRACKED.items():
        repo.write(rel, text)
    return repo.path


def rg_hits(root: Path, *excluded: str, word: bool = False) -> set[tuple[str, int, int]]:
    """What plain `rg --vimgrep` finds with the repository's own ignore files, `.git` and the
    directories named in `excluded` (the untracked ones of a skipped name) left out."""
    args = [rg.executable(), "--no-config", "--vimgrep", "--null", "--hidden", "--fixed-strings"]
    args += ["--glob=!.git/", *(f"--glob=!{path}/" for path in excluded)]
    args += ["--word-regexp"] if word else []
    done = subprocess.run(
        [*args, f"--regexp={NEEDLE}", "--", "."], cwd=root, capture_output=True, stdin=subprocess.DEVNULL
    )
    assert done.returncode in (0, 1), done.stderr
    found = set()
    for record in done.stdout.splitlines():
        path, rest = record.split(b"\0", 1)
        line, col, _ = rest.split(b":", 2)
        found.add((path.decode().removeprefix("./"), int(line), int(col)))
    return found


UNTRACKED_NAMED = ("/node_modules", "/dist", "/web/node_modules")
"""The anchored rg globs of the untracked directories a walk skips by name (web/dist is .gitignore's)."""


def test_grep_finds_what_rg_finds_in_tracked_target_build_and_vendor(tree: Path) -> None:
    expected = rg_hits(tree, *UNTRACKED_NAMED)
    assert {path for path, _, _ in expected} >= {"drivers/target/core.c", "we[i]rd*/vendor/odd.c"}
    assert "drivers/target/new.c" in {path for path, _, _ in expected}  # untracked, in a tracked dir
    for patterns in ([NEEDLE], [NEEDLE, "nothing_matches_this"]):
        result = grep(tree, *patterns, budget=None, max_per_pattern=0)
        (entry,) = result["patterns"]
        assert locations(entry) == expected
        assert dir_note(result["notes"]) == (
            "3 directories skipped by name (git tracks no file in them): dist, node_modules, "
            'web/node_modules; to search one, give it as root="dist"'
        )


def test_a_search_by_extension_notes_the_same_directories(tree: Path) -> None:
    """With `exts` the note comes from a walk of its own (rg would name every other file)."""
    for patterns in ([NEEDLE], [NEEDLE, "nothing_matches_this"]):
        result = grep(tree, *patterns, exts=["js"], budget=None, max_per_pattern=0)
        assert result["patterns"] == []  # the only .js files are in skipped or ignored directories
        assert dir_note(result["notes"]).startswith(
            "3 directories skipped by name (git tracks no file in them)"
        )


def dir_note(notes: list[str]) -> str:
    (note,) = [n for n in notes if "skipped by name" in n]
    return note


def test_a_skipped_directory_named_as_root_is_searched(tree: Path) -> None:
    entry = grep(tree, NEEDLE, root="node_modules", budget=None)["patterns"][0]
    assert entry["total"] == 1 and list(entry["hits"]) == ["node_modules/left-pad/index.js"]


def test_ignore_dirs_still_skip_a_tracked_directory(tree: Path) -> None:
    result = grep(tree, NEEDLE, ignore_dirs=["target"], budget=None, max_per_pattern=0)
    files = set(result["patterns"][0]["hits"])
    assert not any("/target/" in f for f in files) and "tools/build/feature.c" in files
    assert "drivers/target" not in dir_note(result["notes"])  # the caller's own skip is not a default


def test_refs_counts_the_tracked_directories_too(tree: Path) -> None:
    result = call("refs", {"symbols": [NEEDLE], "exts": ["c", "h", "go", "js"]}, tree)
    (entry,) = result["symbols"]
    expected = rg_hits(tree, *UNTRACKED_NAMED, word=True)
    assert entry["totals"]["text"] == len({hit for hit in expected if not hit[0].endswith(".o")})
    assert dir_note(result["notes"]).startswith("3 directories skipped by name")


def test_code_walks_tracked_vendor_and_notes_the_untracked_skips(tree: Path) -> None:
    result = code(tree, ".", brief=True)
    paths = {doc["path"] for doc in result["files"]}
    assert {
        "vendor/github.com/acme/lib/lib.go",
        "drivers/nvme/target/admin.c",
        "build/gen/vendor/deep.c",
    } <= paths
    assert not any(p.startswith(("node_modules/", "dist/", "web/node_modules/")) for p in paths)
    assert dir_note(result["notes"]).endswith('to search one, give it as files=["dist"]')


def test_vue_routes_notes_the_router_search_it_did_not_make(tree: Path) -> None:
    result: dict[str, Any] = call("vue_routes", {"root": "web"}, tree)
    assert [row["path"] for row in result["routes"]] == ["/"]
    assert dir_note(result["notes"]) == (
        "1 directory skipped by name (git tracks no file in them): web/node_modules; to search one, "
        'give it as root="web/node_modules"'
    )


def test_outside_git_every_named_directory_is_skipped_and_counted(tmp_path: Path) -> None:
    for rel, text in {**TRACKED, **UNTRACKED}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result = grep(tmp_path, NEEDLE, budget=None, max_per_pattern=0)
    files = set(result["patterns"][0]["hits"])
    assert files == {"kernel/fork.c"}
    note = dir_note(result["notes"])
    assert note.startswith("10 directories skipped by name (git tracks no file in them): build, dist, ")
    assert note.endswith(' (+5 more); to search one, give it as root="build"')


def test_a_directory_added_later_is_searched_at_once(tree: Path, repo: Repo) -> None:
    assert "dist/bundle.js" not in grep(tree, NEEDLE, budget=None, max_per_pattern=0)["patterns"][0]["hits"]
    repo.git("add", "dist/bundle.js")
    assert "dist/bundle.js" in grep(tree, NEEDLE, budget=None, max_per_pattern=0)["patterns"][0]["hits"]


def test_tracked_dirs_are_listed_relative_to_the_walk_and_read_back_by_rg(tree: Path) -> None:
    assert skips.tracked_dirs(tree) == (
        "build",
        "build/gen/vendor",
        "drivers/nvme/target",
        "drivers/target",
        "include/target",
        "tools/build",
        "vendor",
        "we[i]rd*/vendor",
    )
    assert skips.tracked_dirs(tree / "drivers") == ("nvme/target", "target")
    assert skips.tracked_dirs(tree / "drivers" / "target") == ()
    listing = rg.walk(["."], cwd=tree / "drivers")
    assert listing.files == ["nvme/target/admin.c", "target/core.c", "target/new.c"]  # *.o: .gitignore
    assert not listing.defaults


def test_a_binary_file_is_counted_and_can_be_named(tmp_path: Path) -> None:
    (tmp_path / "logo.bin").write_bytes(b"GIF89a\0\0" + NEEDLE.encode() + b"\n")
    (tmp_path / "a.c").write_text(f"{NEEDLE}(a);\n")
    result = grep(tmp_path, NEEDLE, budget=None)
    assert result["patterns"][0]["total"] == 1
    (note,) = [n for n in result["notes"] if "binary" in n]
    assert note == (
        '1 binary file skipped (a NUL byte: ripgrep stops reading): logo.bin; to search one as text, give it as root="logo.bin"'
    )
    assert grep(tmp_path, NEEDLE, root="logo.bin", budget=None)["patterns"][0]["total"] == 1
