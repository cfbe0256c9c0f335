"""A note never suggests what the call already did: `brief=true` to a call that passed it, `word=true`
to a call matching whole words. Checked on the references a provider writes (before any edge spells
them), and every suggestion of a given value in the providers' source is one reviewed here."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from sofia.errors import CLOSE, OPEN, SEPARATOR
from sofia.providers.contract import Context
from sofia.providers.registry import by_name
from tests.helpers import write_files

PROVIDERS = Path(__file__).resolve().parents[2] / "sofia" / "providers"
SUGGESTION = re.compile(f"{OPEN}([a-z_0-9]+){SEPARATOR}([^{CLOSE}]*){CLOSE}")


def suggested(result: Any) -> set[tuple[str, Any]]:
    """Every (parameter, value) a result's strings suggest through `param(name, value)`."""
    found: set[tuple[str, Any]] = set()
    text = json.dumps(result, ensure_ascii=False)
    for name, value in SUGGESTION.findall(json.loads(json.dumps(text))):
        try:
            found.add((name, json.loads(value)))
        except ValueError:
            continue  # `…`: a value of the caller's choosing
    return found


def raw_call(tool: str, arguments: dict[str, Any], root: Path, budget: int | None) -> tuple[Any, Any]:
    """The provider's own result (references unspelled) and its validated parameters."""
    provider = by_name(tool)
    assert provider is not None
    params = provider.params.model_validate(arguments)
    return provider.run(params, Context(root=root, budget=budget)), params


def switched(params: Any) -> set[tuple[str, Any]]:
    """The call's switches as it gave them: a note naming one of these (`brief=true` to a brief
    call) suggests what was done. (A limit named with its value says what cut a list: not this.)"""
    return {(name, value) for name, value in params.model_dump().items() if isinstance(value, bool)}


GO = "package svc\n\n" + "".join(
    f"// F{i} does {i}.\nfunc F{i}(a int, b string) (int, error) {{\n\treturn a, nil\n}}\n\n"
    for i in range(40)
)


@pytest.mark.parametrize("brief", [False, True])
def test_code_suggests_brief_only_to_a_call_without_it(tmp_path: Path, brief: bool) -> None:
    write_files(tmp_path, {f"svc/s{i:02}.go": GO for i in range(12)})
    result, params = raw_call("code", {"files": ["svc"], "brief": brief}, tmp_path, 3000)
    assert result["omitted"]["files"] > 0
    assert (("brief", True) in suggested(result)) is not brief
    assert not suggested(result) & switched(params)


@pytest.mark.parametrize("word", [False, True])
def test_grep_suggests_whole_words_only_to_a_call_without_them(tmp_path: Path, word: bool) -> None:
    write_files(tmp_path, {f"src/m{i}.py": "needle = 1\nneedle()\n" * 20 for i in range(5)})
    arguments = {"patterns": ["needle"], "word": word, "max_per_pattern": 3}
    result, params = raw_call("grep", arguments, tmp_path, None)
    assert result["patterns"][0]["total"] == 200
    assert (("word", True) in suggested(result)) is not word
    assert not suggested(result) & switched(params)


# -- every suggestion of a given value, reviewed ------------------------------------------------------

REVIEWED = {
    ("code/fit.py", "brief", True): "FILES_HINT: only when brief was not given (BRIEF_FILES_HINT else)",
    ("code/summary_php.py", "api", True): "only computed without api (summarise returns before)",
    ("code/php_api.py", "api", True): "with api, about another file: call it on a parent",
    ("code/pipeline.py", "exported", True): "a statement of what api does to other files",
    ("grep/shape.py", "word", True): "NARROW: only when word was not given (NARROW_WORDS else)",
    ("grep/provider.py", "regex", True): "a description, not a note",
    ("grep/ripgrep.py", "regex", True): "an error of a regex: says to drop regex=true",
    ("packagist/status.py", "offline", True): "a fix of a network error, which offline calls do not meet",
    ("packagist/release.py", "dry_run", True): "release not confirmed: the call was not a dry run",
    ("packagist/release.py", "yes", True): "release not confirmed: yes was not given",
    (
        "changed/__init__.py",
        "scope",
        "repo",
    ): "files outside the workspace are only unlisted with scope=workspace",
    ("cc/bash.py", "limit", 0): "LIMIT_HINT: only for a list the limit cut, so limit > 0",
    ("cc/candidates.py", "limit", 0): "LIMIT_HINT: only for a list the limit cut, so limit > 0",
    ("cc/ls.py", "limit", 0): "only for a list the limit cut, so limit > 0",
    (
        "refs/bound.py",
        "max_per_symbol",
        0,
    ): "the sample note: a sample is taken only when uses are capped (> 0)",
    ("refs/shape.py", "max_per_symbol", 0): "files left unclassified: only a capped call samples",
}
"""(module under sofia/providers, parameter, value) -> why it never suggests what the call did."""


def _literal_suggestions() -> set[tuple[str, str, Any]]:
    found = set()
    for path in PROVIDERS.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call) and getattr(node.func, "id", "") == "param" and len(node.args) == 2
            ):
                continue
            name, value = node.args
            if (
                isinstance(name, ast.Constant)
                and isinstance(value, ast.Constant)
                and value.value is not Ellipsis
            ):
                found.add((path.relative_to(PROVIDERS).as_posix(), name.value, value.value))
    return found


def test_every_suggestion_of_a_given_value_is_reviewed() -> None:
    """A new `param(name, value)` in a note must say here why it cannot suggest what the call did."""
    assert _literal_suggestions() == set(REVIEWED)
