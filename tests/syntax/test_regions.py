"""refs reads a large C file through the file-level declarations holding the name only: those are
prepared (attribute macros blanked) and parsed, and their occurrences classify as on the whole
file's tree."""

from __future__ import annotations

from sofia.syntax import queried, regions
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
