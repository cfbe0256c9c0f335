"""Touched symbols of a diff: innermost symbols per changed line, whole symbols instead of their
members, `+`/`-` for symbols that exist on one side only."""

from __future__ import annotations

from sofia.syntax import touched_symbols

OLD = b"""class Cart:
    def add(self, item):
        self.items.append(item)

    def total(self):
        return sum(self.items)

    def clear(self):
        self.items = []


def helper():
    return 1
"""

NEW = b"""class Cart:
    def add(self, item):
        self.items.append(item)
        self.count += 1

    def total(self):
        return sum(self.items)


def helper():
    return 2


def fresh():
    return 3
"""


def test_new_side_then_old_only_with_markers() -> None:
    # new: line 4 (inside add), line 11 (helper body), 14-15 (fresh, whole); old: 7-9 (clear, deleted)
    names = touched_symbols("python", OLD, NEW, [(7, 9)], [(4, 4), (11, 11), (14, 15)])
    assert names == ["Cart.add", "helper", "+fresh", "-Cart.clear"]


def test_whole_class_replaces_its_methods() -> None:
    source = b"class A:\n    def x(self):\n        pass\n\n    def y(self):\n        pass\n"
    assert touched_symbols("python", None, source, [], [(1, 6)]) == ["+A"]
    assert touched_symbols("python", source, None, [(1, 6)], []) == ["-A"]


def test_lines_outside_symbols_name_nothing() -> None:
    assert touched_symbols("python", OLD, NEW, [], [(1, 1)]) == ["Cart"]
    assert touched_symbols("python", b"import os\n", b"import sys\n", [(1, 1)], [(1, 1)]) == []


def test_go_methods_and_unparsable_side() -> None:
    old = b"package p\n\nfunc (s *S) Run() {\n\ta()\n}\n"
    new = b"package p\n\nfunc (s *S) Run() {\n\tb()\n}\n"
    assert touched_symbols("go", old, new, [(4, 4)], [(4, 4)]) == ["S.Run"]
    too_large = b"//" * (3 * 1024 * 1024)
    assert touched_symbols("go", old, too_large, [(4, 4)], [(1, 1)]) is None
    assert touched_symbols("cobol", old, new, [(4, 4)], [(4, 4)]) is None


def test_doc_comments_and_decorators_belong_to_their_symbol() -> None:
    old = b"package p\n\n// Run runs.\nfunc Run() {}\n\n// Stop stops.\nfunc Stop() {}\n"
    new = b"package p\n\n// Run runs everything.\nfunc Run() {}\n\n// Stop stops.\nfunc Stop() {}\n"
    assert touched_symbols("go", old, new, [(3, 3)], [(3, 3)]) == ["Run"]
    added = b"package p\n\n// Run runs.\nfunc Run() {}\n\n// Halt halts.\nfunc Halt() {}\n\n// Stop stops.\nfunc Stop() {}\n"
    assert touched_symbols("go", old, added, [], [(6, 8)]) == ["+Halt"]
