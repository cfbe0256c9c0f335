"""`sf code --brief` summarises every file it can parse: a small file is not passed through whole,
nor a file whose summary is not smaller than its text (docs/code.md, "Which files are summarised")."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import run_sf, write_files

SMALL = "class Tiny:\n    def size(self) -> int:\n        return 1\n\n\ndef helper(x: int) -> int:\n    return x\n"
"""Far below the 8 KiB under which a file is shown whole, and barely larger than its summary."""


def modes(tmp_path: Path, *args: str, paths: tuple[str, ...] = ("src",)) -> dict[str, tuple[str, str]]:
    done = run_sf("code", *paths, *args, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    files = json.loads(done.stdout)["files"]
    return {f["path"]: (f["mode"], f.get("reason", "")) for f in files}


def test_brief_summarises_a_small_file_that_is_otherwise_shown_whole(tmp_path: Path) -> None:
    write_files(
        tmp_path, {"src/tiny.py": SMALL, "src/one.go": "package one\n\nfunc One() int { return 1 }\n"}
    )
    assert modes(tmp_path) == {
        "src/one.go": ("raw", "below_threshold"),
        "src/tiny.py": ("raw", "below_threshold"),
    }
    assert modes(tmp_path, "--brief") == {"src/one.go": ("summary", ""), "src/tiny.py": ("summary", "")}


def test_brief_still_passes_through_what_it_cannot_parse(tmp_path: Path) -> None:
    write_files(tmp_path, {"src/notes.txt": "plain text\n", "src/tiny.py": SMALL})
    assert modes(tmp_path, "--brief", paths=("src/notes.txt", "src/tiny.py")) == {
        "src/notes.txt": ("raw", "unsupported_type"),
        "src/tiny.py": ("summary", ""),
    }
