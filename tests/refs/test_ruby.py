"""refs in Ruby: `self`, a bare call inside the class and a local made by `Foo.new` are exact
receivers, a same-named method of an unrelated class is not; `Foo.new` is `new`, `< Base`
extends, `include M` implements; require paths, comments, strings and keyword argument names are
not uses."""

from __future__ import annotations

from pathlib import Path

from tests.code.conftest import FIXTURES
from tests.refs.conftest import entry, refs, rows, uses

RUBY = FIXTURES / "ruby"
APP = "lib/app.rb"
SHAPES = "lib/shapes.rb"


def test_definitions_of_a_name_on_three_classes() -> None:
    item = entry(refs(RUBY, "area"), "area")
    assert [(d["qname"], d["kind"], d["line"]) for d in item["definitions"]] == [
        ("Drawing#area", "method", 15),
        ("Geometry::Circle#area", "method", 40),
        ("Geometry::Square#area", "method", 81),
    ]


def test_receivers_and_comments_and_strings() -> None:
    item = entry(refs(RUBY, "Geometry::Circle#area"), "Geometry::Circle#area")
    exact = {(row["line"], row["col"]) for row in rows(item, "exact")}
    assert exact == {
        (11, 12),
        (45, 7),
        (56, 16),
    }  # circle = Geometry::Circle.new; bare area; circle = Circle.new
    found = uses(item)
    assert (SHAPES, 45, "call", "name") in found  # other.area: other is not known
    assert (SHAPES, 87, "call", "name") in found  # inside a string's interpolation
    assert item["totals"]["in_comments"] == 3 and item["totals"]["in_strings"] == 2
    drawing = entry(refs(RUBY, "Drawing#area"), "Drawing#area")
    assert drawing["totals"]["exact"] == 0  # nothing calls Drawing#area; Circle's are elsewhere


def test_self_calls_are_exact() -> None:
    item = entry(refs(RUBY, "Drawing#total"), "Drawing#total")
    assert uses(item) == {(APP, 16, "call", "exact")}  # self.total


def test_new_extends_and_implements(tmp_path: Path) -> None:
    (tmp_path / "base.rb").write_text("class Base\nend\n\nmodule Helpers\nend\n")
    (tmp_path / "child.rb").write_text(
        'require_relative "base"\n\nclass Child < Base\n  include Helpers\n\n'
        "  def self.make\n    Base.new(size: 1)\n  end\nend\n"
    )
    base = entry(refs(tmp_path, "Base"), "Base")
    assert {(row[0], row[1], row[2]) for row in uses(base)} == {
        ("child.rb", 3, "extends"),
        ("child.rb", 7, "new"),
    }
    helpers = entry(refs(tmp_path, "Helpers"), "Helpers")
    assert {(row[0], row[1], row[2]) for row in uses(helpers)} == {("child.rb", 4, "implements")}
    circle = entry(refs(RUBY, "Circle"), "Circle")
    assert {(row[0], row[1], row[2]) for row in uses(circle)} >= {
        (APP, 5, "new"),
        (APP, 9, "new"),
        (SHAPES, 55, "new"),
    }


def test_require_paths_and_keyword_names_are_not_uses(tmp_path: Path) -> None:
    (tmp_path / "size.rb").write_text("def size(n)\n  n\nend\n")
    (tmp_path / "main.rb").write_text('require_relative "size"\n\nputs size(1)\nbox(size: 2)\n')
    item = entry(refs(tmp_path, "size"), "size")
    # the require's path is a string; a top-level def is every object's, so the call is exact
    assert uses(item) == {("main.rb", 3, "call", "exact")}
    assert item["totals"]["in_strings"] == 1 and item["totals"]["other"] == 1


def test_an_instance_variable_made_by_new_types_the_classs_every_method(tmp_path: Path) -> None:
    """`@repo = Repo.new` in `initialize` types `@repo.save` in any method of that class, defined
    before or after it; another class's `@repo` is its own."""
    (tmp_path / "service.rb").write_text(
        "class Repo\n  def save; end\nend\n"
        "class Other\n  def save; end\nend\n"
        "class Service\n  def run\n    @repo.save\n  end\n\n  def initialize\n    @repo = Repo.new\n  end\nend\n"
        "class Archive\n  def initialize\n    @repo = Other.new\n  end\n\n  def run\n    @repo.save\n  end\nend\n"
    )
    item = entry(refs(tmp_path, "Repo#save"), "Repo#save")
    assert uses(item) == {("service.rb", 9, "call", "exact")}
    assert item["totals"]["elsewhere"] == 2  # Other#save and Archive's @repo.save


def test_an_instance_variable_memoised_with_or_equals_is_typed_too(tmp_path: Path) -> None:
    (tmp_path / "service.rb").write_text(
        "class Repo\n  def save; end\nend\n"
        "class Service\n  def repo\n    @repo ||= Repo.new\n  end\n\n  def run\n    @repo.save\n  end\nend\n"
    )
    assert uses(entry(refs(tmp_path, "Repo#save"), "Repo#save")) == {("service.rb", 10, "call", "exact")}
