"""The `sf refs` side: one run per query on the corpus, its JSON reduced to locations by the one
function that knows the output shape (`adapt`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sofia.runtime import rg

from .locations import Corpus
from .model import Location


@dataclass
class Use:
    location: Location
    match: str
    """`exact` or `name`."""
    kind: str
    raw: tuple[str, int, int]
    """The position as refs printed it (file, line, byte column), for reports."""


@dataclass
class RefsAnswer:
    uses: list[Use] = field(default_factory=list)
    definitions: list[Location] = field(default_factory=list)
    unplaced: list[tuple[str, int, int]] = field(default_factory=list)
    """Positions with no identifier under them (reported, never matched)."""
    notes: list[str] = field(default_factory=list)
    error: str = ""


def adapt(payload: dict[str, Any], corpus: Corpus) -> RefsAnswer:
    """`sf refs --json` for one symbol as locations. Uses are grouped under their file in `exact`
    and `name` (`{file: [{"line", "col", "kind", "in"}]}`, docs/refs.md), with 1-based lines
    and 1-based byte columns of the name; definitions carry `file`, `line`,
    `col`. Paths are taken relative to the corpus whether refs prints them relative to it or to
    the workspace (the corpus is the working directory) or absolute."""
    answer = RefsAnswer(notes=[str(n) for n in payload.get("notes", [])])
    for entry in payload.get("symbols", []):
        for match in ("exact", "name"):
            for shown, rows in entry.get(match, {}).items():
                file = _relative(shown, corpus)
                for row in rows:
                    raw = (file, int(row["line"]), int(row["col"]))
                    snapped = corpus.snap(file, raw[1], corpus.from_bytes(file, raw[1], raw[2]))
                    if snapped is None:
                        answer.unplaced.append(raw)
                        continue
                    answer.uses.append(Use(snapped, match, str(row.get("kind", "")), raw))
        for definition in entry.get("definitions", []):
            file, line = _relative(definition["file"], corpus), int(definition["line"])
            col = corpus.from_bytes(file, line, int(definition.get("col", 1)))
            answer.definitions.append(corpus.snap(file, line, col) or Location(file, line, col))
    return answer


def _relative(path: str, corpus: Corpus) -> str:
    """A printed path as corpus-relative POSIX ("" stays "")."""
    if not path:
        return ""
    if os.path.isabs(path):
        path = os.path.relpath(path, corpus.root)
    return Path(path).as_posix().removeprefix("./")


RUNNER = (
    "import os, runpy, sys; sys.path[:0] = [sys.argv[1]]; sys.path += sys.argv[2].split(os.pathsep); "
    "sys.argv = ['sf', *sys.argv[3:]]; runpy.run_module('sofia', run_name='__main__', alter_sys=True)"
)
"""`python -m sofia` from the checkout at `source`. The interpreter starts without `site` (`-S`)
so an editable install of another checkout (an import hook that outranks PYTHONPATH) cannot
answer instead; this interpreter's site-packages are added back as plain directories for the
dependencies."""


def refs_command(source: Path) -> list[str]:
    paths = sysconfig.get_paths()
    libraries = os.pathsep.join(dict.fromkeys([paths["purelib"], paths["platlib"]]))
    return [sys.executable, "-S", "-c", RUNNER, str(source), libraries]


def run_refs(query: str, corpus: Corpus, source: Path) -> RefsAnswer:
    env = {**os.environ, "SOFIA_FOOTER": "off"}
    args = [
        *refs_command(source),
        "refs",
        query,
        "--root",
        str(corpus.root),
        "--max-per-symbol",
        "0",
        "--max-output-tokens",
        "0",
        "--json",
    ]
    done = subprocess.run(args, env=env, capture_output=True, text=True, cwd=corpus.root, check=False)
    if done.returncode != 0:
        return RefsAnswer(error=(done.stderr or done.stdout).strip()[-600:])
    try:
        payload = json.loads(done.stdout)
    except json.JSONDecodeError as exc:
        return RefsAnswer(error=f"output is not JSON ({exc}): {done.stdout[:200]!r}")
    return adapt(payload, corpus)


def refs_available(source: Path) -> str:
    """Empty when `sf refs` runs from `source`, else why not."""
    env = dict(os.environ)
    done = subprocess.run(
        [*refs_command(source), "refs", "--help"], env=env, capture_output=True, text=True, check=False
    )
    return "" if done.returncode == 0 else (done.stderr or done.stdout).strip()[-300:]


def run_rg(query: str, corpus: Corpus) -> RefsAnswer:
    """What a user would otherwise run: `rg -w` on the last segment of the name (`--vimgrep`: every
    hit, not one per line), each a `name` match, so its precision shows what classification adds."""
    name = query.replace("::", ".").rsplit(".", 1)[-1]
    done = subprocess.run(
        [
            rg.locate()[0],
            "-w",
            "-F",
            "--vimgrep",
            "--no-ignore-parent",
            "-e",
            name,
            ".",
        ],
        cwd=corpus.root,
        capture_output=True,
        text=True,
        check=False,
    )
    answer = RefsAnswer()
    for line in done.stdout.splitlines():
        file, line_no, col, _ = line.split(":", 3)
        file = file.removeprefix("./")
        raw = (file, int(line_no), int(col))
        snapped = corpus.snap(file, raw[1], corpus.from_bytes(file, raw[1], raw[2]))
        if snapped is not None:
            answer.uses.append(Use(snapped, "name", "", raw))
    return answer
