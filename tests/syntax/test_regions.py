"""refs and a lookup by name read a large C file through the file-level declarations holding the
name only: those are prepared (attribute macros blanked) and parsed, and their occurrences
classify, and their definitions slice, as on the whole file's tree."""

from __future__ import annotations

from sofia.syntax import parse, queried, regions, slice_text
from sofia.syntax.languages import cmacros
from sofia.syntax.uses import analyze, syntax_of

FILLER = "".join(f"static int __init filler_{i}(void)\n{{\n\treturn {i};\n}}\n\n" for i in range(60))
TARGET = (
    "static void __init drop(struct task *t)\n{\n"
    "\t/* kfree the task */\n\tkfree(t->name);\n\tkfree(t);\n}\n\n"
)
SOURCE = ("#include <linux/slab.h>\n\n" + FILLER + TARGET + FILLER).encode()


def occurrences(words: tuple[str, ...]) -> list[tuple[int, str, str]]:
    syntax = syntax_of(SOURCE, "c", words)
    found = analyze(syntax, "drop.c", ["kfree"]).occurrences["kfree"]
    return [(o.start, o.role, o.kind) for o in found]


def test_only_the_function_holding_the_name_is_parsed() -> None:
    positions = [i for i in range(len(SOURCE)) if SOURCE.startswith(b"kfree", i)]
    spans = regions.column_zero_braces(SOURCE, positions)
    (tree,) = queried.trees(SOURCE, "c", ["kfree"])
    parsed = [(child.start_byte, child.end_byte) for child in tree.root_node.children]
    assert len(spans) == 1 and all(spans[0][0] <= start and end <= spans[0][1] for start, end in parsed)
    assert [child.type for child in tree.root_node.children] == ["function_definition"]


def test_the_region_is_prepared_as_in_the_whole_file_and_the_rest_left_alone() -> None:
    start = SOURCE.index(b"static void __init drop")
    spans = [(start, start + len(TARGET))]
    whole = cmacros.prepare_c(SOURCE)
    partly = regions.prepared(SOURCE, spans, cmacros.prepare_c)
    assert len(partly) == len(SOURCE)
    assert partly[spans[0][0] : spans[0][1]] == whole[spans[0][0] : spans[0][1]]
    assert b"__init" not in partly[spans[0][0] : spans[0][1]]
    assert partly[: spans[0][0]] == SOURCE[: spans[0][0]] and partly[spans[0][1] :] == SOURCE[spans[0][1] :]


def test_occurrences_classify_as_on_the_whole_file() -> None:
    assert occurrences(("kfree",)) == occurrences(())
    assert [(role, kind) for _, role, kind in occurrences(("kfree",))] == [
        ("comment", ""),
        ("use", "call"),
        ("use", "call"),
    ]


def spans_of(tree: object, name: str) -> list[tuple[int, int, bytes]]:
    found = [s for s in tree.symbols if s.name == name]  # type: ignore[attr-defined]
    return [(s.line, s.end_line, slice_text(SOURCE, s)) for s in found]


def test_a_lookup_parses_the_declarations_holding_the_name_and_slices_as_the_whole_file() -> None:
    held = parse(SOURCE, "c", "drop.c", holding=["drop"])
    assert [s.name for s in held.symbols] == ["drop"]
    assert spans_of(held, "drop") == spans_of(parse(SOURCE, "c", "drop.c"), "drop")


def held_and_whole(
    piece: str, name: str
) -> tuple[list[tuple[int, int, bytes]], list[tuple[int, int, bytes]]]:
    source = ("#include <a.h>\n\n" + FILLER + piece + FILLER).encode()
    held = parse(source, "c", "piece.c", holding=[name])
    found = [(s.line, s.end_line, slice_text(source, s)) for s in held.symbols if s.name == name]
    whole = parse(source, "c", "piece.c")
    return found, [(s.line, s.end_line, slice_text(source, s)) for s in whole.symbols if s.name == name]


def test_a_name_on_a_closing_brace_line_is_in_the_declaration_it_closes() -> None:
    held, whole = held_and_whole("typedef struct _buf {\n\tint n;\n} buf_t;\n\n", "buf_t")
    assert held == whole and len(held) == 1 and held[0][2].rstrip().endswith(b"} buf_t;")


def test_a_brace_line_a_backslash_continues_is_inside_a_macro() -> None:
    macro = (
        "#define MAKE_READ(_f)\t\\\nstatic int read_##_f(void)\t\\\n{\t\\\n\treturn _f;\t\\\n}\t\\\n"
        "static int write_##_f(int v)\t\\\n{\t\\\n\treturn v;\t\\\n}\n\n"
    )
    held, whole = held_and_whole(macro, "MAKE_READ")
    assert held == whole and len(held) == 1 and held[0][1] - held[0][0] == 8
    source = (FILLER + macro + FILLER).encode()
    start = source.index(b"#define")
    assert regions.column_zero_braces(source, [start + 8]) == [(start - 1, start + len(macro) - 1)]


def test_a_name_the_regions_parse_reads_as_an_error_is_looked_up_in_the_whole_file() -> None:
    table = (
        'struct led leds[] = {\n{\n\t.name = "green",\n\t.gpio = 1,\n}, {\n\t.name = "amber",\n'
        "\t.gpio = 2,\n},\n};\n\n"
    )
    held, whole = held_and_whole(table, "leds")
    assert held == whole and len(held) == 1 and held[0][1] - held[0][0] == 8
