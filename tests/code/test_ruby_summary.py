"""Ruby summaries: requires as imports, classes and modules with their superclass and mixins,
methods with parameter lists and the visibility their section or naming call gives them,
singleton methods marked `self`, `attr_*` properties, constants; slices through `code`."""

from __future__ import annotations

from typing import Any

from tests.code.conftest import FIXTURES, code, slice_text
from tests.code.summarised import summarised

RUBY = FIXTURES / "ruby"
SHAPES = "lib/shapes.rb"


def rows(table: list[dict[str, Any]], *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(c, "") for c in columns) for row in table]


def test_imports_and_types() -> None:
    document = summarised(RUBY, SHAPES)
    assert document["imports"] == ["json", "./support/units", "Matrix matrix"]
    assert rows(document["types"], "kind", "name", "line", "end_line", "extends", "uses") == [
        ("module", "Geometry", 8, 76, "", ""),
        ("module", "Geometry::Measurable", 13, 17, "", ""),
        ("class", "Geometry::Circle", 20, 75, "Shape", "Measurable, Comparable, extend Forwardable"),
        ("class", "Geometry::Square", 79, 84, "", ""),
    ]


def test_methods_visibility_and_singletons() -> None:
    functions = summarised(RUBY, SHAPES)["functions"]
    assert rows(functions, "owner", "name", "sig", "vis", "mods") == [
        ("Geometry::Measurable", "measured?", "()", "public", ""),
        ("Geometry::Circle", "unit", "()", "private", "self"),  # private_class_method :unit
        (
            "Geometry::Circle",
            "initialize",
            "(radius, centre = ORIGIN, *rest, name: nil, **opts, &block)",
            "public",
            "",
        ),
        ("Geometry::Circle", "area", "()", "public", ""),
        ("Geometry::Circle", "<=>", "(other)", "public", ""),
        ("Geometry::Circle", "radius=", "(value)", "public", ""),
        ("Geometry::Circle", "from_json", "(text)", "public", "self"),  # class << self
        ("Geometry::Circle", "cache", "()", "private", "self"),  # private inside class << self
        ("Geometry::Circle", "scale_by", "(factor)", "protected", ""),  # after a bare protected
        ("Geometry::Circle", "secret", "()", "private", ""),
        ("Geometry::Circle", "shown", "()", "public", ""),  # public def shown
        ("Geometry::Square", "area", "()", "public", ""),
        ("", "describe", "(shape)", "public", ""),
    ]


def test_properties_and_constants() -> None:
    document = summarised(RUBY, SHAPES)
    assert rows(document["properties"], "owner", "name") == [
        ("Geometry::Circle", "radius"),
        ("Geometry::Circle", "centre"),
        ("Geometry::Circle", "label"),
    ]
    assert rows(document["constants"], "owner", "name", "value") == [
        ("Geometry", "VERSION", '"2.1.0"'),
        ("Geometry", "ORIGIN", ""),  # not a literal
    ]


def test_sections_name_calls_and_attributes(tmp_path: Any) -> None:
    source = (
        "class Box\n  attr_reader :open\n  private\n  attr_writer :lid\n  def hide; end\n"
        "  public\n  def show; end\n  def later; end\n  private :later\n"
        "  SECRET = 1\n  private_constant :SECRET\nend\n"
    )
    (tmp_path / "box.rb").write_text(source)
    document = summarised(tmp_path, "box.rb")
    assert rows(document["properties"], "name", "vis") == [("open", "public"), ("lid", "private")]
    assert rows(document["functions"], "name", "vis") == [
        ("hide", "private"),
        ("show", "public"),
        ("later", "private"),
    ]
    exported = summarised(tmp_path, "box.rb", exported=True)
    assert [f["name"] for f in exported["functions"]] == ["show"]


def test_slices_through_code_in_every_spelling(no_passthrough: None) -> None:
    for spelling in ("Geometry::Circle#area", "Geometry::Circle::area", "Geometry.Circle.area"):
        text = slice_text(code(RUBY, SHAPES, symbols=[spelling]))
        assert text.startswith("# --- Geometry::Circle#area (lib/shapes.rb:39-42) ---\n    # The area,"), (
            spelling
        )
    found = code(RUBY, "lib", symbols=["area"])
    assert [(f["path"], s["symbol"]) for f in found["files"] for s in f["slices"]] == [
        ("lib/app.rb", "Drawing#area"),
        ("lib/shapes.rb", "Geometry::Circle#area"),
        ("lib/shapes.rb", "Geometry::Square#area"),
    ]
    single = slice_text(code(RUBY, SHAPES, symbols=["Geometry::Circle.from_json"]))
    assert "      def from_json(text)\n" in single
