"""Bare names that reach a type's members without `this`: in the body of a C++ member defined out
of line (`void Dataset::Foo() { ResizeRaw(3); }`, its `this` is a Dataset too), and in a nested
class calling its enclosing class's method (Java's `tabAt(i)` inside `Map.TreeBin`). A bare name no
definition puts in the type stays a free name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.refs.conftest import entry, refs, rows, uses

HEADER = """namespace ns {
class Dataset {
 public:
  void ResizeRaw(int n);
  void Foo();
  static Dataset* Create(int k);
  int size_;
};
}
"""
SOURCE = """#include "dataset.h"
namespace ns {
void Dataset::ResizeRaw(int n) {}
void Dataset::Foo() {
  ResizeRaw(3);
  this->ResizeRaw(4);
  size_ = 1;
  helper(size_);
}
Dataset* Dataset::Create(int k) {
  if (k) return Create(k - 1);
  return nullptr;
}
}
"""
HELPER = "namespace ns {\nvoid helper(int x) {}\n}\n"


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    (tmp_path / "dataset.h").write_text(HEADER)
    (tmp_path / "dataset.cpp").write_text(SOURCE)
    (tmp_path / "helper.cpp").write_text(HELPER)
    return tmp_path


def test_an_out_of_line_members_bare_calls_and_this_reach_its_class(dataset: Path) -> None:
    result = refs(dataset, "Dataset::ResizeRaw", "Dataset::Create", "Dataset::size_")
    assert uses(entry(result, "Dataset::ResizeRaw")) == {
        ("dataset.cpp", 5, "call", "exact"),
        ("dataset.cpp", 6, "call", "exact"),
    }
    assert uses(entry(result, "Dataset::Create")) == {("dataset.cpp", 11, "call", "exact")}  # recursive
    assert uses(entry(result, "Dataset::size_")) == {
        ("dataset.cpp", 7, "reference", "exact"),
        ("dataset.cpp", 8, "reference", "exact"),
    }


def test_a_bare_call_no_definition_puts_in_the_class_is_a_free_functions(dataset: Path) -> None:
    item = entry(refs(dataset, "helper"), "helper")
    assert [d["qname"] for d in item["definitions"]] == ["ns::helper"]
    assert uses(item) == {("dataset.cpp", 8, "call", "name")}
    assert item["totals"].get("elsewhere", 0) == 0


@pytest.mark.parametrize(
    ("file", "source"),
    [
        (
            "Map.java",
            "class Map {\n  static int tabAt(int i) { return i; }\n"
            "  static final class TreeBin {\n    int find() { return tabAt(3); }\n  }\n"
            "  class Iter {\n    int next() { return tabAt(4); }\n  }\n}\n"
            "class Other {\n  static int tabAt(int i) { return 0; }\n  int g() { return tabAt(1); }\n}\n",
        ),
        (
            "Map.cs",
            "class Map {\n  static int tabAt(int i) => i;\n"
            "  sealed class TreeBin {\n    int Find() => tabAt(3);\n  }\n"
            "  class Iter {\n    int Next() => tabAt(4);\n  }\n}\n"
            "class Other {\n  static int tabAt(int i) => 0;\n  int G() => tabAt(1);\n}\n",
        ),
    ],
)
def test_a_nested_class_reaches_its_enclosing_classs_method(tmp_path: Path, file: str, source: str) -> None:
    (tmp_path / file).write_text(source)
    item = entry(refs(tmp_path, "Map.tabAt"), "Map.tabAt")
    assert uses(item) == {(file, 4, "call", "exact"), (file, 7, "call", "exact")}
    assert item["totals"]["elsewhere"] == 2  # Other.tabAt and Other's own call of it


INHERITED = [
    (
        "Shapes.java",
        "class Base {\n  void draw() {}\n}\nclass Square extends Base {\n  void paint() { draw(); }\n}\n"
        "class Lone {\n  void draw() {}\n  void show() { draw(); }\n}\n"
        "class Screen extends android.app.Activity {\n  void open() { draw(); }\n}\n",
    ),
    (
        "Shapes.cs",
        "class Base {\n  public void draw() {}\n}\nclass Square : Base {\n  void paint() { draw(); }\n}\n"
        "class Lone {\n  void draw() {}\n  void show() { draw(); }\n}\n"
        "class Screen : Android.App.Activity {\n  void open() { draw(); }\n}\n",
    ),
    (
        "Shapes.kt",
        "open class Base {\n    fun draw() {}\n}\nclass Square : Base() {\n    fun paint() { draw() }\n}\n"
        "class Lone {\n    fun draw() {}\n    fun show() { draw() }\n}\n"
        "class Screen : android.app.Activity() {\n    fun open() { draw() }\n}\n",
    ),
    (
        "Shapes.swift",
        "class Base {\n  func draw() {}\n}\nclass Square: Base {\n  func paint() { draw() }\n}\n"
        "class Lone {\n  func draw() {}\n  func show() { draw() }\n}\n"
        "class Screen: UIViewController {\n  func open() { draw() }\n}\n",
    ),
    (
        "Shapes.cpp",
        "class Base {\n public: void draw() {}\n};\nclass Square : public Base {\n  void paint() { draw(); }\n};\n"
        "class Lone {\n  void draw() {}\n  void show() { draw(); }\n};\n"
        "class Screen : public QWidget {\n  void open() { draw(); }\n};\n",
    ),
]


@pytest.mark.parametrize(("file", "source"), INHERITED, ids=[case[0] for case in INHERITED])
def test_a_bare_call_of_an_inherited_method_is_the_parents(tmp_path: Path, file: str, source: str) -> None:
    """`draw()` in a subclass of Base is Base's; in a class whose chain is whole and unrelated it
    is its own; in one whose parent is outside the tree it may be either (`name`)."""
    (tmp_path / file).write_text(source)
    item = entry(refs(tmp_path, "Base.draw"), "Base.draw")
    assert uses(item) == {(file, 5, "call", "exact"), (file, 12, "call", "name")}
    assert item["totals"]["elsewhere"] == 2  # Lone.draw and Lone.show's call of it


def test_an_extensions_bare_call_is_the_extended_types(tmp_path: Path) -> None:
    (tmp_path / "Store.swift").write_text(
        "class Store {\n  func save(_ x: Int) {}\n}\n"
        "extension Store {\n  func again() { save(3) }\n}\n"
        "class Other {\n  func save(_ x: Int) {}\n}\n"
    )
    (tmp_path / "More.swift").write_text("extension Store {\n  func twice() { save(1); save(2) }\n}\n")
    item = entry(refs(tmp_path, "Store.save"), "Store.save")
    assert uses(item) == {
        ("Store.swift", 5, "call", "exact"),
        ("More.swift", 2, "call", "exact"),
    }
    assert [row["col"] for row in rows(item, "exact") if row["file"] == "More.swift"] == [18, 27]


def test_a_bare_call_of_a_top_level_function_from_a_class_stays_the_functions(tmp_path: Path) -> None:
    (tmp_path / "Util.kt").write_text("package shop\n\nfun slug(x: String) = x\n")
    (tmp_path / "Cart.kt").write_text('package shop\n\nclass Cart {\n    fun key() = slug("a")\n}\n')
    item = entry(refs(tmp_path, "slug"), "slug")
    assert [d["qname"] for d in item["definitions"]] == ["slug"]
    assert uses(item) == {("Cart.kt", 4, "call", "exact")}  # Cart's package declares it
    assert item["totals"].get("elsewhere", 0) == 0
