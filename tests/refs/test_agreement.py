"""The textual totals are ripgrep's own word counts, and every occurrence lands in exactly one
bucket, on a generated polyglot tree."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from sofia.runtime import rg
from tests.refs.conftest import accounted, entry, refs

NAMES = ("fetch", "Repo", "get", "Server")
SNIPPETS = {
    "py": [
        "r = Repo()",
        "r.fetch(1)",
        "# fetch later",
        "s = 'Repo fetch'",
        "def fetch(x):\n    return x",
        "get = 1",
    ],
    "ts": [
        "import { Repo } from './repo'",
        "new Repo().fetch()",
        "// get it",
        "const s = `get ${get}`",
        "function get() {}",
    ],
    "go": ["var s Server", "s.fetch()", "// Server starts", 'x := "Server"', "func get() {}"],
    "php": ["$r = new Repo();", "$r->fetch();", "// fetch", "$s = 'get';", "function get() {}"],
}
HEADERS = {"py": "", "ts": "", "go": "package main\n\nfunc main() {\n", "php": "<?php\n"}
FOOTERS = {"py": "", "ts": "", "go": "}\n", "php": ""}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("agreement")
    rng = random.Random(14)
    for index in range(60):
        ext = rng.choice(list(SNIPPETS))
        lines = [rng.choice(SNIPPETS[ext]) for _ in range(rng.randint(1, 12))]
        body = "\n".join(lines) + "\n"
        if ext == "go":
            body = HEADERS[ext] + body.replace("func get() {}", "") + FOOTERS[ext]
        else:
            body = HEADERS[ext] + body
        (root / f"f{index}.{ext}").write_text(body)
    return root


def rg_count(root: Path, word: str) -> int:
    done = subprocess.run(
        [
            rg.executable(),
            "--no-config",
            "--count-matches",
            "-w",
            "-F",
            "--no-filename",
            "-e",
            word,
            "--",
            ".",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    return sum(int(n) for n in done.stdout.split())


@pytest.mark.parametrize("name", NAMES)
def test_text_totals_are_ripgreps_and_every_occurrence_is_accounted_for(tree: Path, name: str) -> None:
    item = entry(refs(tree, name), name)
    assert item["totals"]["text"] == rg_count(tree, name)
    assert accounted(item) == item["totals"]["text"]
