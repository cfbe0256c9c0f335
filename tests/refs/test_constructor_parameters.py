"""A type's own parameters: a primary constructor's plain parameter (Scala, Kotlin, C#) is a local
of the type's body, never a use of a same-named method elsewhere; one that declares a field (a
Java record's component, a Kotlin `val`) is that field, and its uses are the field's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.refs.conftest import entry, refs, uses

OTHER = {
    "Setting.scala": "class Other {\n  def default(): Int = 1\n}\n",
    "Setting.kt": "class Other {\n    fun default(): Int = 1\n}\n",
    "Setting.cs": "class Other {\n    int @default() => 1;\n}\n",
}
PLAIN = {
    "Setting.scala": "class Setting(name: String, default: Int) {\n  def reset(): Int = default\n}\n",
    "Setting.kt": "class Setting(name: String, default: Int) {\n    val initial = default\n}\n",
    "Setting.cs": "class Setting(string name, int @default) {\n    int Reset() => @default;\n}\n",
}


@pytest.mark.parametrize("file", sorted(PLAIN))
def test_a_plain_constructor_parameter_is_a_local_of_the_type(tmp_path: Path, file: str) -> None:
    (tmp_path / file).write_text(PLAIN[file])
    (tmp_path / ("Other" + Path(file).suffix)).write_text(OTHER[file])
    item = entry(refs(tmp_path, "default"), "default")
    assert [d["qname"] for d in item["definitions"]] == ["Other.default"]
    assert uses(item) == set(), "the parameter's uses are not uses of Other.default"
    assert item["totals"]["locals"] == 2  # the parameter and its use in the body
    assert item["totals"].get("other", 0) == 0


def test_a_kotlin_parameter_read_once_into_its_property_leaves_the_other_uses_to_the_property(
    tmp_path: Path,
) -> None:
    (tmp_path / "Tag.kt").write_text(
        "class Tag(label: String) {\n"
        "    val label = label.trim()\n"
        "    fun shown() = label\n"
        "}\n"
        "fun show(t: Tag) = t.label\n"
    )
    item = entry(refs(tmp_path, "Tag.label"), "Tag.label")
    assert [d["qname"] for d in item["definitions"]] == ["Tag.label"]
    assert ("Tag.kt", 3, "reference", "exact") in uses(item)
    assert ("Tag.kt", 5, "reference", "exact") in uses(item)


def test_a_java_records_components_are_its_fields(tmp_path: Path) -> None:
    source = (
        "record Point(int x, @Deprecated int y) {\n"
        "  int sum() { return x + y; }\n"
        "}\n"
        "class Use {\n"
        "  int first(Point p) { return p.x(); }\n"
        "  int x() { return 0; }\n"
        "}\n"
    )
    (tmp_path / "Point.java").write_text(source)
    result = refs(tmp_path, "Point.x", "Point.y")
    for name in ("Point.x", "Point.y"):
        assert [(d["qname"], d["kind"]) for d in entry(result, name)["definitions"]] == [(name, "property")]
    item = entry(result, "Point.x")
    assert uses(item) == {("Point.java", 2, "reference", "exact"), ("Point.java", 5, "call", "exact")}
    assert item["totals"]["elsewhere"] == 1  # Use.x, another thing of the name
