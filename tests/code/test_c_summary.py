"""C summaries: includes, types, functions with their signatures (the name cut out of nested
declarators), `static` as private, attributes, fields and globals with their whole declared
types, #defines as constants or macros, enumerators as cases; exported, brief, slices by name."""

from __future__ import annotations

from typing import Any

from tests.code.conftest import FIXTURES, code, slice_text
from tests.code.summarised import summarised

C = FIXTURES / "c"
TASK = "src/task.c"


def rows(table: list[dict[str, Any]], *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(c, "") for c in columns) for row in table]


def test_includes_and_types() -> None:
    summary = summarised(C, TASK)
    assert summary["lang"] == "c"
    assert summary["imports"] == ["<linux/slab.h>", "<linux/init.h>", "task.h"]
    assert rows(summary["types"], "kind", "name", "line", "end_line") == [
        ("enum", "task_state", 13, 17),
        ("union", "task_id", 19, 22),
        ("type", "task_queue_t", 27, 27),
        ("struct", "task_queue", 24, 27),
    ]


def test_functions_with_signatures_visibility_and_attributes() -> None:
    functions = rows(
        summarised(C, TASK)["functions"], "name", "sig", "line", "end_line", "vis", "mods", "attrs"
    )
    assert functions == [
        ("task_alive", "(t)", 11, 11, "public", "", ""),
        ("free_task", "void (struct task *t)", 33, 33, "private", "", ""),  # the prototype
        (
            "copy_task",
            "struct task *(const struct task *from, unsigned long flags)",
            41,
            49,
            "private",
            "",
            "",
        ),
        ("task_hash", "unsigned long (int pid)", 52, 55, "public", "", ""),
        ("task_init", "int (void)", 57, 61, "private", "", ""),  # __init read as a blank
        ("task_panic", "void (const char *why)", 63, 67, "public", "", "__attribute__((noreturn))"),
        ("free_task", "void (struct task *t)", 69, 73, "private", "", ""),
        ("release_task", "void (struct task *t)", 75, 84, "public", "", ""),
        ("spawn", "SYSCALL_DEFINE2(spawn, int, pid, unsigned long, flags)", 87, 92, "public", "", ""),
        ("task_stats", "int (void)", 95, 98, "public", "", ""),
        ("task_stats", "int (void)", 100, 103, "private", "inline", ""),
    ]


def test_fields_globals_defines_and_enumerators() -> None:
    summary = summarised(C, TASK)
    assert rows(summary["properties"], "owner", "name", "type") == [
        ("task_id", "number", "int"),
        ("task_id", "tag", "char [4]"),
        ("task_queue", "head", "struct task *"),
        ("task_queue", "length", "size_t"),
    ]
    assert rows(summary["constants"], "kind", "name", "type", "value") == [
        ("const", "MAX_TASKS", "", "512"),
        ("const", "TASK_ALIVE", "", "0x01"),
        ("var", "nr_tasks", "int", ""),
        ("const", "max_tasks", "const int", ""),  # = MAX_TASKS: a name, not a literal
        ("var", "state_names", "const char *const[]", ""),
    ]
    assert rows(summary["cases"], "owner", "name", "value") == [
        ("task_state", "TASK_NEW", "1"),
        ("task_state", "TASK_RUNNING", ""),
        ("task_state", "TASK_DEAD", "8"),
    ]


def test_a_header_lists_its_prototypes_and_a_struct_with_its_pointer_fields() -> None:
    summary = summarised(C, "src/task.h")
    assert summary["lang"] == "c"
    assert rows(summary["functions"], "name", "sig") == [
        ("TASK_NAME", "(t)"),
        ("copy_task", "struct task *(const struct task *from, unsigned long flags)"),
        ("release_task", "void (struct task *t)"),
    ]
    assert ("task", "release", "void (*)(struct task *t)") in rows(
        summary["properties"], "owner", "name", "type"
    )
    assert ("task", "comm", "char [TASK_COMM_LEN]") in rows(summary["properties"], "owner", "name", "type")


def test_exported_leaves_static_out() -> None:
    summary = summarised(C, TASK, exported=True)
    assert [f["name"] for f in summary["functions"]] == [
        "task_alive",
        "task_hash",
        "task_panic",
        "release_task",
        "spawn",
        "task_stats",
    ]


def test_brief_keeps_signatures_only() -> None:
    summary = summarised(C, TASK, brief=True)
    assert "imports" not in summary and "properties" not in summary
    assert summary["functions"][2]["sig"] == "struct task *(const struct task *from, unsigned long flags)"


def test_slices_through_code_and_by_name_across_directories(no_passthrough: None) -> None:
    text = slice_text(code(C, TASK, symbols=["copy_task", "spawn"]))
    assert text.startswith("// --- copy_task (src/task.c:35-49) ---\n/**\n * copy_task - duplicate a task\n")
    assert (
        "// --- spawn (src/task.c:87-92) ---\nSYSCALL_DEFINE2(spawn, int, pid, unsigned long, flags)\n{\n"
        in text
    )
    found = code(C, ".", symbols=["copy_task"])
    assert [(f["path"], [s["symbol"] for s in f["slices"]]) for f in found["files"]] == [
        ("src/task.c", ["copy_task"]),
        ("src/task.h", ["copy_task"]),
    ]
