"""Nothing is dropped silently: what `code` could not follow (a syntax error region where
declarations are listed, a declaration without a row kind, a file it could not summarise) is
named in notes with file and line and counted; ordinary files get no such note."""

from __future__ import annotations

import sysconfig
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.contract import ProviderError
from tests.code.conftest import FIXTURES, code, document

PAD = "".join(
    f"export function helper{i}(value: number): number {{\n"
    + f"  const scaled = value * {i} + Math.round(value / 3) - Math.floor(value / 7)\n" * 5
    + "  return scaled\n}\n\n"
    for i in range(40)
)


def write(root: Path, name: str, text: str) -> str:
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(text)
    return name


def followed_notes(result: dict[str, Any]) -> list[str]:
    return [n for n in result["notes"] if "not followed" in n]


def test_an_error_region_in_a_class_body_is_named_with_its_line(tmp_path: Path, no_passthrough: None) -> None:
    text = (
        "export class Cart {\n  add(item: Item): void {}\n  remove(item: Item) }{ void {}\n  total(): number { return 0 }\n}\n"
        + PAD
    )
    result = code(tmp_path, write(tmp_path, "cart.ts", text))
    doc = document(result, "cart.ts")
    assert doc["mode"] == "summary" and doc["parse_errors"] > 0
    [note] = followed_notes(result)
    assert note.startswith("1 syntax error region not followed (the grammar could not parse them;")
    assert note.endswith("cart.ts:4 total(): number { return 0 }")


def test_an_error_inside_a_recovered_declaration_is_only_counted(
    tmp_path: Path, no_passthrough: None
) -> None:
    text = "export interface Box<in out A> {\n  value: A\n}\n" + PAD
    result = code(tmp_path, write(tmp_path, "box.ts", text))
    doc = document(result, "box.ts")
    assert doc["parse_errors"] > 0
    assert [t["name"] for t in doc["types"]] == ["Box"]
    assert followed_notes(result) == []


def test_a_python_class_body_error_is_named(tmp_path: Path, no_passthrough: None) -> None:
    body = "".join(
        f"    def method_{i}(self):\n"
        + f"        self.total += {i} * self.base + len(self.items)\n" * 4
        + "\n"
        for i in range(30)
    )
    text = f"class Shop:\n{body}    def broken(self:\n        return )\n\n    def after(self):\n        return 1\n"
    result = code(tmp_path, write(tmp_path, "shop.py", text))
    [note] = followed_notes(result)
    assert note.startswith("1 syntax error region not followed")
    assert "shop.py:182 def broken(self: (to line 186)" in note


def test_declarations_without_a_row_kind_are_named(tmp_path: Path, no_passthrough: None) -> None:
    text = "using handle = openFile('x')\n" + PAD.replace("export function", "function")
    result = code(tmp_path, write(tmp_path, "res.js", text))
    [note] = followed_notes(result)
    assert (
        note
        == "1 declaration not followed (no summary row for their kind): res.js:1 using handle = openFile('x')"
    )


def test_a_vue_script_in_another_language_is_named(tmp_path: Path, no_passthrough: None) -> None:
    rows = '  <div class="row">{{ a }} and some more text</div>\n' * 40
    text = f'<template>\n{rows}</template>\n\n<script lang="coffee">\nexport default\n  data: -> a: 1\n</script>\n'
    result = code(tmp_path, write(tmp_path, "Old.vue", text))
    assert followed_notes(result) == [
        '1 declaration not followed (no summary row for their kind): Old.vue:44 <script lang="coffee">'
    ]


def test_files_that_could_not_be_summarised_are_counted(tmp_path: Path) -> None:
    write(tmp_path, "lib/greeter.lua", "class Greeter\n  def hello; end\nend\n")
    write(tmp_path, "broken.go", "}}}} ((( " * 2000)
    write(tmp_path, "fine.go", "package fine\n\nfunc A() {}\n")
    result = code(tmp_path, "lib/greeter.lua", "broken.go", "fine.go")
    assert followed_notes(result) == [
        "2 files not followed (not summarised): lib/greeter.lua shown whole: no summariser for this type; "
        "broken.go shown whole: no declaration recovered from a broken parse"
    ]


def test_a_missed_slice_in_a_broken_file_names_the_error_regions(
    tmp_path: Path, no_passthrough: None
) -> None:
    text = (
        "export class Cart {\n  add(): void {}\n  remove(item: Item) }{ void {}\n  total(): number { return 0 }\n}\n"
        + PAD
    )
    name = write(tmp_path, "cart.ts", text)
    result = code(tmp_path, name, symbols=["Cart.add", "Cart.total"])
    assert any(
        n.startswith("1 syntax error region not followed") and "cart.ts:4" in n for n in result["notes"]
    )
    with pytest.raises(ProviderError) as raised:
        code(tmp_path, name, symbols=["Cart.total"])
    assert "syntax error region not followed" in raised.value.hint


def test_destructured_and_signature_members_get_rows(tmp_path: Path, no_passthrough: None) -> None:
    text = (
        "export const { t, locale: current, ...rest } = useI18n()\n"
        "export interface Factory {\n  (name: string): Widget\n  new (size: number): Widget\n"
        "  readonly [key: string]: unknown\n}\n" + PAD
    )
    result = code(tmp_path, write(tmp_path, "i18n.ts", text))
    doc = document(result, "i18n.ts")
    assert [(c["name"], c["value"]) for c in doc["constants"]] == [
        ("{t, locale: current, ...rest}", "useI18n()")
    ]
    assert [(f["owner"], f["name"], f["sig"]) for f in doc["functions"][:2]] == [
        ("Factory", "(call)", "(name: string): Widget"),
        ("Factory", "(new)", "(size: number): Widget"),
    ]
    assert [(p["name"], p["type"]) for p in doc["properties"]] == [("[key: string]", "unknown")]
    assert followed_notes(result) == []


def test_python_tuple_assignments_give_one_row_per_name(tmp_path: Path, no_passthrough: None) -> None:
    body = "".join(
        f"def f{i}(x):\n" + f"    x = x * {i} + len(str(x)) - {i} // 3 + abs(x)\n" * 5 + "    return x\n\n"
        for i in range(30)
    )
    result = code(
        tmp_path, write(tmp_path, "flags.py", f"FTEXT, FHCRC, (FEXTRA, *REST) = 1, 2, 4, 8\n{body}")
    )
    rows = [(c["name"], c["kind"]) for c in document(result, "flags.py")["constants"]]
    assert rows == [("FTEXT", "const"), ("FHCRC", "const"), ("FEXTRA", "const"), ("REST", "const")]


def stdlib_files() -> list[Path]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    found = sorted(p for p in stdlib.glob("*.py") if p.stat().st_size >= 8192)
    return found[:: max(1, len(found) // 60)]


@pytest.mark.parametrize("path", stdlib_files(), ids=lambda p: p.name)
def test_ordinary_stdlib_files_get_no_note(path: Path, no_passthrough: None) -> None:
    result = code(path.parent, path.name)
    assert followed_notes(result) == []


FIXTURE_FILES = sorted(
    p for p in FIXTURES.rglob("*") if p.suffix in {".go", ".php", ".py", ".ts", ".tsx", ".js", ".vue"}
)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_ordinary_fixture_files_get_no_note(path: Path, no_passthrough: None) -> None:
    result = code(FIXTURES, str(path.relative_to(FIXTURES)))
    assert followed_notes(result) == []
