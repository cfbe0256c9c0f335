"""Nothing dropped silently: every file in a language sofia names whose touched symbols could not
be computed is named in notes with its path, and counted, so "no symbol touched" and "could not
tell" never look alike."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.helpers import Repo, run_sf


def changed_json(cwd: Path, *args: str) -> dict[str, Any]:
    done = run_sf("changed", "--json", "--max-output-tokens", "0", *args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def note_with(document: dict[str, Any], text: str) -> str:
    found = [note for note in document["notes"] if text in note]
    assert len(found) == 1, document["notes"]
    return found[0]


def test_a_side_too_large_to_parse_is_named(repo: Repo) -> None:
    big = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(40_000))  # about 1.1 MB
    repo.write("big.py", big)
    repo.write("small.py", "def s():\n    return 1\n")
    repo.commit("one")
    repo.write("big.py", big.replace("return 7\n", "return 70\n", 1))
    repo.write("small.py", "import os\n\ndef s():\n    return 1\n")  # no symbol touched: no note
    document = changed_json(repo.path)
    assert note_with(document, "big.py") == (
        "1 file not followed (symbols not computed: a side over 1 MiB is not parsed): big.py"
    )
    assert {row["path"]: row.get("symbols", "") for row in document["files"]}["small.py"] == ""
    assert len(document["notes"]) == 1


def test_binary_content_in_a_source_file_is_named_but_an_image_is_not(repo: Repo) -> None:
    repo.write("packed.py", b"x = 1\n\0\0\0")
    repo.write("logo.png", b"\x89PNG\0\0\0")
    repo.commit("one")
    repo.write("packed.py", b"x = 2\n\0\0\0")
    repo.write("logo.png", b"\x89PNG\0\0\1")
    repo.write("fresh.py", b"y = 1\n\0")  # untracked, binary too
    document = changed_json(repo.path)
    assert set(document["binary"]) == {"packed.py", "logo.png", "fresh.py"}
    assert note_with(document, "binary") == (
        "2 files not followed (symbols not computed: binary content): fresh.py; packed.py"
    )


def test_a_language_without_a_grammar_is_named(repo: Repo) -> None:
    repo.write("style.css", "a {\n  color: red;\n}\n")
    repo.write("run.sh", "echo one\n")
    repo.write("tool.lua", "def x\n  1\nend\n")
    repo.commit("one")
    repo.write("style.css", "a {\n  color: blue;\n}\n")
    repo.write("run.sh", "echo two\n")
    repo.write("tool.lua", "def x\n  2\nend\n")  # no language sofia names: git's context, no note
    document = changed_json(repo.path)
    note = note_with(document, "no grammar")
    assert note == (
        "2 files not followed (symbols not computed: no grammar for the language; git's hunk context "
        "shown): run.sh; style.css"
    )


def test_syntax_errors_without_a_recovered_symbol_are_named(repo: Repo) -> None:
    repo.write("broken.py", "x = 1\n")
    repo.write("fine.py", "x = 1\n")
    repo.commit("one")
    repo.write("broken.py", "x = 1\n)))) ((( def def class :\n")
    repo.write("fine.py", "x = 2\n")  # a change outside every symbol: nothing to name
    document = changed_json(repo.path)
    assert note_with(document, "syntax errors") == (
        "1 file not followed (symbols not computed: syntax errors and no symbol recovered): broken.py"
    )


def test_a_file_git_cannot_read_is_listed_named_and_the_rest_still_reported(repo: Repo) -> None:
    repo.write("pipe.py", "def p():\n    return 1\n")
    repo.write("ok.py", "def ok():\n    return 1\n")
    repo.commit("one")
    (repo.path / "pipe.py").unlink()
    os.mkfifo(repo.path / "pipe.py")
    repo.write("ok.py", "def ok():\n    return 2\n")
    for args in ((), ("--no-symbols",)):
        document = changed_json(repo.path, *args)
        rows = {row["path"]: row for row in document["files"]}
        assert set(rows) == {"ok.py", "pipe.py"}
        assert (rows["pipe.py"]["adds"], rows["pipe.py"]["dels"]) == (0, 0)
        assert note_with(document, "pipe.py").startswith(
            "1 file not followed (git could not read it as a file, so its churn and symbols are unknown): "
            "pipe.py "
        )
    assert changed_json(repo.path)["files"][0]["symbols"] == "ok"


def test_an_untracked_nested_repository_is_one_named_row(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit("one")
    nested = Repo(repo.path / "nested")
    nested.write("inner.py", "y = 1\n")
    nested.commit("inner")
    document = changed_json(repo.path)
    assert [row["path"] for row in document["files"]] == ["nested/"]
    assert document["notes"] == [
        "1 untracked nested repository not followed (listed as one row each; their files are not): nested/"
    ]


def test_no_symbols_asks_for_none_and_notes_none(repo: Repo) -> None:
    repo.write("style.css", "a {}\n")
    repo.commit("one")
    repo.write("style.css", "b {}\n")
    assert changed_json(repo.path, "--no-symbols")["notes"] == []
