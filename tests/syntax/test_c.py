"""C symbols: functions found through nested declarators, prototypes, macro-made functions,
structs, unions, enums, typedefs, #defines and globals; slices with their doc comments; the
kernel's attribute macros and a region the grammar gives up on; `.h` decided by content."""

from __future__ import annotations

import pytest

from sofia.syntax import parse, slice_text, touched_symbols
from sofia.syntax.languages.c import header_language
from sofia.syntax.languages.cmacros import prepare_c, prepare_cpp
from tests.code.conftest import FIXTURES

C = FIXTURES / "c"
TASK_C = C / "src" / "task.c"
TASK_H = C / "src" / "task.h"


def test_every_declaration_with_its_kind_and_line() -> None:
    tree = parse(TASK_C.read_bytes(), "c", "src/task.c")
    assert [(s.kind, s.qname, s.line, s.end_line) for s in tree.walk()] == [
        ("constant", "MAX_TASKS", 9, 9),
        ("constant", "TASK_ALIVE", 10, 10),
        ("macro", "task_alive", 11, 11),
        ("enum", "task_state", 13, 17),
        ("union", "task_id", 19, 22),
        ("type", "task_queue_t", 27, 27),
        ("struct", "task_queue", 24, 27),
        ("var", "nr_tasks", 29, 29),
        ("constant", "max_tasks", 30, 30),
        ("var", "state_names", 31, 31),
        ("prototype", "free_task", 33, 33),
        ("function", "copy_task", 41, 49),  # static struct task *copy_task(...): inside a pointer declarator
        ("function", "task_hash", 52, 55),  # the return type on the line before
        ("function", "task_init", 57, 61),  # static int __init task_init(void)
        ("function", "task_panic", 63, 67),
        ("function", "free_task", 69, 73),
        ("function", "release_task", 75, 84),  # an #ifdef inside its condition
        ("function", "spawn", 87, 92),  # SYSCALL_DEFINE2(spawn, ...) { ... }
        ("function", "task_stats", 95, 98),
        ("function", "task_stats", 100, 103),  # the #else variant
    ]


def test_a_typedef_of_an_anonymous_struct_names_it_and_an_alias_owns_no_fields() -> None:
    tree = parse(TASK_H.read_bytes(), "c", "src/task.h")
    assert [(s.kind, s.qname) for s in tree.walk()] == [
        ("constant", "TASK_COMM_LEN"),
        ("macro", "TASK_NAME"),
        ("struct", "task"),
        ("struct", "task_flags_t"),
        ("prototype", "copy_task"),  # in the extern "C" block of a header wrapped for C++
        ("prototype", "release_task"),
        ("var", "nr_tasks"),
    ]
    assert header_language(TASK_H.read_bytes()) == "c"


def test_slices_hold_the_doc_comment_and_a_macro_made_function_its_body() -> None:
    source = TASK_C.read_bytes()
    tree = parse(source, "c", "src/task.c")
    (copy,) = tree.find("copy_task")
    text = slice_text(source, copy).decode()
    assert text.startswith("/**\n * copy_task - duplicate a task\n")
    assert text.rstrip().endswith("return p;\n}")
    (spawn,) = tree.find("spawn")
    assert (
        slice_text(source, spawn)
        .decode()
        .startswith("SYSCALL_DEFINE2(spawn, int, pid, unsigned long, flags)\n{")
    )
    assert slice_text(source, spawn).decode().rstrip().endswith("return t ? t->pid : -1;\n}")
    (hashing,) = tree.find("task_hash")
    assert slice_text(source, hashing).decode().startswith("unsigned long\ntask_hash(int pid)\n")
    (queue,) = tree.find("task_queue_t")
    assert slice_text(source, queue).decode().startswith("typedef struct task_queue {")


def test_grep_and_changed_name_the_function_holding_a_line() -> None:
    source = TASK_C.read_bytes()
    tree = parse(source, "c", "src/task.c")
    assert tree.enclosing(90).qname == "spawn"  # type: ignore[union-attr]
    assert tree.enclosing(45).qname == "copy_task"  # type: ignore[union-attr]
    assert tree.enclosing(16).qname == "task_state"  # type: ignore[union-attr]
    edited = source.replace(b"nr_tasks = 0;", b"nr_tasks = 1;")
    assert touched_symbols("c", source, edited, [(59, 59)], [(59, 59)]) == ["task_init"]


def test_functions_after_a_misread_one_are_found_at_file_level() -> None:
    # A loop macro after a block (`} while_each_thread(g, t);`) leaves the grammar's function open
    # over every function after it; a file-level function holding a `}` in column 0 before its end
    # is parsed again piece by piece, and a loop macro with its block is no function.
    after = b"".join(
        b"\nstatic int after_%d(struct opts *o)\n{\n\tint x = %d;\n\n\treturn x;\n}\n" % (i, i)
        for i in range(3)
    )
    source = (
        b"static long wait_all(struct opts *o)\n{\n\tlong ret;\n\n\tif (o->one) {\n\t\tret = wait_one(o);\n"
        b"\t} else {\n\t\tstruct task *t = current;\n\n\t\tdo {\n\t\t\tret = wait_thread(o, t);\n"
        b"\t\t} while_each_thread(current, t);\n\t}\n\treturn ret;\n}\n" + after
    )
    tree = parse(source, "c", "wait.c")
    assert [(s.qname, s.line, s.end_line) for s in tree.walk()] == [
        ("wait_all", 1, 15),
        ("after_0", 17, 22),
        ("after_1", 24, 29),
        ("after_2", 31, 36),
    ]


def test_attribute_macros_are_blanked_at_the_same_length() -> None:
    source = (
        b"static int __init setup(char *str)\n{ return 0; }\nvoid __printf(1, 2) say(const char *f, ...);\n"
    )
    prepared = prepare_c(source)
    assert len(prepared) == len(source)
    assert prepared.startswith(b"static int        setup(char *str)")
    assert b"void                say(" in prepared
    tree = parse(source, "c", "x.c")
    assert [(s.kind, s.qname, s.line) for s in tree.walk()] == [
        ("function", "setup", 1),
        ("prototype", "say", 3),
    ]


def test_project_macros_are_blanked_where_only_an_attribute_can_stand() -> None:
    source = (
        b"FMT_BEGIN_NAMESPACE\n"
        b"class FMT_API format_error : public std::runtime_error {\n"
        b" public:\n"
        b"  FMT_CONSTEXPR20 format_error(int code);\n"
        b"  int code() const FMT_NOEXCEPT { return 0; }\n"
        b"};\n"
        b"FMT_END_NAMESPACE\n"
    )
    prepared = prepare_cpp(source)
    assert len(prepared) == len(source)
    assert prepared.splitlines() == [
        b" " * 19,
        b"class         format_error : public std::runtime_error {",
        b" public:",
        b"                  format_error(int code);",
        b"  int code() const              { return 0; }",
        b"};",
        b" " * 17,
    ]
    kept = b"enum { A_ONE,\n  A_TWO\n};\n#define X_Y int\nSYSCALL_DEFINE0(fork)\n{\n}\n"
    assert prepare_c(kept) == kept  # an enumerator, a #define's own name, a macro defining a function


@pytest.mark.parametrize(
    ("source", "lang"),
    [
        (b"class Foo {\n};\n", "cpp"),
        (b"namespace a {\nint f();\n}\n", "cpp"),
        (b"template <typename T> T max(T a, T b);\n", "cpp"),
        (b"struct S {\n public:\n  int x;\n};\n", "cpp"),
        (b"#include <vector>\n", "cpp"),
        (b'#include "util.hpp"\n', "cpp"),
        (b"int *p = nullptr;\n", "cpp"),
        (b"void Foo::bar(void);\n", "cpp"),
        (b'extern "C++" {\n}\n', "cpp"),
        (b"/* class Foo { */\nint x;\n", "c"),
        (b'const char *s = "namespace a {";\n', "c"),
        (b"// std::vector<int> v;\nint v;\n", "c"),
        (b'#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n', "c"),
        (b"struct class_info *class;\nint public_count;\n", "c"),
        (b"[[gnu::unused]] static int x;\n", "c"),
        (b'#include <stdio.h>\n#include "local.h"\n', "c"),
    ],
)
def test_a_header_is_cpp_by_its_content_outside_comments_and_strings(source: bytes, lang: str) -> None:
    assert header_language(source) == lang


def test_a_dot_h_with_cpp_content_is_read_as_cpp_and_a_dot_c_never_is() -> None:
    source = b"namespace legacy {\nclass Store {\n public:\n  void save(int id);\n};\n}\n"
    assert parse(source, "c", "store.h").lang == "cpp"
    assert [s.qname for s in parse(source, "c", "store.h").walk()] == [
        "legacy",
        "legacy::Store",
        "legacy::Store::save",
    ]
    assert parse(b"int nullptr_count(void) { return 0; }\n", "c", "count.c").lang == "c"
