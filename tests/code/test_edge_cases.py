"""Files that must never fail a call (docs/code.md, "Files that never fail a call"): binary, special, empty, BOM,
invalid UTF-8, unknown and uppercase extensions, files named twice, oversized files."""

from __future__ import annotations

import os
from pathlib import Path

from sofia.providers.code import render
from tests.code.conftest import code, document

GO_SOURCE = b"package shapes\n\n// Area of a square.\nfunc Area(side int) int {\n\treturn side * side\n}\n"


def test_binary_file_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "logo.go").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
    doc = code(tmp_path, "logo.go")["files"][0]
    assert doc == {"path": "logo.go", "lang": "go", "mode": "skipped", "lines": 0, "reason": "binary (2.0K)"}


def test_special_file_and_symlink_loop_are_skipped(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.go")
    os.symlink(tmp_path / "loop_b.py", tmp_path / "loop_a.py")
    os.symlink(tmp_path / "loop_a.py", tmp_path / "loop_b.py")
    result = code(tmp_path, "pipe.go", "loop_a.py")
    assert [(d["path"], d["mode"], d["reason"]) for d in result["files"]] == [
        ("pipe.go", "skipped", "unreadable: not a regular file"),
        ("loop_a.py", "skipped", "unreadable: Too many levels of symbolic links"),
    ]


def test_empty_file_is_raw(tmp_path: Path, no_passthrough: None) -> None:
    (tmp_path / "empty.py").write_bytes(b"")
    doc = code(tmp_path, "empty.py")["files"][0]
    assert (doc["mode"], doc["lines"], doc["content"]) == ("raw", 0, "")


def test_bom_is_stripped_and_lines_stay_the_files(tmp_path: Path, no_passthrough: None) -> None:
    source = b"\xef\xbb\xbf" + GO_SOURCE + b"".join(b"// padding line %d\n" % i for i in range(40))
    (tmp_path / "bom.go").write_bytes(source)
    doc = code(tmp_path, "bom.go")["files"][0]
    assert doc["mode"] == "summary"
    assert doc["namespace"] == "shapes"
    assert [(f["name"], f["line"], f["end_line"]) for f in doc["functions"]] == [("Area", 4, 6)]


def test_bom_raw_content_has_no_bom(tmp_path: Path) -> None:
    (tmp_path / "bom.go").write_bytes(b"\xef\xbb\xbf" + GO_SOURCE)
    assert code(tmp_path, "bom.go")["files"][0]["content"] == GO_SOURCE.decode()


def test_unknown_types_named_explicitly_come_back_raw(tmp_path: Path) -> None:
    (tmp_path / "deploy.lua").write_text("puts 'deploy'\n")
    (tmp_path / "NOTES.md").write_text("# Notes\n")
    (tmp_path / "Makefile").write_text("all:\n\ttrue\n")
    result = code(tmp_path, "deploy.lua", "NOTES.md", "Makefile")
    assert [(d["lang"], d["mode"], d["reason"]) for d in result["files"]] == [
        ("", "raw", "unsupported_type")
    ] * 3
    text = render(result, "toon")
    assert text is not None
    assert "# raw: deploy.lua (no summariser for .lua)\nputs 'deploy'\n" in text
    assert "# raw: Makefile (no summariser for Makefile)\n" in text


def test_uppercase_extension_is_go(tmp_path: Path, no_passthrough: None) -> None:
    (tmp_path / "SHAPES.GO").write_bytes(GO_SOURCE + b"".join(b"// padding line %d\n" % i for i in range(40)))
    doc = code(tmp_path, "SHAPES.GO")["files"][0]
    assert (doc["lang"], doc["mode"]) == ("go", "summary")


def test_a_file_named_twice_is_listed_once(tmp_path: Path) -> None:
    (tmp_path / "a.go").write_bytes(GO_SOURCE)
    result = code(tmp_path, "a.go", "./a.go", "*.go", str(tmp_path / "a.go"))
    assert [d["path"] for d in result["files"]] == ["a.go"]


def test_syntax_errors_without_declarations_are_raw(tmp_path: Path, no_passthrough: None) -> None:
    (tmp_path / "broken.py").write_text("))) ((( ]]] " * 200 + "\n")
    result = code(tmp_path, "broken.py")
    doc = document(result, "broken.py")
    assert (doc["mode"], doc["reason"]) == ("raw", "parse_failed")
    assert doc["parse_errors"] > 0
    text = render(result, "toon")
    assert text is not None and text.startswith(
        f"# raw: broken.py (could not parse: {doc['parse_errors']} syntax errors)\n"
    )


def test_syntax_errors_with_declarations_still_summarise(tmp_path: Path, no_passthrough: None) -> None:
    body = "".join(f"    total += {i}\n" for i in range(60))
    (tmp_path / "partial.py").write_text(
        f"def good(total):\n{body}    return total\n\n\ndef bad(:\n    pass\n"
    )
    doc = code(tmp_path, "partial.py")["files"][0]
    assert doc["mode"] == "summary"
    assert doc["parse_errors"] > 0
    assert list(doc)[:6] == ["path", "lang", "mode", "lines", "namespace", "parse_errors"]
    assert "good" in [f["name"] for f in doc["functions"]]


def test_oversized_file_is_raw_too_large(tmp_path: Path) -> None:
    line = b"var x = 1 // generated\n"
    (tmp_path / "gen.go").write_bytes(b"package gen\n" + line * (5 * 1024 * 1024 // len(line)))
    result = code(tmp_path, "gen.go", budget=None)
    doc = result["files"][0]
    assert (doc["mode"], doc["reason"]) == ("raw", "too_large")
    text = render(result, "toon")
    assert text is not None and text.startswith("# raw: gen.go (too large to parse (5.0 MiB))\npackage gen\n")


def test_paths_with_spaces_unicode_and_leading_dashes(tmp_path: Path) -> None:
    (tmp_path / "-dir with space").mkdir()
    (tmp_path / "-dir with space" / "ünï code.go").write_bytes(GO_SOURCE)
    result = code(tmp_path, "-dir with space", "-dir with space/*.go")
    assert [d["path"] for d in result["files"]] == ["-dir with space/ünï code.go"]
    sliced = code(tmp_path, "-dir with space/ünï code.go", symbols=["Area"])
    assert sliced["files"][0]["symbols"] == ["Area"]
