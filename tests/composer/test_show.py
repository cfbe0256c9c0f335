"""composer_show: resolution, full metadata, and lock freshness as Composer computes it."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest

from sofia.output import budget
from sofia.providers.composer import lock, show
from sofia.providers.contract import ProviderError
from tests.composer.conftest import context, write_package
from tests.composer.workspace import FIXTURES, Workspace
from tests.helpers import call
from tests.unreadable import unreadable_file

LOCK_CASES = sorted(p.name for p in (FIXTURES / "locks").iterdir() if p.is_dir())


def show_in(workspace_root: Path, package: str, root: str = ".") -> dict[str, Any]:
    result: dict[str, Any] = call("composer_show", {"package": package, "root": root}, workspace_root)
    return result


@pytest.mark.parametrize(
    ("selector", "root", "name"),
    [
        ("acme/enum", ".", "acme/enum"),
        ("enum", ".", "acme/enum"),
        ("standalone", ".", "acme/slugger"),
        ("fresh", ".", "acme/feature-flags"),
        ("monorepo/packages/http-client", ".", "acme/http-client"),
        ("monorepo/packages/http-client/composer.json", ".", "acme/http-client"),
        ("packages/money", "monorepo", "acme/money"),
        ("monorepo/packages/money", "monorepo", "acme/money"),
        ("monorepo", ".", "acme/monorepo"),
    ],
)
def test_resolution(workspace: Workspace, selector: str, root: str, name: str) -> None:
    assert show_in(workspace.root, selector, root=root)["name"] == name


def test_path_resolution_reports_dir_relative_to_the_workspace(workspace: Workspace) -> None:
    result = show_in(workspace.root, "monorepo/packages/money", root="monorepo")
    assert result["dir"] == "monorepo/packages/money"
    assert show_in(workspace.root, "packages/money", root="monorepo")["dir"] == "monorepo/packages/money"


def test_ambiguous_suffix_lists_every_candidate(tmp_path: Path) -> None:
    write_package(tmp_path / "a", {"name": "acme/util"})
    write_package(tmp_path / "b", {"name": "other/util"})
    with pytest.raises(ProviderError) as caught:
        show_in(tmp_path, "util")
    assert caught.value.message == '"util" matches several packages: acme/util (a), other/util (b)'


def test_exact_name_beats_suffix(tmp_path: Path) -> None:
    write_package(tmp_path / "a", {"name": "util/util"})
    write_package(tmp_path / "b", {"name": "acme/util-util"})
    write_package(tmp_path / "c", {"name": "x/util"})
    assert show_in(tmp_path, "util/util")["dir"] == "a"


def test_unknown_package_names_the_closest(workspace: Workspace) -> None:
    with pytest.raises(ProviderError) as caught:
        show_in(workspace.root, "enmu")
    message = caught.value.message
    assert message.startswith('no package matching "enmu" under .; known packages: acme/enum, ')
    assert message.count(", ") == 4
    assert message.endswith(
        "; 1 composer.json files could not be read (one may be it): monorepo/packages/broken"
    )
    assert "(composer_ls lists them)" in str(caught.value)


def test_unknown_package_in_a_tree_without_unreadable_manifests(tmp_path: Path) -> None:
    write_package(tmp_path / "a", {"name": "acme/a"})
    with pytest.raises(ProviderError) as caught:
        show_in(tmp_path, "nope")
    assert caught.value.message == 'no package matching "nope" under .; known packages: acme/a'


def test_broken_manifest_is_an_error_naming_the_problem(workspace: Workspace) -> None:
    with pytest.raises(
        ProviderError, match=r"monorepo/packages/broken/composer.json: invalid JSON at line 4"
    ):
        show_in(workspace.root, "broken")


def test_full_metadata(workspace: Workspace) -> None:
    result = show_in(workspace.root, "http-client", root="monorepo")
    assert list(result) == [
        "name", "dir", "description", "version", "type", "license", "php", "phpstan", "scripts", "autoload",
        "autoload_dev", "require", "require_dev", "lock", "vendor_installed", "notes",
    ]  # fmt: skip
    assert result["name"] == "acme/http-client"
    assert result["version"] == "v1.1.0"
    assert result["license"] == "MIT or Apache-2.0"
    assert result["php"] == "^8.1 || ^8.2"
    assert result["phpstan"] == "8"
    assert result["scripts"] == [
        {"name": "check", "commands": "@test && @phpstan && @cs"},
        {"name": "cs", "commands": "php ../../tools/php-cs-fixer.php"},
        {"name": "lint", "commands": "php -l src/CurlClient.php"},
        {"name": "phpstan", "commands": "php ../../tools/phpstan.php errors"},
        {"name": "test", "commands": "php ../../tools/phpunit.php ok"},
    ]
    assert result["autoload"] == [
        {"kind": "psr-4", "key": "Acme\\HttpClient\\", "paths": "src/"},
        {"kind": "files", "key": "", "paths": "src/functions.php"},
    ]
    assert result["autoload_dev"] == []
    assert result["require"] == [
        {"name": "acme/array-reader", "constraint": "^1.1"},
        {"name": "ext-curl", "constraint": "*"},
        {"name": "php", "constraint": "^8.1 || ^8.2"},
        {"name": "psr/http-client", "constraint": "^1.0"},
    ]
    assert result["lock"] == {
        "present": False,
        "fresh": None,
        "content_hash": "",
        "expected_hash": lock.content_hash(
            json.loads((workspace.monorepo / "packages/http-client/composer.json").read_text())
        ),
        "locked": [],
        "not_locked": [],
    }
    assert result["vendor_installed"] is False
    assert result["notes"] == [] and "omitted" not in result


def test_script_values_of_every_shape(tmp_path: Path) -> None:
    write_package(
        tmp_path / "p",
        {
            "name": "acme/p",
            "scripts": {
                "str": "phpunit --colors=always",
                "list": ["@lint", "phpunit"],
                "object": {"cmd": "x"},
                "mixed": ["a", 1],
                "number": 5,
            },
        },
    )
    commands = {row["name"]: row["commands"] for row in show_in(tmp_path, "p")["scripts"]}
    assert commands == {
        "list": "@lint && phpunit",
        "mixed": '["a",1]',
        "number": "5",
        "object": '{"cmd":"x"}',
        "str": "phpunit --colors=always",
    }


@pytest.mark.parametrize("case", LOCK_CASES)
def test_content_hash_matches_real_composer(case: str) -> None:
    """Each pair was written by `composer update --no-install` (Composer 2.5)."""
    directory = FIXTURES / "locks" / case
    stored = orjson.loads((directory / "composer.lock").read_bytes())["content-hash"]
    assert lock.content_hash(orjson.loads((directory / "composer.json").read_bytes())) == stored
    report = show_in(directory, ".")["lock"]
    assert report["present"] is True
    assert report["fresh"] is True
    assert report["content_hash"] == report["expected_hash"] == stored


def test_ten_real_lock_pairs() -> None:
    assert len(LOCK_CASES) == 10


def test_locked_versions_of_direct_dependencies(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "locks" / "platform", tmp_path / "p")
    result = show_in(tmp_path, "p")
    assert result["lock"]["locked"] == [
        {"name": "psr/log", "constraint": "^3.0", "version": "3.0.0", "dev": False}
    ]
    assert result["lock"]["not_locked"] == []
    assert result["notes"] == []


def test_editing_a_constraint_makes_the_lock_stale(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "locks" / "slashes", tmp_path / "p")
    manifest_path = tmp_path / "p/composer.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["require"]["psr/log"] = "^3.0.1"
    manifest["require"]["psr/cache"] = "^3.0"
    manifest_path.write_text(json.dumps(manifest, indent=4))
    result = show_in(tmp_path, "p")
    assert result["lock"]["fresh"] is False
    assert result["lock"]["content_hash"] == "ad45af4af357ae422fc8099bb8572ba9"
    assert result["lock"]["expected_hash"] != result["lock"]["content_hash"]
    assert result["lock"]["not_locked"] == ["psr/cache"]
    assert result["notes"] == [
        "composer.lock is stale: run composer update --lock",
        "requirements missing from composer.lock: psr/cache; run composer update",
    ]


def test_description_is_not_part_of_the_hash(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "locks" / "unicode", tmp_path / "p")
    manifest_path = tmp_path / "p/composer.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["description"] = "something else entirely"
    manifest_path.write_text(json.dumps(manifest))
    assert show_in(tmp_path, "p")["lock"]["fresh"] is True


def test_legacy_hash_compares_the_raw_manifest(tmp_path: Path) -> None:
    text = '{\n    "name": "acme/old",\n    "require": {"php": ">=5.6"}\n}\n'

    write_package(
        tmp_path / "p",
        text,
        {"composer.lock": json.dumps({"hash": hashlib.md5(text.encode()).hexdigest(), "packages": []})},
    )
    assert show_in(tmp_path, "p")["lock"]["fresh"] is True
    (tmp_path / "p/composer.json").write_text(text.replace("5.6", "7.0"))
    assert show_in(tmp_path, "p")["lock"]["fresh"] is False


def test_corrupt_lock(tmp_path: Path) -> None:
    write_package(tmp_path / "p", {"name": "acme/p"}, {"composer.lock": '{"content-hash": '})
    result = show_in(tmp_path, "p")
    assert result["lock"]["present"] is True
    assert result["lock"]["fresh"] is None
    assert result["notes"] == [
        "1 composer.lock file not followed (unreadable or invalid; composer update --lock rewrites one): "
        "p/composer.lock:1 invalid JSON: unexpected end of data"
    ]


def test_lock_lists_that_cannot_be_read_are_named(tmp_path: Path) -> None:
    lock_text = '{"content-hash": "x", "packages": {"a": 1}, "packages-dev": [{"version": "1.0.0"}, 7]}'
    write_package(tmp_path / "p", {"name": "acme/p", "require": {"a/b": "^1"}}, {"composer.lock": lock_text})
    result = show_in(tmp_path, "p")
    assert result["lock"]["not_locked"] == ["a/b"]
    assert result["notes"][0] == (
        "1 composer.lock file not followed (unreadable or invalid; composer update --lock rewrites one): "
        'p/composer.lock "packages" not a list, 2 nameless "packages-dev" entries'
    )


def test_an_unreadable_lock_is_named(tmp_path: Path) -> None:
    write_package(tmp_path / "p", {"name": "acme/p"}, {"composer.lock": "{}"})
    with unreadable_file(tmp_path / "p" / "composer.lock"):
        result = show_in(tmp_path, "p")
    assert result["lock"]["present"] is True and result["lock"]["fresh"] is None
    assert result["notes"][0].startswith("1 composer.lock file not followed (")
    assert "p/composer.lock cannot read: " in result["notes"][0]


def test_a_phpstan_level_set_through_includes_is_named(tmp_path: Path) -> None:
    write_package(
        tmp_path / "p", {"name": "acme/p"}, {"phpstan.neon": "includes:\n    - vendor/rules.neon\n"}
    )
    result = show_in(tmp_path, "p")
    assert result["phpstan"] == ""
    assert result["notes"] == [
        "1 PHPStan configuration not followed (no level read from them): p/phpstan.neon:1 includes are not followed"
    ]


def test_vendor_installed(tmp_path: Path) -> None:
    write_package(tmp_path / "p", {"name": "acme/p"}, {"vendor/autoload.php": "<?php\n"})
    write_package(
        tmp_path / "q",
        {"name": "acme/q", "config": {"vendor-dir": "lib/deps"}},
        {"lib/deps/autoload.php": "<?php\n"},
    )
    assert show_in(tmp_path, "p")["vendor_installed"] is True
    assert show_in(tmp_path, "q")["vendor_installed"] is True


def test_budget_ladder(tmp_path: Path) -> None:
    long_command = "php -d memory_limit=-1 vendor/bin/phpunit " + " ".join(f"--group=g{i}" for i in range(80))
    manifest = {
        "name": "acme/big",
        "scripts": {f"s{i:02d}": long_command for i in range(6)},
        "autoload": {"psr-4": {f"Acme\\Big\\Part{i:02d}\\": f"src/Part{i:02d}/" for i in range(40)}},
    }
    write_package(tmp_path / "p", manifest)
    full = show_in(tmp_path, "p")
    cut = show.run(show.Params(package="p"), context(tmp_path, budget=700))
    assert budget.cost(cut) <= 700
    assert all(len(row["commands"]) <= 200 for row in cut["scripts"])
    assert cut["notes"][0] == (
        "commands: 6 texts cut to 200 characters (budget 700 tok); the package is large; read composer.json for the rest"
    )
    kept = len(cut["autoload"])
    assert kept < len(full["autoload"])
    assert cut["autoload"] == full["autoload"][:kept]
    assert cut["omitted"] == {"autoload": len(full["autoload"]) - kept}


@pytest.mark.parametrize("selector", ["", "-x"])
def test_bad_selectors(workspace: Workspace, selector: str) -> None:
    with pytest.raises((ProviderError, ValueError)):
        show.run(show.Params(package=selector), context(workspace.root))


def test_php_json_encode_agrees_with_php(tmp_path: Path) -> None:
    """The encoder behind the content hash, against PHP's own json_encode on awkward values."""
    document = (
        '{"floats":[1.0,1.5,0.1,1e15,1e16,1e17,1.5e20,1e-4,1e-5,0.00012,2.5e-7,-0.0,123456.789,1e300,-3.25],'
        '"ints":[0,-1,9223372036854775807],'
        '"strings":["é/😀","\\u0001\\t\\u2028","\\"\\\\","\\u007f"],'
        '"lists":{"0":"a","1":"b"},"gap":{"1":"x"},"swapped":{"1":"a","0":"b"},"empty":{},"nested":[{},[]],'
        '"keys":{"01":1,"-0":2,"-5":3,"":4}}'
    )
    source = tmp_path / "doc.json"
    source.write_text(document)
    php = subprocess.run(
        ["php", "-r", "echo json_encode(json_decode(file_get_contents($argv[1]), true));", str(source)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert lock.php_json_encode(orjson.loads(document)) == php.stdout


def test_300_token_budget_fits_and_counts_add_up(workspace: Workspace) -> None:
    full = show_in(workspace.root, "http-client", root="monorepo")
    cut = show.run(show.Params(package="http-client", root="monorepo"), context(workspace.root, budget=300))
    assert budget.cost(cut) <= 300 or cut["notes"][-1] == budget.floor_note(300)
    for key in ("autoload", "autoload_dev"):
        assert len(cut[key]) + cut["omitted"].get(key, 0) == len(full[key])


def test_two_runs_are_byte_identical(workspace: Workspace) -> None:
    from sofia.output import jsonfmt

    first = jsonfmt.compact(show_in(workspace.root, "http-client", root="monorepo"))
    assert jsonfmt.compact(show_in(workspace.root, "http-client", root="monorepo")) == first
