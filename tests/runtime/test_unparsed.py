"""Counting a name in the files sofia does not parse: a file of a parsed type named outright is
searched by ripgrep whatever the globs say, and must not be counted as one sofia cannot read."""

from __future__ import annotations

from pathlib import Path

from sofia.runtime import unparsed


def test_a_parsed_file_named_outright_is_not_counted_as_unparsed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("# helper is mentioned here, helper again\n")
    (tmp_path / "notes.md").write_text("helper\n")
    found = unparsed.count("helper", ["a.py", "notes.md"], cwd=tmp_path, parsed_extensions=[".py"])
    assert (found.occurrences, found.files, dict(found.by_type)) == (1, 1, {".md": 1})


def test_parsed_tells_a_type_as_its_glob_does() -> None:
    ends = unparsed.suffixes([".PY", ".h"])
    assert unparsed.parsed(b"src/Module.py", ends) and unparsed.parsed(b"x/y.H", ends)
    assert not unparsed.parsed(b"src/module.pyc", ends) and not unparsed.parsed(b"Makefile", ends)
