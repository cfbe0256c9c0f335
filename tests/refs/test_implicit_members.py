"""Bare names that reach a type's members without `this`: in the body of a C++ member defined out
of line (`void Dataset::Foo() { ResizeRaw(3); }`, its `this` is a Dataset too), and in a nested
class calling its enclosing class's method (Java's `tabAt(i)` inside `Map.TreeBin`). A bare name no
definition puts in the type stays a free name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.refs.conftest import entry, refs, uses

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
