"""composer_ls and the discovery it shares with every PHP-package tool."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from sofia.errors import render_all
from sofia.output import budget
from sofia.providers.composer import discovery, ls
from sofia.providers.contract import ProviderError
from tests.composer.conftest import context, write_package
from tests.composer.workspace import MONOREPO_PACKAGES, Workspace
from tests.helpers import Repo
from tests.unreadable import unreadable_file

BROKEN_ERROR = "invalid JSON at line 4, column 5: unexpected character, expected ',' or '}'"
BROKEN_NOTE = (
    "1 composer.json file not followed (unreadable or invalid): "
    "monorepo/packages/broken/composer.json:4 invalid JSON: unexpected character, expected ',' or '}'"
)


def names(result: dict[str, object]) -> list[str]:
    rows = result["packages"]
    assert isinstance(rows, list)
    return [row["name"] for row in rows]


def test_workspace_rows(workspace: Workspace) -> None:
    result = ls.run(ls.Params(), context(workspace.root))
    assert names(result) == sorted([*MONOREPO_PACKAGES, "acme/feature-flags", "acme/slugger"])
    reader = result["packages"][0]
    assert reader == {
        "name": "acme/array-reader",
        "dir": "monorepo/packages/array-reader",
        "version": "v1.1.0",
        "type": "library",
        "php": ">=8.1",
        "phpstan": "9",
        "namespaces": "Acme\\ArrayReader\\",
        "scripts": "check phpstan test",
        "deps": "acme/enum",
        "dev_deps": "phpstan/phpstan phpunit/phpunit",
    }
    by_name = {row["name"]: row for row in result["packages"]}
    assert by_name["acme/slugger"]["version"] == "v2.0.0"
    assert by_name["acme/feature-flags"]["version"] == ""
    assert by_name["acme/monorepo"]["type"] == "project"
    assert by_name["acme/money"]["deps"] == ""
    assert by_name["acme/http-client"]["deps"] == "acme/array-reader psr/http-client"
    assert result["errors"] == [{"dir": "monorepo/packages/broken", "error": BROKEN_ERROR}]
    assert result["notes"] == [BROKEN_NOTE]
    assert "omitted" not in result


def test_broken_manifest_reports_line_and_column(workspace: Workspace) -> None:
    result = ls.run(ls.Params(root="monorepo"), context(workspace.root))
    assert result["errors"] == [{"dir": "monorepo/packages/broken", "error": BROKEN_ERROR}]
    assert "acme/enum" in names(result)


def test_monorepo_packages_share_the_repository_version(workspace: Workspace) -> None:
    result = ls.run(ls.Params(root="monorepo"), context(workspace.root))
    assert {row["version"] for row in result["packages"]} == {"v1.1.0"}
    assert [row["dir"] for row in result["packages"]][:2] == [
        "monorepo/packages/array-reader",
        "monorepo/packages/enum",
    ]
    root_row = next(row for row in result["packages"] if row["name"] == "acme/monorepo")
    assert root_row["dir"] == "monorepo"


def test_one_tag_listing_per_repository(
    workspace: Workspace, counting_git: Callable[[], list[list[str]]]
) -> None:
    ls.run(ls.Params(), context(workspace.root))
    tag_calls = [call for call in counting_git() if "tag" in call]
    assert len(tag_calls) == 3
    assert all(call[-2:] == ["tag", "--list"] for call in tag_calls)


def test_vendor_is_pruned_and_sorting(tmp_path: Path) -> None:
    write_package(tmp_path / "zeta", {"name": "acme/zeta"})
    write_package(tmp_path / "alpha", {"name": "acme/alpha"})
    write_package(tmp_path / "alpha/vendor/acme/lib", {"name": "acme/lib"})
    write_package(tmp_path / "web/node_modules/x", {"name": "acme/x"})
    write_package(tmp_path / "unnamed-b", {"type": "project"})
    write_package(tmp_path / "unnamed-a", {})
    result = ls.run(ls.Params(), context(tmp_path))
    assert [(r["name"], r["dir"]) for r in result["packages"]] == [
        ("acme/alpha", "alpha"),
        ("acme/zeta", "zeta"),
        ("", "unnamed-a"),
        ("", "unnamed-b"),
    ]


def test_gitignored_directories_are_skipped(tmp_path: Path) -> None:
    write_package(tmp_path / "app", {"name": "acme/app"})
    write_package(tmp_path / "app/build/stage", {"name": "acme/staged-copy"})
    write_package(tmp_path / "lib/cache/copy", {"name": "acme/cached"})
    (tmp_path / "app/.gitignore").write_text("build/\n")
    (tmp_path / "lib/.gitignore").write_text("/cache\n")
    write_package(tmp_path / "lib", {"name": "acme/lib"})
    write_package(tmp_path / "other/build", {"name": "acme/other-build"})
    assert names(ls.run(ls.Params(), context(tmp_path))) == ["acme/app", "acme/lib", "acme/other-build"]


def test_symlinked_directories_are_not_followed(tmp_path: Path) -> None:
    write_package(tmp_path / "real", {"name": "acme/real"})
    os.symlink(tmp_path / "real", tmp_path / "link")
    assert [r["dir"] for r in ls.run(ls.Params(), context(tmp_path))["packages"]] == ["real"]


def test_manifest_field_rules(tmp_path: Path) -> None:
    write_package(
        tmp_path / "p",
        {
            "name": "acme/p",
            "require": [],
            "require-dev": {
                "php-64bit": "*",
                "lib-icu": "*",
                "composer-plugin-api": "^2",
                "ext-json": "*",
                "b/b": "1",
                "a/a": "1",
            },
            "autoload": {
                "psr-0": {"Legacy_": "lib/"},
                "psr-4": {"Acme\\P\\": ["src/", "more/"], "": "fallback/"},
            },
            "scripts": [],
        },
        {
            "phpstan.neon": "includes:\n    - base.neon\n",
            "phpstan.neon.dist": "parameters:\n\tlevel: max # as strict as it gets\n",
        },
    )
    [row] = ls.run(ls.Params(), context(tmp_path))["packages"]
    assert row["deps"] == ""
    assert row["dev_deps"] == "a/a b/b"
    assert row["namespaces"] == "Acme\\P\\ Legacy_"
    assert row["scripts"] == ""
    assert row["phpstan"] == "max"
    assert row["type"] == "library"


@pytest.mark.parametrize(
    ("neon", "level"),
    [
        ("parameters:\n    level: '8'\n", "8"),
        ('parameters:\n    paths: [src]\n    level: "6"\n', "6"),
        ("includes:\n    - vendor/x/rules.neon\n", ""),
        ("parameters:\n    ignoreErrors:\n        -\n            level: 3\n", ""),
        ("level: 4\n", ""),
    ],
)
def test_phpstan_level(tmp_path: Path, neon: str, level: str) -> None:
    write_package(tmp_path / "p", {"name": "acme/p"}, {"phpstan.dist.neon": neon})
    [row] = ls.run(ls.Params(), context(tmp_path))["packages"]
    assert row["phpstan"] == level


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ('{"name": 5}', '"name" must be a string'),
        ('{"name": "a/b", "require": ["x/y"]}', '"require" must be an object'),
        ('{"name": "a/b", "require": {"php": 8}}', '"require.php" must be a string'),
        ('{"autoload": {"psr-4": []}, "type": ["x"]}', '"type" must be a string'),
        (
            '{"autoload": {"psr-4": {"A\\\\": 1}}}',
            '"autoload.psr-4.A\\" must be a string or a list of strings',
        ),
        ('{"autoload-dev": {"files": "x.php"}}', '"autoload-dev.files" must be a list of strings'),
        ("[1, 2]", "composer.json must hold a JSON object"),
        ("", "invalid JSON at line 1, column 1: Input is a zero-length, empty document"),
        (
            '\ufeff{"name": "a/b"}',
            "invalid JSON at line 1, column 1: UTF-8 byte order mark (BOM) is not supported",
        ),
    ],
)
def test_unusable_manifests_become_error_rows(tmp_path: Path, manifest: str, message: str) -> None:
    write_package(tmp_path / "bad", manifest)
    write_package(tmp_path / "good", {"name": "acme/good"})
    result = ls.run(ls.Params(), context(tmp_path))
    assert names(result) == ["acme/good"]
    assert result["errors"] == [{"dir": "bad", "error": message}]


def test_invalid_utf8_is_an_error_row(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p/composer.json").write_bytes(b'{"name": "acme/\xff"}')
    [error] = ls.run(ls.Params(), context(tmp_path))["errors"]
    assert error["error"].startswith("invalid JSON at line 1")


def test_root_may_be_a_manifest(workspace: Workspace) -> None:
    result = ls.run(ls.Params(root="standalone/composer.json"), context(workspace.root))
    assert [(r["name"], r["dir"], r["version"]) for r in result["packages"]] == [
        ("acme/slugger", "standalone", "v2.0.0")
    ]


def test_missing_root(tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match="root not found: nowhere"):
        ls.run(ls.Params(root="nowhere"), context(tmp_path))


def test_root_that_is_another_file(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("x")
    with pytest.raises(ProviderError, match="not a composer.json"):
        ls.run(ls.Params(root="README.md"), context(tmp_path))


def test_highest_stable_tag_is_the_version(repo: Repo, tmp_path: Path) -> None:
    repo.write("composer.json", '{"name": "acme/tags"}')
    repo.commit("init")
    for tag in ("v1.0.0", "v1.10.0", "v1.9.0", "v2.0.0-RC1", "latest"):
        repo.git("tag", tag)
    [row] = ls.run(ls.Params(), context(repo.path))["packages"]
    assert row["version"] == "v1.10.0"


def test_budget_drops_trailing_rows_with_exact_counts(workspace: Workspace) -> None:
    full = ls.run(ls.Params(), context(workspace.root))
    cut = render_all(ls.run(ls.Params(), context(workspace.root, budget=300)))
    assert budget.cost(cut) <= 300
    shown = len(cut["packages"])
    assert 0 < shown < len(full["packages"])
    assert cut["packages"] == full["packages"][:shown]
    assert cut["omitted"] == {"packages": len(full["packages"]) - shown}
    assert cut["notes"] == [
        BROKEN_NOTE,
        f"packages: showing {shown} of {len(full['packages'])} packages (budget 300 tok); narrow with root",
    ]


def test_tiny_budget_cuts_errors_too_and_says_so(workspace: Workspace) -> None:
    cut = ls.run(ls.Params(), context(workspace.root, budget=60))
    assert cut["packages"] == []
    assert cut["omitted"]["packages"] == 8
    assert cut["omitted"].get("errors", 0) + len(cut["errors"]) == 1


def test_two_runs_are_byte_identical(workspace: Workspace) -> None:
    from sofia.output import jsonfmt

    first = jsonfmt.compact(ls.run(ls.Params(), context(workspace.root)))
    assert jsonfmt.compact(ls.run(ls.Params(), context(workspace.root))) == first


def test_discovery_api(workspace: Workspace) -> None:
    found = discovery.discover(workspace.root, context(workspace.root))
    assert found.repositories() == [workspace.monorepo, workspace.fresh, workspace.standalone]
    assert [p.dir for p in discovery.select(found, "enum")] == ["monorepo/packages/enum"]
    assert [p.name for p in discovery.select(found, "acme/queue")] == ["acme/queue"]
    assert discovery.select(found, "acme") == []
    package = discovery.resolve_package("slugger", workspace.root, context(workspace.root))
    assert package.repo == workspace.standalone and package.path == workspace.standalone


def test_paths_with_spaces_unicode_and_dashes(tmp_path: Path) -> None:
    write_package(tmp_path / "my packages" / "Ünïcode pkg", {"name": "acme/unicode"})
    write_package(tmp_path / "-dash", {"name": "acme/dash"})
    result = ls.run(ls.Params(root="my packages"), context(tmp_path))
    assert [(r["name"], r["dir"]) for r in result["packages"]] == [
        ("acme/unicode", "my packages/Ünïcode pkg")
    ]
    assert [r["dir"] for r in ls.run(ls.Params(), context(tmp_path))["packages"]] == [
        "-dash",
        "my packages/Ünïcode pkg",
    ]


def test_a_clean_tree_has_no_notes(tmp_path: Path) -> None:
    write_package(tmp_path / "p", {"name": "acme/p"}, {"phpstan.neon": "parameters:\n    level: 5\n"})
    write_package(tmp_path / "q", {"name": "acme/q"})
    result = ls.run(ls.Params(), context(tmp_path))
    assert result["notes"] == [] and result["errors"] == []
    assert [row["phpstan"] for row in result["packages"]] == ["5", ""]


def test_unusable_manifests_are_named_with_their_line_and_counted(tmp_path: Path) -> None:
    write_package(tmp_path / "types", '{\n  "name": "acme/types",\n  "require": {\n    "php": 8\n  }\n}\n')
    write_package(tmp_path / "list", "[1, 2]")
    write_package(tmp_path / "syntax", '{\n  "name": "acme/syntax",\n  "type" "library"\n}\n')
    write_package(tmp_path / "autoload", '{"name": "acme/a",\n "autoload": {\n  "psr-4": {"A\\\\": 7}}}')
    write_package(tmp_path / "good", {"name": "acme/good"})
    result = ls.run(ls.Params(), context(tmp_path))
    assert names(result) == ["acme/good"]
    assert result["notes"] == [
        "4 composer.json files not followed (unreadable or invalid): "
        'autoload/composer.json:3 "autoload.psr-4.A\\" must be a string or a list of strings; '
        "list/composer.json:1 not a JSON object; "
        "syntax/composer.json:3 invalid JSON: unexpected character, expected ':' after key; "
        'types/composer.json:4 "require.php" must be a string'
    ]
    assert len(result["errors"]) == 4


def test_an_unreadable_manifest_is_named(tmp_path: Path) -> None:
    write_package(tmp_path / "locked", {"name": "acme/locked"})
    write_package(tmp_path / "good", {"name": "acme/good"})
    with unreadable_file(tmp_path / "locked" / "composer.json"):
        result = ls.run(ls.Params(), context(tmp_path))
    assert names(result) == ["acme/good"]
    [error] = result["errors"]
    assert error["dir"] == "locked" and error["error"].startswith("cannot read composer.json: ")
    [note] = result["notes"]
    assert note.startswith(
        "1 composer.json file not followed (unreadable or invalid): locked/composer.json cannot read: "
    )


@pytest.mark.parametrize(
    ("neon", "place"),
    [
        ("includes:\n    - vendor/x/rules.neon\n", "p/phpstan.dist.neon:1 includes are not followed"),
        ("# strict\nparameters: {level: 5}\n", "p/phpstan.dist.neon:2 level written inline, not read"),
        ("level: 4\n", "p/phpstan.dist.neon:1 level outside the parameters block"),
        (
            "parameters:\n    level: '%env.LEVEL%'\n",
            "p/phpstan.dist.neon:2 level %env.LEVEL% is not a number or max",
        ),
    ],
)
def test_a_level_that_could_not_be_read_is_named(tmp_path: Path, neon: str, place: str) -> None:
    write_package(tmp_path / "p", {"name": "acme/p"}, {"phpstan.dist.neon": neon})
    result = ls.run(ls.Params(), context(tmp_path))
    assert result["packages"][0]["phpstan"] == ""
    assert result["notes"] == [f"1 PHPStan configuration not followed (no level read from them): {place}"]


def test_a_level_found_in_a_later_file_needs_no_note(tmp_path: Path) -> None:
    write_package(
        tmp_path / "p",
        {"name": "acme/p"},
        {"phpstan.neon": "includes:\n    - base.neon\n", "phpstan.neon.dist": "parameters:\n    level: 6\n"},
    )
    result = ls.run(ls.Params(), context(tmp_path))
    assert result["packages"][0]["phpstan"] == "6" and result["notes"] == []


def test_an_unreadable_phpstan_configuration_is_named(tmp_path: Path) -> None:
    write_package(tmp_path / "p", {"name": "acme/p"}, {"phpstan.neon": "parameters:\n    level: 5\n"})
    with unreadable_file(tmp_path / "p" / "phpstan.neon"):
        result = ls.run(ls.Params(), context(tmp_path))
    assert result["packages"][0]["phpstan"] == ""
    [note] = result["notes"]
    assert note.startswith(
        "1 PHPStan configuration not followed (no level read from them): p/phpstan.neon cannot read: "
    )
