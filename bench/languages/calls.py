"""The `sf` calls the language benchmark scores, run as a user runs them (the console script, JSON
out, no output budget), from the corpus root so every path is relative to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import harness
from harness import sf_command

CHUNK = 200
"""Files per `sf code` summary call (the tool takes at most 250)."""
UNLIMITED = ("--json", "--max-output-tokens", "0")
WHOLE_SUMMARIES = {"SOFIA_CODE_RAW_BELOW": "0"}
"""Small files are summarised too, so every sampled file is scored on its summary."""


def sf_json(args: list[str], root: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """The JSON `sf ARGS` prints, or `{"error": stderr}` when it fails."""
    done = harness.run(sf_command(*args, *UNLIMITED), cwd=root, env=env)
    try:
        parsed: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": (done.stderr or done.stdout).decode(errors="replace").strip()[:400]}
    return parsed


def summaries(root: Path, files: list[str]) -> dict[str, dict[str, Any]]:
    """`sf code FILE... --json`: each file's document by its path, small files summarised too."""
    out: dict[str, dict[str, Any]] = {}
    for start in range(0, len(files), CHUNK):
        chunk = files[start : start + CHUNK]
        result = sf_json(["code", *chunk], root, WHOLE_SUMMARIES)
        if "error" in result:
            out.update({f: {"mode": "error", "reason": result["error"]} for f in chunk})
            continue
        out.update({doc["path"]: doc for doc in result.get("files", [])})
    return out


def slices(root: Path, rel: str, names: list[str]) -> tuple[list[dict[str, Any]], str]:
    """`sf code FILE NAME... --json`: the slices found (a name may give several: overloads), and
    the reason when the whole file came back instead (`slices_not_smaller`: never costlier than
    `cat`), else ''."""
    if not names:
        return [], ""
    # --symbol=NAME: a Ruby operator (`-@`, `-`) is a name, not a flag
    result = sf_json(["code", rel, *(f"--symbol={n}" for n in names)], root, WHOLE_SUMMARIES)
    documents = result.get("files", [])
    raw = next((d.get("reason", "raw") for d in documents if d.get("mode") == "raw"), "")
    return [s for doc in documents for s in doc.get("slices", [])], raw


def grep_hits(root: Path, rel: str, words: list[str]) -> dict[str, list[dict[str, Any]]]:
    """`sf grep WORD... --root FILE --word --json`: each word's hits in that file."""
    if not words:
        return {}
    result = sf_json(["grep", *words, "--root", rel, "--word", "--max-per-pattern", "0"], root)
    out: dict[str, list[dict[str, Any]]] = {}
    for pattern in result.get("patterns", []):
        hits = pattern.get("hits", {})
        out[pattern["pattern"]] = [h for per_file in hits.values() for h in per_file]
    return out
