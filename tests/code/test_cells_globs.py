"""Small pieces every summary and expansion relies on: cell normalisation and glob matching."""

from __future__ import annotations

import pytest

from sofia.providers.code.cells import collapse, default, detail
from sofia.providers.code.globs import GlobError, compile_glob, expand_braces, literal_prefix, matches


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(\n    self,\n    url: str,\n)", "(self, url: str)"),
        ("Dict[\n    str, int\n]", "Dict[str, int]"),
        ("x=(1,)", "x=(1,)"),
        ("map[string]  []int", "map[string] []int"),
    ],
)
def test_collapse(text: str, expected: str) -> None:
    assert collapse(text) == expected


def test_defaults_and_details_are_cut() -> None:
    assert default('osp.join("a", "very", "long", "default")') == 'osp.join("a", "very", "…'
    assert len(detail("x" * 500)) == 160


def test_brace_expansion_nests_and_keeps_order() -> None:
    assert expand_braces("src/{a,b/{c,d}}/*.{ts,vue}") == [
        "src/a/*.ts",
        "src/a/*.vue",
        "src/b/c/*.ts",
        "src/b/c/*.vue",
        "src/b/d/*.ts",
        "src/b/d/*.vue",
    ]


@pytest.mark.parametrize("pattern", ["a{b", "a}b", "{a,b}}"])
def test_unbalanced_braces(pattern: str) -> None:
    with pytest.raises(GlobError):
        expand_braces(pattern)


@pytest.mark.parametrize(
    ("pattern", "path", "matched"),
    [
        ("*.go", "main.go", True),
        ("*.go", "cmd/main.go", False),
        ("*", ".env.go", True),
        ("src/**/*.php", "src/A.php", True),
        ("src/**/*.php", "src/a/b/C.php", True),
        ("src/**", "src/a/b", True),
        ("src/[!a]*.go", "src/b.go", True),
        ("src/[^b]*.go", "src/b.go", False),
        ("src/?.go", "src/ab.go", False),
        ("src/[]]x.go", "src/]x.go", True),
    ],
)
def test_segment_matching(pattern: str, path: str, matched: bool) -> None:
    assert bool(compile_glob(pattern).fullmatch(path)) is matched


def test_files_inside_a_matched_directory_match() -> None:
    regex = compile_glob("src/Ent*")
    assert matches(regex, "src/Entity/Deep/User.php", literal_prefix("src/Ent*"))
    assert not matches(regex, "src/Http/Kernel.php", literal_prefix("src/Ent*"))
    assert literal_prefix("src/app/**/*.ts") == "src/app"
