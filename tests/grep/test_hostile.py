"""Bad input is refused before anything runs; hostile trees (binary, huge, unreadable, vanishing,
looping, badly encoded files) never abort a search."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from sofia.errors import render
from sofia.providers.contract import Context, DeadlineExceeded, ProviderError
from sofia.providers.grep.engine import COUNTING
from sofia.providers.grep.provider import Params, run
from tests.grep.conftest import every_hit, grep, rows
from tests.helpers import write_files as write

REGEX_HINT = (
    "regex=true uses ripgrep syntax; look-around and backreferences are unsupported; "
    "drop regex=true to search literally"
)


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("[invalid", "unclosed character class"),
        ("(?<=user)Id", "look-around, including look-ahead and look-behind, is not supported"),
        ("(a)\\1", "backreferences are not supported"),
    ],
)
def test_invalid_regex_names_the_pattern(tmp_path: Path, pattern: str, problem: str) -> None:
    with pytest.raises(ProviderError) as error:
        grep(tmp_path, "fine", pattern, regex=True)
    assert error.value.message == f'invalid regex "{pattern}": {problem}'
    assert render(error.value.hint) == REGEX_HINT


def test_regex_characters_are_literal_by_default(tmp_path: Path) -> None:
    write(tmp_path, {"a.txt": "x = [invalid(?<=y\n"})
    assert every_hit(tmp_path, "[invalid(?<=")["total"] == 1


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"patterns": []}, "grep needs at least one pattern"),
        ({"patterns": ["ok", ""]}, "empty pattern"),
        ({"patterns": ["two\nlines"]}, "pattern spans lines: 'two\\nlines'"),
        ({"patterns": [f"p{i}" for i in range(33)]}, "too many patterns: 33 (at most 32)"),
        ({"patterns": ["x"], "exts": ["php", "p/hp"]}, "invalid extension: 'p/hp'"),
        ({"patterns": ["x"], "root": "no/such/dir"}, "root not found: no/such/dir"),
        ({"patterns": ["x" * 5000]}, "pattern too long: 5000 characters (at most 4096)"),
    ],
)
def test_bad_input_is_refused(tmp_path: Path, params: dict[str, object], message: str) -> None:
    with pytest.raises(ProviderError) as error:
        run(Params.model_validate(params), Context(root=tmp_path))
    assert render(error.value.message) == message
    assert error.value.hint


@pytest.mark.parametrize(
    "params",
    [
        {"patterns": ["x"], "root": "a\0b"},
        {"patterns": ["nul\0byte"]},
        {"patterns": ["x"], "ignore_dirs": ["gen\0"]},
    ],
)
def test_a_nul_character_is_refused_by_the_model_before_anything_runs(params: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="NUL character"):
        Params.model_validate(params)


def test_negative_cap_is_rejected_by_the_model() -> None:
    with pytest.raises(ValueError, match="max_per_pattern"):
        Params(patterns=["x"], max_per_pattern=-1)


@pytest.mark.parametrize("flag", [True, False])
def test_a_boolean_cap_is_not_a_number(flag: bool) -> None:
    with pytest.raises(ValidationError, match="expected a number but got the boolean"):
        Params.model_validate({"patterns": ["x"], "max_per_pattern": flag})


def test_a_single_pattern_string_is_one_pattern(tmp_path: Path) -> None:
    write(tmp_path, {"a.txt": "alpha\n"})
    params = Params.model_validate({"patterns": "alpha"})
    assert run(params, Context(root=tmp_path))["patterns"][0]["total"] == 1


def test_plain_ignore_dirs_with_slashes_around_them_still_work(tmp_path: Path) -> None:
    write(tmp_path, {"gen/a.txt": "NEEDLE\n", "src/b.txt": "NEEDLE\n"})
    assert [h["file"] for h in rows(every_hit(tmp_path, "NEEDLE", ignore_dirs=["/gen/"]))] == ["src/b.txt"]


def test_pattern_starting_with_a_dash(tmp_path: Path) -> None:
    write(tmp_path, {"flags.sh": "ls -foo --bar\n"})
    hits = rows(every_hit(tmp_path, "-foo"))
    assert [(h["file"], h["line"], h["col"]) for h in hits] == [("flags.sh", 1, 4)]


def test_duplicate_patterns_are_dropped_and_noted(tmp_path: Path) -> None:
    write(tmp_path, {"a.txt": "alpha beta\n"})
    result = grep(tmp_path, "alpha", "beta", "alpha", "gone", "gone")
    assert [p["pattern"] for p in result["patterns"]] == ["alpha", "beta"]
    assert result["patterns"][0]["total"] == 1
    assert result["empty"] == ["gone"]
    assert result["notes"] == ["duplicate patterns dropped: alpha, gone"]


def test_symlink_loops_are_not_followed(tmp_path: Path) -> None:
    write(tmp_path, {"pkg/mod.py": "LOOPED = 1\n"})
    (tmp_path / "pkg" / "up").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "pkg" / "self").symlink_to(tmp_path / "pkg" / "self")
    entry = every_hit(tmp_path, "LOOPED")
    assert [(h["file"], h["line"]) for h in rows(entry)] == [("pkg/mod.py", 1)]


def test_five_megabyte_single_line_file(tmp_path: Path) -> None:
    half = 2_500_000
    (tmp_path / "bundle.min.js").write_bytes(b"a" * half + b"NEEDLE" + b"b" * half)
    (hit,) = rows(every_hit(tmp_path, "NEEDLE"))
    assert (hit["line"], hit["col"]) == (1, half + 1)
    assert hit["text"] == "…" + "a" * 60 + "NEEDLE" + "b" * 134 + "…"
    assert hit["symbol"] == "?", "a file over 4 MiB is not parsed"


def test_binary_files_are_not_searched_by_the_walk(tmp_path: Path) -> None:
    write(tmp_path, {"blob.bin": b"NEEDLE\x00\x01\x02NEEDLE", "text.txt": "NEEDLE\n"})
    result = grep(tmp_path, "NEEDLE")
    assert [h["file"] for h in rows(result["patterns"][0])] == ["text.txt"]
    assert "skipped" not in result


def test_binary_file_named_as_root_is_read_whole_as_rg_reads_it(tmp_path: Path) -> None:
    """A walk skips a binary file (and says so, docs/grep.md); naming it is how to search it."""
    write(tmp_path, {"blob.bin": b"NEEDLE\x00\x01\x02NEEDLE", "a.txt": "NEEDLE\n"})
    walked = grep(tmp_path, "NEEDLE", "OTHER")
    assert walked["patterns"][0]["total"] == 1 and "skipped" not in walked
    assert walked["notes"][-1].startswith(
        "1 binary file skipped (a NUL byte: ripgrep stops reading): blob.bin;"
    )
    for patterns in (["NEEDLE"], ["NEEDLE", "OTHER"]):
        result = grep(tmp_path, *patterns, root="blob.bin")
        (entry,) = result["patterns"]
        assert entry["total"] == 2 and [(h["line"], h["col"]) for h in rows(entry)] == [(1, 1), (1, 10)]
        assert "skipped" not in result and result["notes"] == []


def test_root_may_be_a_file(tmp_path: Path) -> None:
    write(tmp_path, {"src/app.py": "def main():\n    return NEEDLE\n"})
    result = grep(tmp_path, "NEEDLE", root="src/app.py")
    assert result["root"] == "src/app.py"
    assert rows(result["patterns"][0]) == [
        {"file": "src/app.py", "line": 2, "col": 12, "symbol": "main", "text": "return NEEDLE"}
    ]


def test_root_inside_a_gitignored_directory_is_searched(tmp_path: Path) -> None:
    write(tmp_path, {".gitignore": "generated/\n", "generated/api/client.ts": "export const NEEDLE = 1\n"})
    assert grep(tmp_path, "NEEDLE")["empty"] == ["NEEDLE"]
    result = grep(tmp_path, "NEEDLE", root="generated/api")
    assert rows(result["patterns"][0])[0]["file"] == "generated/api/client.ts"


def test_crlf_is_not_part_of_the_text(tmp_path: Path) -> None:
    write(tmp_path, {"win.txt": b"first NEEDLE\r\nsecond\r\n"})
    (hit,) = rows(every_hit(tmp_path, "NEEDLE"))
    assert hit["text"] == "first NEEDLE"


def test_latin1_file_name_and_content(tmp_path: Path) -> None:
    (tmp_path / os.fsdecode(b"caf\xe9.txt")).write_bytes(b"caf\xe9 au lait NEEDLE\n")
    (hit,) = rows(every_hit(tmp_path, "NEEDLE"))
    assert hit == {
        "file": "caf\ufffd.txt",
        "line": 1,
        "col": 14,
        "symbol": "?",
        "text": "caf\ufffd au lait NEEDLE",
    }


def test_file_deleted_during_the_search_is_skipped_as_vanished(tmp_path: Path) -> None:
    write(tmp_path, {"a.txt": "NEEDLE\n", "b.txt": "NEEDLE NEEDLE\n", "c.txt": "NEEDLE\n"})

    def delete_after_counting(done: int, total: int | None, message: str) -> None:
        if message == COUNTING and done == total and (tmp_path / "b.txt").exists():
            (tmp_path / "b.txt").unlink()

    result = run(Params(patterns=["NEEDLE"]), Context(root=tmp_path, progress=delete_after_counting))
    (entry,) = result["patterns"]
    assert [h["file"] for h in rows(entry)] == ["a.txt", "c.txt"]
    assert (entry["total"], entry["files"]) == (2, 2)
    assert result["skipped"] == [{"path": "b.txt", "reason": "vanished"}]


UNPRIVILEGED_SEARCH = """
import json, sys
from pathlib import Path
from sofia.providers.contract import Context
from sofia.providers.grep.provider import Params, run
root = Path(sys.argv[1])
try:
    (root / "secret.txt").read_bytes()
    readable = True
except PermissionError:
    readable = False
print(json.dumps({"readable": readable, "result": run(Params(patterns=["NEEDLE"]), Context(root=root))}))
"""


def search_without_read_override(root: Path) -> dict[str, object]:
    """Run the search in a child process that cannot bypass file permissions: as root, drop the
    capabilities that let root read a mode-000 file (root still owns the tree, so the rest reads)."""
    command = [sys.executable, "-c", UNPRIVILEGED_SEARCH, str(root)]
    if os.geteuid() == 0:
        caps = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", *command]
    done = subprocess.run(command, capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def test_unreadable_file_is_skipped_and_the_search_continues(tmp_path: Path) -> None:
    write(tmp_path, {"a.txt": "NEEDLE\n", "secret.txt": "NEEDLE\n", "z.txt": "NEEDLE\n"})
    (tmp_path / "secret.txt").chmod(0)
    try:
        answer = search_without_read_override(tmp_path)
    finally:
        (tmp_path / "secret.txt").chmod(0o644)
    assert answer["readable"] is False
    result = answer["result"]
    assert isinstance(result, dict)
    (entry,) = result["patterns"]
    assert [h["file"] for h in rows(entry)] == ["a.txt", "z.txt"] and entry["total"] == 2
    assert result["skipped"] == [{"path": "secret.txt", "reason": "unreadable: Permission denied"}]


def test_a_passed_deadline_stops_the_search(tmp_path: Path) -> None:
    write(tmp_path, {"a.txt": "NEEDLE\n"})
    with pytest.raises(DeadlineExceeded):
        run(Params(patterns=["NEEDLE"]), Context(root=tmp_path, deadline=time.monotonic() - 1))


def test_skipped_lists_twenty_files_and_notes_the_full_count(tmp_path: Path) -> None:
    write(tmp_path, {f"f{i:02}.txt": "NEEDLE\n" for i in range(30)})

    def delete_most(done: int, total: int | None, message: str) -> None:
        if message == COUNTING and done == total:
            for i in range(25):
                (tmp_path / f"f{i:02}.txt").unlink(missing_ok=True)

    result = run(Params(patterns=["NEEDLE"]), Context(root=tmp_path, progress=delete_most))
    (entry,) = result["patterns"]
    assert (entry["total"], entry["files"], entry["shown"]) == (5, 5, 5)
    assert [row["path"] for row in result["skipped"]] == [f"f{i:02}.txt" for i in range(20)]
    assert {row["reason"] for row in result["skipped"]} == {"vanished"}
    assert result["notes"] == ["skipped: showing 20 of 25 files (first 20); their matches are not counted"]
    assert result["omitted"] == {"skipped": 5}


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"patterns": ["x"], "ignore_dirs": ["gen", "*"]},
            "ignore_dirs takes directory names, not paths or globs: '*'",
        ),
        (
            {"patterns": ["x"], "ignore_dirs": ["../.."]},
            "ignore_dirs takes directory names, not paths or globs: '../..'",
        ),
        (
            {"patterns": ["x"], "ignore_dirs": ["packages/legacy"]},
            "ignore_dirs takes directory names, not paths or globs: 'packages/legacy'",
        ),
        (
            {"patterns": ["x"], "ignore_dirs": [".."]},
            "ignore_dirs takes directory names, not paths or globs: '..'",
        ),
        (
            {"patterns": ["x"], "ignore_dirs": ["gen{a,b}"]},
            "ignore_dirs takes directory names, not paths or globs: 'gen{a,b}'",
        ),
        (
            {"patterns": ["x"], "ignore_dirs": ["n" * 256]},
            "invalid directory name: '" + "n" * 199 + "… (258 characters)",
        ),
        (
            {"patterns": ["x"], "ignore_dirs": [f"d{i}" for i in range(100_000)]},
            "too many ignore_dirs: 100,000 (at most 256)",
        ),
    ],
)
def test_ignore_dirs_must_be_plain_directory_names(
    tmp_path: Path, params: dict[str, object], message: str
) -> None:
    with pytest.raises(ProviderError) as error:
        run(Params.model_validate(params), Context(root=tmp_path))
    assert render(error.value.message) == message
    assert error.value.hint
