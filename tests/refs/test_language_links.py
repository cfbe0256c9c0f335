"""A use is exact only for a definition in a language its own code can call (`Language.links`):
an app's Android (Kotlin) and iOS (Swift) halves often share class names, and Kotlin calls Java
(one `jvm` group) but neither calls the other."""

from __future__ import annotations

from pathlib import Path

from tests.refs.conftest import entry, refs, rows


def test_each_exact_use_counts_for_the_definition_its_language_can_reach(tmp_path: Path) -> None:
    (tmp_path / "android").mkdir()
    (tmp_path / "ios").mkdir()
    (tmp_path / "android" / "Store.kt").write_text("class Store {\n    fun save() {}\n}\n")
    (tmp_path / "android" / "Use.kt").write_text("fun use(s: Store) {\n    s.save()\n}\n")
    (tmp_path / "android" / "Legacy.java").write_text("class Legacy {\n  void f(Store s) { s.save(); }\n}\n")
    (tmp_path / "ios" / "Store.swift").write_text("class Store {\n  func save() {}\n}\n")
    (tmp_path / "ios" / "Use.swift").write_text("func use(s: Store) {\n  s.save()\n}\n")
    item = entry(refs(tmp_path, "Store.save"), "Store.save")
    per_definition = {d["file"]: d["uses"] for d in item["definitions"]}
    assert per_definition == {"android/Store.kt": 2, "ios/Store.swift": 1}
    assert {row["file"] for row in rows(item, "exact")} == {
        "android/Use.kt",
        "android/Legacy.java",
        "ios/Use.swift",
    }


def test_a_use_in_a_language_that_cannot_call_the_only_definition_is_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "Store.kt").write_text("class Store {\n    fun save() {}\n}\n")
    (tmp_path / "Use.swift").write_text("func use(s: Store) {\n  s.save()\n}\n")
    item = entry(refs(tmp_path, "Store.save"), "Store.save")
    assert rows(item, "exact") == []
    assert item["totals"]["elsewhere"] == 1  # a Swift Store, defined outside the tree
