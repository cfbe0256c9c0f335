"""Vue SFC symbols: `<template>`, `<script>`, `<style>` pseudo-symbols, script symbols on the file's
own lines, both scripts of an SFC, Options API members, template-only components."""

from __future__ import annotations

from pathlib import Path

from sofia.syntax import parse, parse_file, slice_text

VUE = Path(__file__).resolve().parent.parent / "fixtures" / "code" / "vue" / "src"


def outline(path: Path) -> list[tuple[str, str, int, int]]:
    tree = parse_file(path)
    assert tree is not None and tree.parse_errors == 0
    return [(s.kind, s.qname, s.line, s.end_line) for s in tree.walk()]


def test_setup_script_symbols_keep_file_lines() -> None:
    path = VUE / "views" / "MyTasksView.vue"
    lines = path.read_text().splitlines()
    assert outline(path) == [
        ("script", "<script>", 1, 45),
        ("const", "props", 7, 10),
        ("const", "emit", 12, 15),
        ("const", "open", 17, 17),
        ("const", "auth", 19, 19),
        ("const", "loading", 20, 20),
        ("const", "task", 21, 21),
        ("const", "canLog", 22, 22),
        ("function", "load", 24, 31),
        ("function", "close", 33, 36),
        ("function", "onLogged", 38, 41),
        ("template", "<template>", 47, 67),
        ("style", "<style>", 69, 83),
    ]
    assert lines[23] == "async function load(): Promise<void> {"
    assert (lines[44], lines[46], lines[66]) == ("</script>", "<template>", "</template>")


def test_script_and_script_setup() -> None:
    tree = parse_file(VUE / "components" / "TaskDialog.vue")
    assert tree is not None
    assert [s.qname for s in tree.symbols] == ["<script>", "<script>", "<template>"]
    assert len(tree.trees) == 2
    assert [s.qname for s in tree.symbols[1].children][:2] == ["Props", "props"]
    assert tree.enclosing(38) is not None and tree.enclosing(38).qname == "submit"  # type: ignore[union-attr]
    assert tree.enclosing(31).qname == "<script>"  # type: ignore[union-attr]


def test_options_api_members() -> None:
    names = outline(VUE / "components" / "UserCard.vue")
    assert [q for _, q, _, _ in names] == [
        "<template>",
        "<script>",
        "UserCard",
        "UserCard.data",
        "UserCard.fullName",
        "UserCard.initials",
        "UserCard.user.id",
        "UserCard.selected",
        "UserCard.select",
        "UserCard.remove",
        "<style>",
    ]
    assert ("method", "UserCard.select", 58, 60) in names


def test_options_api_members_take_the_component_name_when_given() -> None:
    from sofia.syntax import vue

    source = (VUE / "components" / "UserCard.vue").read_bytes()
    tree = vue.extract(source, name="UserCard.vue")
    assert "UserCard.select" in tree.qnames()
    assert tree.find("UserCard.select")[0].owner == "UserCard"


def test_template_only_component() -> None:
    assert outline(VUE / "components" / "EmptyState.vue") == [
        ("template", "<template>", 1, 12),
        ("style", "<style>", 14, 19),
    ]


def test_template_slice_is_byte_exact() -> None:
    path = VUE / "views" / "MyTasksView.vue"
    tree = parse_file(path)
    assert tree is not None
    template = tree.find("<template>")[0]
    lines = path.read_bytes().split(b"\n")
    assert slice_text(tree.source, template) == b"\n".join(lines[46:67]) + b"\n"


def test_languages_of_script_blocks() -> None:
    source = (
        b'<script lang="tsx">\nexport const Row = (p: { n: number }) => <td>{p.n}</td>\n</script>\n'
        b'<script setup lang="coffee">\nx = 1\n</script>\n'
        b'<script src="./external.js"></script>\n'
    )
    tree = parse(source, "vue")
    assert [(s.qname, [c.qname for c in s.children]) for s in tree.symbols] == [
        ("<script>", ["Row"]),
        ("<script>", []),
        ("<script>", []),
    ]
    assert len(tree.trees) == 1


def test_crlf_sfc_keeps_lines() -> None:
    source = (
        b"<template>\r\n  <div />\r\n</template>\r\n\r\n<script setup>\r\nfunction go() {}\r\n</script>\r\n"
    )
    tree = parse(source, "vue")
    go = tree.find("go")[0]
    assert (go.line, go.end_line) == (6, 6)
    assert slice_text(source, go) == b"function go() {}\r\n"
