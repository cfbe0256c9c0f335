"""Kinds the language fixtures do not show: traits and interfaces, Go embedding, JSX tags,
relative Python imports, decorators, PHP attributes and `instanceof`, TS `implements`."""

from __future__ import annotations

from pathlib import Path

from tests.refs.conftest import entry, refs, uses


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_php_trait_interface_attribute_and_instanceof(tmp_path: Path) -> None:
    write(
        tmp_path,
        "a.php",
        "<?php\nnamespace A;\ntrait Audits {}\ninterface Audited {}\n#[Audits]\nclass C implements Audited {\n    use Audits;\n    function f($x) { return $x instanceof Audited; }\n}\n",
    )
    result = refs(tmp_path, "Audits", "Audited")
    assert {r[2] for r in uses(entry(result, "Audits"))} == {"use", "reference"}
    assert {r[2] for r in uses(entry(result, "Audited"))} == {"implements", "type"}
    assert entry(result, "Audits")["definitions"][0]["kind"] == "trait"


def test_go_embedding_is_extends(tmp_path: Path) -> None:
    write(tmp_path, "a.go", "package a\n\ntype Base struct{}\n\ntype Child struct {\n\tBase\n}\n")
    item = entry(refs(tmp_path, "Base"), "Base")
    assert uses(item) == {("a.go", 6, "extends", "exact")}


def test_tsx_tag_and_closing_tag(tmp_path: Path) -> None:
    write(tmp_path, "Badge.tsx", "export function Badge() { return <b /> }\n")
    write(
        tmp_path,
        "Page.tsx",
        "import { Badge } from './Badge'\nexport const Page = () => <div><Badge></Badge><Badge /></div>\n",
    )
    item = entry(refs(tmp_path, "Badge"), "Badge")
    assert uses(item) == {("Page.tsx", 1, "import", "exact"), ("Page.tsx", 2, "tag", "exact")}
    assert item["totals"]["uses"] == 3 and item["totals"]["other"] == 1


def test_ts_implements_and_type_only_import(tmp_path: Path) -> None:
    write(tmp_path, "src/types.ts", "export interface Store { get(): void }\n")
    write(
        tmp_path,
        "src/impl.ts",
        "import type { Store } from './types'\nexport class Mem implements Store { get() {} }\nlet s: Store\n",
    )
    item = entry(refs(tmp_path, "Store"), "Store")
    assert uses(item) == {
        ("src/impl.ts", 1, "import", "exact"),
        ("src/impl.ts", 2, "implements", "exact"),
        ("src/impl.ts", 3, "type", "exact"),
    }


def test_python_relative_import_and_decorator(tmp_path: Path) -> None:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/deco.py", "def traced(f):\n    return f\n")
    write(tmp_path, "pkg/use.py", "from .deco import traced\n\n\n@traced\ndef run():\n    pass\n")
    item = entry(refs(tmp_path, "pkg.deco.traced"), "pkg.deco.traced")
    assert uses(item) == {("pkg/use.py", 1, "import", "exact"), ("pkg/use.py", 4, "call", "exact")}


def test_qualified_module_function_other_module_is_elsewhere(tmp_path: Path) -> None:
    write(tmp_path, "a.py", "def load():\n    pass\n")
    write(tmp_path, "b.py", "def load():\n    pass\n")
    write(tmp_path, "c.py", "from a import load\nfrom b import load as other\n\nload()\nother()\n")
    item = entry(refs(tmp_path, "a.load"), "a.load")
    assert uses(item) == {("c.py", 1, "import", "exact"), ("c.py", 4, "call", "exact")}
    assert item["totals"]["elsewhere"] >= 2  # b.load's definition and its import


def test_a_receiver_whose_own_chain_is_broken_stays_possible(tmp_path: Path) -> None:
    write(tmp_path, "A.php", "<?php\nclass A { function run() {} }\n")
    write(
        tmp_path,
        "B.php",
        "<?php\nclass B extends Unknown { function run() {} function go() { $this->run(); } }\n",
    )
    item = entry(refs(tmp_path, "A::run"), "A::run")
    # Unknown (in no searched file) might extend A: B's call may reach A::run's family.
    assert uses(item) == {("B.php", 2, "call", "name")}


def test_namespace_segments_are_not_uses_of_a_class(tmp_path: Path) -> None:
    write(
        tmp_path,
        "a.php",
        "<?php\nnamespace App\\Comparator;\nuse App\\Comparator\\Thing;\nclass Comparator {}\n",
    )
    item = entry(refs(tmp_path, "Comparator"), "Comparator")
    assert "name" not in item and "exact" not in item
    assert item["totals"]["other"] == 2


def test_php_unqualified_function_resolves_to_namespace_then_global(tmp_path: Path) -> None:
    write(tmp_path, "helpers.php", "<?php\nfunction render() {}\n")
    write(tmp_path, "ns.php", "<?php\nnamespace App;\nfunction render() {}\n")
    write(tmp_path, "a.php", "<?php\nnamespace App;\nrender();\n")
    write(tmp_path, "b.php", "<?php\nnamespace Other;\nrender();\n")
    item = entry(refs(tmp_path, "App\\render"), "App\\render")
    assert uses(item) == {("a.php", 3, "call", "exact")}  # b.php falls back to the global render
    assert entry(refs(tmp_path, "render"), "render")["totals"]["exact"] == 2


def test_two_queries_in_one_call_match_independently(tmp_path: Path) -> None:
    write(tmp_path, "helpers.php", "<?php\nfunction render() {}\n")
    write(tmp_path, "ns.php", "<?php\nnamespace App;\nfunction render() {}\n")
    write(tmp_path, "b.php", "<?php\nnamespace Other;\nrender();\n")
    result = refs(tmp_path, "App\\render", "render")
    assert entry(result, "App\\render")["totals"]["elsewhere"] >= 1
    assert ("b.php", 3, "call", "exact") in uses(entry(result, "render"))


def test_php_braced_namespaces_have_their_own_imports(tmp_path: Path) -> None:
    write(tmp_path, "Parser.php", "<?php\nnamespace Lib\\Parsers;\nclass Parser {}\n")
    write(
        tmp_path,
        "a.php",
        "<?php\nnamespace App {\nuse Lib\\Parsers\\Parser;\nnew Parser();\n}\nnamespace Other {\nnew Parser();\n}\n",
    )
    item = entry(refs(tmp_path, "Lib\\Parsers\\Parser"), "Lib\\Parsers\\Parser")
    assert uses(item) == {("a.php", 3, "import", "exact"), ("a.php", 4, "new", "exact")}
    assert item["totals"]["elsewhere"] == 1  # Other\\Parser


def test_siblings_implementing_one_interface_method_stay_possible(tmp_path: Path) -> None:
    write(
        tmp_path,
        "a.ts",
        "interface Runner { run(): void }\n"
        "class A implements Runner { run() {} }\n"
        "class B implements Runner { run() {} go() { this.run() } }\n"
        "class C { run() {} go() { this.run() } }\n",
    )
    item = entry(refs(tmp_path, "A.run"), "A.run")
    assert uses(item) == {("a.ts", 3, "call", "name")}  # B's run and A's run both implement Runner.run
    assert item["totals"]["elsewhere"] >= 2  # C.run and its own call


def test_ts_parameter_with_a_generic_class_type_is_that_class(tmp_path: Path) -> None:
    write(tmp_path, "a.ts", "class Box<T> { open(): void {} }\nfunction f(b: Box<number>) { b.open() }\n")
    assert uses(entry(refs(tmp_path, "Box.open"), "Box.open")) == {("a.ts", 2, "call", "exact")}


def test_a_component_file_is_its_definition_even_when_it_never_names_itself(tmp_path: Path) -> None:
    write(
        tmp_path, "src/Lonely.vue", "<template><p>hi</p></template>\n<script setup>\nconst a = 1\n</script>\n"
    )
    write(tmp_path, "node_modules/lib/Lonely.vue", "<template><p/></template>\n")
    write(
        tmp_path,
        "src/Page.vue",
        "<template><lonely /></template>\n<script setup>\nimport Lonely from './Lonely.vue'\n</script>\n",
    )
    item = entry(refs(tmp_path, "Lonely"), "Lonely")
    assert [(d["file"], d["kind"]) for d in item["definitions"]] == [("src/Lonely.vue", "component")]
    assert ("src/Page.vue", 1, "tag", "exact") in uses(item)
