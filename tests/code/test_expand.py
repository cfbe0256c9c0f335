"""Expansion of directories and globs (real ripgrep walks), input order, duplicates, the file cap."""

from __future__ import annotations

from pathlib import Path

import pytest

from sofia.providers.contract import ProviderError
from tests.code.conftest import code
from tests.helpers import Repo


def paths(result: dict) -> list[str]:
    return [d["path"] for d in result["files"]]


@pytest.fixture
def project(repo: Repo) -> Path:
    """A repository with dependencies, generated code, a CI script and several languages."""
    files = {
        ".gitignore": "generated/\n",
        "src/Controller/UserController.php": "<?php\nclass UserController {}\n",
        "src/Entity/User.php": "<?php\nclass User {}\n",
        "src/Entity/Deep/Address.php": "<?php\nclass Address {}\n",
        "src/main.go": "package main\n",
        "src/util/strings.go": "package util\n",
        "src/README.md": "# docs\n",
        "web/app.ts": "export const a = 1\n",
        "web/App.vue": "<template><div/></template>\n",
        "web/app.js": "module.exports = {}\n",
        "vendor/lib/Lib.php": "<?php\nclass Lib {}\n",
        "node_modules/pkg/index.ts": "export {}\n",
        "generated/api.go": "package generated\n",
        ".github/scripts/release.py": "print('release')\n",
        "tools/X.GO": "package tools\n",
        "empty/.keep": "",
    }
    for rel, content in files.items():
        repo.write(rel, content)
    return repo.path


def test_directory_walk_honours_ignores_and_includes_hidden_dirs(project: Path) -> None:
    assert paths(code(project, ".")) == [
        ".github/scripts/release.py",
        "src/Controller/UserController.php",
        "src/Entity/Deep/Address.php",
        "src/Entity/User.php",
        "src/main.go",
        "src/util/strings.go",
        "tools/X.GO",
        "web/App.vue",
        "web/app.js",
        "web/app.ts",
    ]


def test_a_named_ignored_directory_is_still_walked(project: Path) -> None:
    assert paths(code(project, "vendor")) == ["vendor/lib/Lib.php"]


def test_double_star_glob(project: Path) -> None:
    assert paths(code(project, "src/**/*.php")) == [
        "src/Controller/UserController.php",
        "src/Entity/Deep/Address.php",
        "src/Entity/User.php",
    ]


def test_single_star_does_not_cross_directories(project: Path) -> None:
    assert paths(code(project, "src/*.go")) == ["src/main.go"]


def test_braces_and_classes(project: Path) -> None:
    assert paths(code(project, "web/*.{ts,vue}")) == ["web/App.vue", "web/app.ts"]
    assert paths(code(project, "web/app.[!j]s")) == ["web/app.ts"]
    assert paths(code(project, "web/app.[^t]s")) == ["web/app.js"]


def test_a_glob_matching_a_directory_walks_it(project: Path) -> None:
    assert paths(code(project, "src/Ent*")) == ["src/Entity/Deep/Address.php", "src/Entity/User.php"]


def test_input_order_kept_and_duplicates_removed(project: Path) -> None:
    result = code(project, "web/app.ts", "src/*.go", "web", "./web/app.ts", "src/main.go")
    assert paths(result) == ["web/app.ts", "src/main.go", "web/App.vue", "web/app.js"]


def test_an_existing_file_is_kept_whatever_its_type(project: Path) -> None:
    assert paths(code(project, "src/README.md", "src")) == [
        "src/README.md",
        "src/Controller/UserController.php",
        "src/Entity/Deep/Address.php",
        "src/Entity/User.php",
        "src/main.go",
        "src/util/strings.go",
    ]


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (["src/*.md"], "no supported files match src/*.md"),
        (["nowhere/**/*.go"], "no match: nowhere/**/*.go"),
        (["src/*.kt"], "no match: src/*.kt"),
        (["empty"], "no supported files under empty"),
        (["src/[a.go"], "malformed glob: src/[a.go (unmatched '[')"),
        (["src/{a,b.go"], "malformed glob: src/{a,b.go (unmatched '{')"),
        (
            ["src/" + "{a,b}" * 9 + ".go"],
            "malformed glob: src/"
            + "{a,b}" * 9
            + ".go (more than 256 alternatives: src/"
            + "{a,b}" * 9
            + ".go)",
        ),
        (["src/main.go", "src/missing.go"], "not found: src/missing.go"),
    ],
)
def test_named_errors(project: Path, inputs: list[str], message: str) -> None:
    with pytest.raises(ProviderError) as caught:
        code(project, *inputs)
    assert caught.value.message == message


def test_more_than_250_files_is_an_error_naming_subdirectories(tmp_path: Path) -> None:
    for index in range(150):
        (tmp_path / "src" / "Entity").mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / "Entity" / f"E{index:03}.go").write_text("package entity\n")
    for index in range(101):
        (tmp_path / "src" / "Http").mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / "Http" / f"H{index:03}.go").write_text("package http\n")
    with pytest.raises(ProviderError) as caught:
        code(tmp_path, "src/**")
    assert caught.value.message == "src/** matched 251 files; the limit is 250 per call"
    assert caught.value.hint == "narrow it, e.g. src/Entity (150 files), src/Http (101)"
