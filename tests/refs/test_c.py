"""refs in C: functions and their prototypes as definitions, calls, a struct's uses as types, a
member called through a pointer typed by its declaration is exact, comments and strings apart."""

from __future__ import annotations

from pathlib import Path

from tests.code.conftest import FIXTURES
from tests.refs.conftest import accounted, entry, refs, uses

C = FIXTURES / "c"


def test_a_function_its_prototype_and_a_same_named_field() -> None:
    item = entry(refs(C, "copy_task"), "copy_task")
    assert [(d["file"], d["line"], d["kind"], d["qname"]) for d in item["definitions"]] == [
        ("lib/user.c", 4, "property", "ops.copy_task"),  # int (*copy_task)(int flags);
        ("src/task.c", 41, "function", "copy_task"),
        ("src/task.h", 30, "prototype", "copy_task"),
    ]
    assert uses(item) == {
        ("src/task.c", 89, "call", "exact"),  # in the file defining it
        ("lib/user.c", 10, "call", "name"),  # through the header: C does not say which one
        ("lib/user.c", 11, "call", "exact"),  # ops->copy_task(1): ops is a struct ops *
    }
    assert item["totals"]["in_comments"] == 3 and item["totals"]["in_strings"] == 1
    assert accounted(item) == item["totals"]["text"]


def test_a_struct_is_used_as_a_type() -> None:
    item = entry(refs(C, "task"), "task")
    assert [(d["file"], d["line"], d["kind"]) for d in item["definitions"]] == [("src/task.h", 18, "struct")]
    found = uses(item)
    assert {kind for _, _, kind, _ in found} == {"type"}
    assert ("src/task.h", 21, "type", "exact") in found  # struct task *parent; in the same file
    assert ("lib/user.c", 14, "type", "name") in found  # sizeof(struct task)


def test_a_macro_and_a_constant_are_definitions() -> None:
    item = entry(refs(C, "MAX_TASKS"), "MAX_TASKS")
    assert [(d["line"], d["kind"]) for d in item["definitions"]] == [(9, "constant")]
    assert uses(item) == {("src/task.c", 30, "reference", "exact")}
    macro = entry(refs(C, "task_alive"), "task_alive")
    assert [(d["line"], d["kind"]) for d in macro["definitions"]] == [(11, "macro")]
    assert uses(macro) == {("src/task.c", 81, "call", "exact")}


def test_locals_and_parameters_are_not_uses() -> None:
    item = entry(refs(C, "copy"), "copy")
    assert item["totals"]["uses"] == 0
    assert item["totals"]["locals"] == 3


def test_a_typedef_named_on_its_closing_brace_line_in_a_large_file(tmp_path: Path) -> None:
    """A large file is read through the declarations holding the name (`sofia.syntax.regions`):
    the line `} buf_t;` belongs to the typedef it closes, so the name there is its definition."""
    filler = "".join(f"static int filler_{i}(void)\n{{\n\treturn {i};\n}}\n\n" for i in range(60))
    typedef = "typedef struct _buf {\n\tint n;\n} buf_t;\n\n"
    user = "static int size(buf_t *b)\n{\n\treturn b->n;\n}\n"
    (tmp_path / "buf.c").write_text("#include <a.h>\n\n" + filler + typedef + filler + user)
    item = entry(refs(tmp_path, "buf_t"), "buf_t")
    line = 3 + filler.count("\n") + 2
    assert [(d["line"], d["kind"]) for d in item["definitions"]] == [(line, "type")]
    assert uses(item) == {("buf.c", line + 2 + filler.count("\n"), "type", "exact")}


def test_a_struct_named_inside_its_typedef_is_not_the_typedefs_member(tmp_path: Path) -> None:
    """`typedef struct cell_s {...} Cell;` puts the struct inside the typedef's bytes; the struct
    is the file's own `cell_s`, not `Cell.cell_s`, and a same-named typedef is not its owner."""
    (tmp_path / "cell.h").write_text(
        "typedef struct cell_s {\n\tint v;\n} Cell;\n\ntypedef struct Word {\n\tint len;\n} Word;\n"
    )
    cell = entry(refs(tmp_path, "cell_s"), "cell_s")
    assert [(d["line"], d["kind"], d["qname"]) for d in cell["definitions"]] == [(1, "struct", "cell_s")]
    word = refs(tmp_path, "Word")
    assert [(d["line"], d["kind"], d["qname"]) for d in entry(word, "Word")["definitions"]] == [
        (5, "struct", "Word"),
        (7, "type", "Word"),
    ]
    assert not any("qualify it" in note for note in word["notes"])
