"""Errors speak one language: sofia's words, never pydantic's; one exit status per kind of error (a
refusal of the arguments is a usage error, 2, whoever found it); a type error says what would do
(`max_per_pattern: a whole number, e.g. 30`); a mistyped value names the closest; no count twice."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.params import _shape
from sofia.providers.registry import served
from sofia.server.validation import validate
from tests.helpers import run_sf
from tests.server.harness import connect, server_env, text

PYDANTIC = (
    "Input should",
    "should have",
    "after validation",
    "valid integer",
    "valid list",
    "valid string",
    "valid boolean",
    "unable to parse",
    "Field required",
    "Extra inputs",
    "greater than or equal",
    "less than or equal",
)
"""Pydantic's own sentences: none may reach a caller."""


def pydantic_free(message: str) -> bool:
    return not any(phrase in message for phrase in PYDANTIC)


def _wrong_values(field: Any) -> list[Any]:
    """Values of the wrong type or outside the bounds for `field`."""
    shape = _shape(field.annotation)
    wrong: dict[str, list[Any]] = {
        "int": ["lots", 2.5, True, -(10**9), 10**12],
        "float": ["lots", True, -(10**9)],
        "bool": ["maybe", 3],
        "str": [{"a": 1}, ["x"] * 3],
        "list": [{"a": 1}, list(range(2000)), [{"a": 1}]],
        "other": [{"a": 1}, "zzz-no-such-choice"],
    }
    values = list(wrong[shape])
    if typing.get_origin(field.annotation) is typing.Literal or "Literal" in str(field.annotation):
        values.append("zzz-no-such-choice")
    return values


def _cases() -> list[tuple[str, str, Any]]:
    cases = []
    for provider in served():
        for name, field in provider.params.model_fields.items():
            cases.extend((provider.name, name, value) for value in _wrong_values(field))
    return cases


def test_no_refusal_of_any_tool_speaks_pydantic() -> None:
    """Every field of every tool, sent a value of the wrong type or out of bounds."""
    spoke = []
    for tool, name, value in _cases():
        provider = next(p for p in served() if p.name == tool)
        required = {n: "x" for n, f in provider.params.model_fields.items() if f.is_required() and n != name}
        _, problems = validate(provider.params, {**required, name: value})
        spoke += [f"{tool}.{name}={value!r:.40}: {line}" for line in problems if not pydantic_free(line)]
    assert spoke == []


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["refs", *"abcdefghi"], "SYMBOL: at most 8 values, not 9"),
        (["grep", *(f"p{i}" for i in range(33))], "too many patterns: 33 (at most 32)"),
        (["grep", "x", "--max-per-pattern", "-1"], "--max-per-pattern: 0 or more, not -1"),
        (
            ["grep", "x", "--max-per-pattern", "lots"],
            "--max-per-pattern: a whole number, e.g. 30, not 'lots'",
        ),
        (["refs", "two words"], "symbol name holds whitespace"),
        (["cc", "ls", "--since", "3x"], '--since: a period such as 30m, 24h, 7d or 1h30m, not "3x"'),
        (
            ["changed", "--scope", "rep"],
            "--scope: unknown 'rep'; did you mean repo? (one of: workspace, repo)",
        ),
        (["composer", "check", "--jobs", "0"], "--jobs: 1 or more, not 0"),
        (["init", "--client", "cursr"], "--client: unknown 'cursr'; did you mean cursor?"),
        (["init", "--client", "cursor", "--tools", "cod"], "--tools: unknown cod (did you mean code?)"),
        (["mcp", "--tools", "cod"], "--tools: unknown cod (did you mean code?)"),
    ],
)
def test_a_refusal_of_the_arguments_is_a_usage_error_in_sofia_s_words(
    tmp_path: Path, argv: list[str], said: str
) -> None:
    done = run_sf(*argv, cwd=tmp_path, env={"HOME": str(tmp_path)})
    assert done.returncode == 2, done.stderr
    assert said in done.stderr
    assert pydantic_free(done.stderr)


def test_a_problem_of_the_disk_stays_a_failure(tmp_path: Path) -> None:
    done = run_sf("grep", "x", "--root", "no-such-dir", cwd=tmp_path)
    assert done.returncode == 1 and "root not found: no-such-dir" in done.stderr


def test_a_long_name_is_counted_once(tmp_path: Path) -> None:
    done = run_sf("refs", "x" * 100_000, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("characters") == 2  # its length, once, and the limit
    assert "(100,000 characters); at most 128 characters" in done.stderr
    assert "100000" not in done.stderr


@pytest.mark.anyio
async def test_mcp_refusals_show_a_value_that_works_and_the_closest_choice(tmp_path: Path) -> None:
    workspace = tmp_path / "w"
    workspace.mkdir()
    async with connect(workspace, env=server_env(test_providers=False)) as server:
        typed = await server.call("grep", {"patterns": ["x"], "max_per_pattern": "lots"})
        choice = await server.call("changed", {"scope": "rep"})
        many = await server.call("refs", {"symbols": list("abcdefghi")})
        unknown = await server.call("grep", {"patterns": ["x"], "max_per_patern": 5})
    assert typed.is_error and 'max_per_pattern: a whole number, e.g. 30, not "lots"' in text(typed)
    assert choice.is_error and 'scope: unknown "rep"; did you mean repo? (one of: workspace, repo)' in text(
        choice
    )
    assert many.is_error and "symbols: at most 8 values, not 9" in text(many)
    assert unknown.is_error and "max_per_patern: unknown parameter; did you mean max_per_pattern?" in text(
        unknown
    )
    for result in (typed, choice, many, unknown):
        assert pydantic_free(text(result))
