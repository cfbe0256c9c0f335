"""The `symbols` cell writes a shared owner once, in shell brace form, and expands back exactly."""

from __future__ import annotations

import re

import pytest

from sofia.providers.changed.names import cell


def expand(text: str) -> list[str]:
    """Shell brace expansion of one cell, the way a reader undoes the grouping."""
    text = re.sub(r" \(\+\d+ more\)$", "", text)
    out: list[str] = []
    for part in text.split("; "):
        match = re.fullmatch(r"(.*)\{([^{}]*)\}", part)
        out.extend(match.group(1) + leaf for leaf in match.group(2).split(",")) if match else out.append(part)
    return out


@pytest.mark.parametrize(
    ("names", "status", "expected"),
    [
        (["BaseClient.__init__", "BaseClient.auth", "helper"], "M", "BaseClient.{__init__,auth}; helper"),
        (
            ["UserController::destroy", "+UserController::restore"],
            "M",
            "UserController::destroy; +UserController::restore",
        ),
        (["+Flask.run", "+Flask.test", "Flask.route"], "M", "+Flask.{run,test}; Flask.route"),
        (["A.x", "B.y", "A.z"], "M", "A.x; B.y; A.z"),
        (["T.m.inner", "T.m.other", "T.m"], "M", "T.m.{inner,other}; T.m"),
        (["+top", "+Made.m", "+Made.n"], "?", "top; Made.{m,n}"),
        (["+top", "+Made"], "A", "top; Made"),
        (["-gone", "-Old.x"], "D", "gone; Old.x"),
        (["<template>", "<script>"], "M", "<template>; <script>"),
    ],
)
def test_grouping(names: list[str], status: str, expected: str) -> None:
    assert cell(names, status) == expected
    if status == "M":
        assert expand(expected) == names


def test_the_cap_counts_names_not_groups() -> None:
    names = [f"C.m{i}" for i in range(12)]
    assert cell(names, "M") == "C.{m0,m1,m2,m3,m4,m5,m6,m7} (+4 more)"
    assert cell(names, "M", limit=3) == "C.{m0,m1,m2} (+9 more)"


def test_git_contexts_are_never_grouped() -> None:
    contexts = ["class Greeter", "def a.b", "def a.c"]
    assert cell(contexts, "M", contexts=True) == "class Greeter; def a.b; def a.c"


def test_a_mixed_new_file_keeps_its_marks() -> None:
    assert cell(["+a", "b"], "A") == "+a; b"
