"""The one glob translator in its two dialects: what they share (segments, `**`, classes that
never match `/`, bounded brace expansion) and where they differ (escapes, malformed patterns,
one-item braces, dotfiles)."""

from __future__ import annotations

import pytest

from sofia.runtime.globs import CALLER, VITE, Dialect, GlobError, compile_glob, expand_braces


@pytest.mark.parametrize("dialect", [CALLER, VITE], ids=["caller", "vite"])
def test_what_both_dialects_share(dialect: Dialect) -> None:
    regex = compile_glob("src/**/[!_]*.ts", dialect, dot=True)
    assert regex.fullmatch("src/a/b/x.ts") and regex.fullmatch("src/x.ts")
    assert not regex.fullmatch("src/_x.ts")
    assert not compile_glob("a[!x]b", dialect, dot=True).fullmatch("a/b"), "a class never matches /"
    assert not compile_glob("a?b", dialect, dot=True).fullmatch("a/b")
    assert expand_braces("{a,b}/{c,{d,e}}", dialect) == ["a/c", "a/d", "a/e", "b/c", "b/d", "b/e"]
    with pytest.raises(GlobError, match="more than 256 alternatives"):
        expand_braces("{a,b}" * 9, dialect)


def test_the_callers_dialect_refuses_what_it_cannot_read() -> None:
    for pattern, message in [("src/[a.go", "unmatched '\\['"), ("a]", "unmatched '\\]'")]:
        with pytest.raises(GlobError, match=message):
            compile_glob(pattern, CALLER, dot=True)
    for pattern, message in [("{a,b", "unmatched '{'"), ("a}", "unmatched '}'"), ("}{a,b}", "unmatched '}'")]:
        with pytest.raises(GlobError, match=message):
            expand_braces(pattern, CALLER)
    assert expand_braces("x{a}", CALLER) == ["xa"]
    assert compile_glob("a\\b", CALLER, dot=True).fullmatch("a\\b"), "a backslash is a character"


def test_vites_dialect_escapes_and_reads_malformed_text_literally() -> None:
    assert compile_glob("src/\\*.ts", VITE, dot=False).fullmatch("src/*.ts")
    assert not compile_glob("src/\\*.ts", VITE, dot=False).fullmatch("src/a.ts")
    assert compile_glob("src/[a.ts", VITE, dot=False).fullmatch("src/[a.ts")
    assert compile_glob("src/[!].ts", VITE, dot=False).fullmatch("src/[!].ts")
    assert expand_braces("src/{a,b", VITE) == ["src/{a,b"]
    assert expand_braces("src/\\{a,b}", VITE) == ["src/\\{a,b}"]
    with pytest.raises(GlobError, match="one-item braces"):
        expand_braces("src/{a}.ts", VITE)


def test_dotfiles_only_when_asked_or_named() -> None:
    assert not compile_glob("src/**/*.ts", VITE, dot=False).fullmatch("src/.hidden/a.ts")
    assert not compile_glob("src/*", VITE, dot=False).fullmatch("src/.env")
    assert compile_glob("src/.*", VITE, dot=False).fullmatch("src/.env")
    assert compile_glob("src/**/*.ts", VITE, dot=True).fullmatch("src/.hidden/a.ts")
