"""Composer's version rules: parsing, order, stability, and the highest stable tag."""

from __future__ import annotations

import pytest

from sofia.providers.composer import versions


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("1.9.0", "1.10.0"),
        ("2.0.0-beta2", "2.0.0-RC1"),
        ("2.0.0-RC1", "2.0.0"),
        ("2.0.0", "2.0.0-patch1"),
        ("1.0.0", "1.0.0.1"),
        ("1.0.0-alpha3", "1.0.0-beta1"),
        ("1.0.0-dev", "1.0.0-alpha1"),
        ("2.0.0-rc1", "2.0.0-RC2"),
        ("v0.9", "0.10.0"),
    ],
)
def test_order(lower: str, higher: str) -> None:
    assert versions.compare(lower, higher) == -1
    assert versions.compare(higher, lower) == 1


@pytest.mark.parametrize(
    ("left", "right"), [("v2.0.0", "2.0"), ("12.6", "12.6.0"), ("V1.2", "1.2.0.0"), ("1.0-b2", "1.0.0-beta2")]
)
def test_spellings_of_one_version_are_equal(left: str, right: str) -> None:
    assert versions.compare(left, right) == 0


@pytest.mark.parametrize("text", ["2.0.0", "v3.0.1", "1.14", "2.0.0-patch1", "1.0.0-pl2", "1.0.0.1"])
def test_stable(text: str) -> None:
    assert versions.highest_stable([text, "dev-main"]) == text


@pytest.mark.parametrize(
    "text",
    ["dev-main", "2.0.x-dev", "2.0.0-beta1", "1.0.0-RC1", "1.0.0-alpha", "1.2.0-dev", "brc-1", "latest", ""],
)
def test_unstable_or_not_a_version(text: str) -> None:
    assert versions.highest_stable([text]) == ""


def test_branches_and_other_names_are_not_versions() -> None:
    assert versions.parse("dev-main") is None
    assert versions.parse("2.0.x-dev") is None
    assert versions.parse("brc-1") is None
    assert versions.parse("release-2024") is None


def test_highest_stable_tag() -> None:
    assert versions.highest_stable(["v1.0.0", "v1.10.0", "v1.9.0", "v2.0.0-RC1", "latest"]) == "v1.10.0"


def test_highest_stable_keeps_the_first_spelling_seen() -> None:
    assert versions.highest_stable(["2.0", "v2.0.0", "1.5.0"]) == "2.0"
    assert versions.highest_stable(["v2.0.0", "2.0"]) == "v2.0.0"


def test_highest_stable_without_a_stable_version() -> None:
    assert versions.highest_stable(["dev-main", "1.0.0-beta1", "brc-1"]) == ""
    assert versions.highest_stable([]) == ""
