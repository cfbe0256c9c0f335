"""Shared rules: Bash categories, human turns, briefs, text forms, time forms."""

from __future__ import annotations

import typing

import pytest

from sofia.providers.cc import bash, timefmt
from sofia.providers.cc.categories import CATEGORIES, category
from sofia.providers.cc.summarise import brief, cut, relative_to

PINNED = {
    "grep -rn foo .": "search",
    "rg --files": "search",
    "find . -name '*.go'": "search",
    "cat README.md": "read",
    "head -50 main.go | jq .": "read",
    "git status": "git",
    "git commit -m x && git push": "git",
    "./vendor/bin/phpunit --filter X": "test",
    "go test ./...": "test",
    "npm run test": "test",
    "composer install": "build",
    "go build ./...": "build",
    "npm install && npm run build": "build",
    "mysql -u root -e 'select 1'": "db",
    "php artisan migrate": "db",
    "mkdir -p src && touch src/x.go": "fs",
    "rm -rf dist": "fs",
    "export FOO=bar": "other",
    "echo hello": "other",
    "cat phpunit.xml && ./vendor/bin/phpunit": "test",
    "git log --oneline | head": "git",
    'go test ./internal/http/... && git commit -am "x"': "test",
    "make": "build",
    "make test": "test",
    "npx vitest": "test",
    "python -m pytest": "test",
    "yarn test:unit": "test",
    "./gradlew test": "other",
    "pip3 install x": "other",
    "docker compose up": "other",
    "curl http://x/api/migrate": "db",
    "find . -name x | xargs rm": "search",
    "cd /x && ls": "fs",
    "sf cc show last": "other",
}


@pytest.mark.parametrize(("command", "expected"), sorted(PINNED.items()))
def test_reference_category_examples(command: str, expected: str) -> None:
    assert category(command) == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat tsconfig.json", "read"),  # the boundary fix: `tsc` needs a boundary after it too
        ("webpackrc --x", "other"),
        ("go running-thing", "other"),
        ("tsc --noEmit", "build"),
        ("GIT STATUS", "git"),
        ("тестgit status", "git"),  # ASCII boundaries: a Cyrillic letter is not a word character
    ],
)
def test_keywords_need_boundaries_on_both_sides(command: str, expected: str) -> None:
    assert category(command) == expected


def test_the_category_parameter_lists_every_category() -> None:
    assert typing.get_args(bash.Params.model_fields["category"].annotation) == ("", *CATEGORIES)


def test_briefs_and_cuts_count_characters() -> None:
    assert brief("Bash", "echo a\necho b") == "echo a echo b"
    assert brief("Task", "") == "Task"
    long = "x" * 150
    assert brief("Bash", long) == "x" * 99 + "…"
    cyrillic = "я" * 250
    assert cut(cyrillic, 200) == "я" * 199 + "…"
    assert cut("я" * 150, 200) == "я" * 150


def test_paths_relative_to_cwd_only_when_inside() -> None:
    assert relative_to("/a/b/c.go", "/a/b") == "c.go"
    assert relative_to("/a/bc/d.go", "/a/b") == "/a/bc/d.go"
    assert relative_to("rel/x.go", "/a") == "rel/x.go"
    assert relative_to("/a/b", "") == "/a/b"


def test_time_forms() -> None:
    assert timefmt.parse("2026-03-02T09:00:05.000Z") == 1772442005.0
    assert timefmt.parse("2026-03-02T10:00:05+01:00") == 1772442005.0
    assert timefmt.parse("2026-03-02 09:00:05") is None
    assert timefmt.parse("yesterday") is None
    assert timefmt.seconds(1772442005.9) == "2026-03-02T09:00:05Z"
    assert timefmt.minutes(1772442750) == "2026-03-02T09:12Z"
    assert [timefmt.duration(s) for s in (-5, 0, 42, 745, 7350, 11520, 93600, 172800, 604800)] == [
        "0s",
        "0s",
        "42s",
        "12m",
        "2h2m",
        "3h12m",
        "1d2h",
        "2d",
        "7d",
    ]
    assert timefmt.duration(7000 * 3600 + 9 * 60) == "291d"  # not 7000h9m
