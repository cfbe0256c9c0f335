"""PHP `api`: own members, traits (recursive, insteadof/as) and parents with `via`, PSR-4 lookup
through the file's namespace, composer.json and both installed.json forms, cycles, unresolved names,
never reading outside the root."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.code import php_api
from sofia.providers.code.model import SourceFile
from sofia.providers.code.php_model import read
from sofia.syntax import parse
from tests.code.conftest import FIXTURES, code, document
from tests.code.summarised import summarised
from tests.helpers import run_sf

PHP = FIXTURES / "php"
API = PHP / "api"


def api_doc(root: Path, path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """`code` with api=true, and the file's summary even where `code` answers with the small file."""
    result = code(root, path, api=True)
    return result, summarised(root, path, api=True, exported=True)


def surface(doc: dict[str, Any], table: str = "functions") -> list[tuple[str, str]]:
    return [(row["name"], row.get("via", "")) for row in doc.get(table, [])]


def test_thing_surface_order_and_via() -> None:
    """Below the raw threshold still a summary: with api the baseline is every file read."""
    result = code(API, "Thing.php", api=True)
    doc = document(result, "Thing.php")
    assert doc["mode"] == "summary"
    assert surface(doc) == [
        ("own", ""),
        ("shared", ""),
        ("aa", "TraitA"),
        ("bb", "TraitB"),
        ("cc", "TraitC"),
        ("base", "Base"),
        ("grand", "GrandBase"),
    ]
    assert all(row["owner"] == "Thing" for row in doc["functions"])
    assert [(row["line"], row["end_line"]) for row in doc["functions"][:3]] == [(13, 15), (17, 20), (0, 0)]
    assert "hidden" not in [row["name"] for row in doc["functions"]]
    assert "secret" not in [row["name"] for row in doc["functions"]]
    assert "unresolved" not in doc
    files = ["Thing.php", "TraitA.php", "TraitB.php", "TraitC.php", "Base.php", "GrandBase.php"]
    from sofia.output.tokens import estimate

    assert result["stats"]["raw_tok"] == sum(estimate((API / f).read_bytes()) for f in files)


def test_orphan_reports_the_missing_parent() -> None:
    _, doc = api_doc(API, "Orphan.php")
    assert doc["unresolved"] == ["extends Vendor\\Missing\\Base"]
    assert surface(doc) == [("alone", "")]


def test_a_cycle_terminates() -> None:
    _, doc = api_doc(API, "CycleA.php")
    assert surface(doc) == [("fromA", ""), ("fromB", "CycleB")]


def test_insteadof_and_as_rules(no_passthrough: None) -> None:
    _, doc = api_doc(PHP / "app", "src/Model/Post.php")
    assert surface(doc) == [
        ("publish", ""),
        ("touch", "HasTimestamps"),
        ("touchDeleted", "SoftDeletes"),
        ("trashed", "SoftDeletes"),
        ("purge", "SoftDeletes"),
    ]
    assert "vis" not in doc["functions"][0]
    assert surface(doc, "properties") == [
        ("title", ""),
        ("updatedAt", "HasTimestamps"),
        ("deletedAt", "SoftDeletes"),
    ]


def test_insteadof_keeps_the_other_trait_method_under_its_alias(tmp_path: Path) -> None:
    (tmp_path / "Greets.php").write_text(
        "<?php\nnamespace Demo;\ntrait Greets { public function hello(): string { return 'hi'; } }\n"
    )
    (tmp_path / "Waves.php").write_text(
        "<?php\nnamespace Demo;\ntrait Waves {\n"
        "    public function hello(): string { return 'wave'; }\n"
        "    private function bye(): void {}\n}\n"
    )
    (tmp_path / "Host.php").write_text(
        "<?php\nnamespace Demo;\nclass Host {\n    use Greets, Waves {\n"
        "        Greets::hello insteadof Waves;\n        Waves::hello as wave;\n"
        "        bye as public farewell;\n        hello as protected;\n    }\n}\n"
    )
    _, doc = api_doc(tmp_path, "Host.php")
    assert surface(doc) == [("wave", "Waves"), ("farewell", "Waves")]


@pytest.mark.parametrize("project", ["composer2", "composer1"])
def test_vendor_parent_through_installed_json(project: str) -> None:
    _, doc = api_doc(PHP / project, "src/Command/ListUsersCommand.php")
    assert surface(doc) == [
        ("getDescription", ""),
        ("run", "Command"),
        ("getName", "Command"),
        ("getHelp", "HasHelp"),
    ]
    assert surface(doc, "constants") == [("SUCCESS", "Command"), ("FAILURE", "Command")]
    assert "unresolved" not in doc


def test_autoload_dev_and_list_valued_psr4(tmp_path: Path) -> None:
    (tmp_path / "composer.json").write_text(
        '{"autoload": {"psr-4": {"App\\\\": ["lib/", "src/"]}},'
        ' "autoload-dev": {"psr-4": {"App\\\\Tests\\\\": "tests/"}}}'
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "Kernel.php").write_text(
        "<?php\nnamespace App;\nclass Kernel { public function boot(): void {} }\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "KernelTest.php").write_text(
        "<?php\nnamespace App\\Tests;\nuse App\\Kernel;\n"
        "class KernelTest extends TestCase { public function testBoot(): void {} }\n"
    )
    (tmp_path / "tests" / "TestCase.php").write_text(
        "<?php\nnamespace App\\Tests;\nabstract class TestCase extends \\App\\Kernel {}\n"
    )
    _, doc = api_doc(tmp_path, "tests/KernelTest.php")
    assert surface(doc) == [("testBoot", ""), ("boot", "Kernel")]


def test_interface_parents_are_expanded(tmp_path: Path) -> None:
    (tmp_path / "Reader.php").write_text(
        "<?php\nnamespace Io;\ninterface Reader { public function read(): string; }\n"
    )
    (tmp_path / "Closer.php").write_text(
        "<?php\nnamespace Io;\ninterface Closer { public function close(): void; }\n"
    )
    (tmp_path / "Stream.php").write_text(
        "<?php\nnamespace Io;\ninterface Stream extends Reader, Closer, Missing { public function eof(): bool; }\n"
    )
    _, doc = api_doc(tmp_path, "Stream.php")
    assert surface(doc) == [("eof", ""), ("read", "Reader"), ("close", "Closer")]
    assert doc["unresolved"] == ["extends Io\\Missing"]


def test_never_reads_outside_the_root(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Base.php").write_text(
        "<?php\nnamespace Fixture\\Api;\nclass Base { public function leak(): void {} }\n"
    )
    root = tmp_path / "root"
    root.mkdir()
    (root / "composer.json").write_text('{"autoload": {"psr-4": {"Fixture\\\\Api\\\\": "../outside/"}}}')
    (root / "Child.php").write_text("<?php\nnamespace Fixture\\Api;\nclass Child extends Base {}\n")
    (root / "Base.php").symlink_to(outside / "Base.php")
    result, doc = api_doc(root, "Child.php")
    assert doc["unresolved"] == ["extends Fixture\\Api\\Base"]
    assert "leak" not in str(result)


def test_limit_of_classes_per_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(php_api, "MAX_CLASSES", 3)
    for index in range(6):
        parent = f" extends Level{index + 1}" if index < 5 else ""
        (tmp_path / f"Level{index}.php").write_text(
            f"<?php\nnamespace Deep;\nclass Level{index}{parent} {{ public function m{index}(): void {{}} }}\n"
        )
    _, doc = api_doc(tmp_path, "Level0.php")
    assert [name for name, _ in surface(doc)] == ["m0", "m1", "m2", "m3"]
    assert doc["notes"] == [
        "api: stopped resolving after 3 traits and parents; call api=true on a parent file for the rest"
    ]


def test_malformed_composer_files_are_ignored(tmp_path: Path) -> None:
    shutil.copytree(PHP / "composer2", tmp_path / "app")
    (tmp_path / "app" / "vendor" / "composer" / "installed.json").write_text("{not json")
    _, doc = api_doc(tmp_path / "app", "src/Command/ListUsersCommand.php")
    assert doc["unresolved"] == ["extends Acme\\Console\\Command\\Command"]


def test_api_on_other_languages_acts_as_exported(tmp_path: Path) -> None:
    result = code(FIXTURES / "ts" / "src", "stores/auth.ts", api=True)
    assert "api applies to PHP classes; other files are summarised as with exported=true" in result["notes"]


def test_api_on_the_command_line() -> None:
    done = run_sf("code", "--api", "Thing.php", cwd=API)
    assert done.returncode == 0, done.stderr
    assert "functions.Thing[7]{name,sig,line,end_line,via}:" in done.stdout
    assert '  grand,"(): void",0,0,GrandBase\n' in done.stdout
    assert "unresolved" not in done.stdout


def test_resolver_reads_each_file_once(tmp_path: Path) -> None:
    path = API / "Thing.php"
    source = path.read_bytes()
    php = read(parse(source, "php").trees[0].root_node)
    resolver = php_api.Resolver(
        SourceFile(path, "Thing.php", API, source, source.decode(), "php"), php.namespace
    )
    first = resolver.find("Fixture\\Api\\Base")
    again = resolver.find("Fixture\\Api\\Base")
    assert first is not None and again is not None and first.fqcn == "Fixture\\Api\\Base"
    assert len([p for p, m in resolver.files.items() if m is not None]) == 1
