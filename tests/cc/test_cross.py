"""Cross-cutting checks of every cc tool: determinism, the output budget, the input schema, and no
planted secret in any output format of the real CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from sofia.output.budget import cost
from sofia.output.render import render
from sofia.providers.cc import bash, candidates, ls, prompts, resume, show
from sofia.providers.registry import by_name
from tests.cc import transcripts
from tests.cc.conftest import Call
from tests.helpers import run_sf

MODULES = {
    "cc_ls": ls,
    "cc_show": show,
    "cc_resume": resume,
    "cc_prompts": prompts,
    "cc_bash": bash,
    "cc_candidates": candidates,
}
CALLS: list[tuple[Any, dict[str, Any]]] = [
    (ls, {}),
    (show, {"session": "ops"}),
    (show, {"session": "3f2a"}),
    (resume, {"session": "ops"}),
    (prompts, {"session": "ops"}),
    (bash, {"session": "ops"}),
    (candidates, {"min_count": 1}),
]


def _rows(result: dict[str, Any], key: str) -> list[Any]:
    value: Any = result
    for part in key.split("."):
        value = value[part]
    return list(value)


@pytest.mark.parametrize(("module", "params"), CALLS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_two_runs_are_byte_identical(
    call: Call, full_root: Path, module: Any, params: dict[str, Any]
) -> None:
    first = orjson.dumps(call(module, projects_dir=str(full_root), **params))
    assert orjson.dumps(call(module, projects_dir=str(full_root), **params)) == first


@pytest.mark.parametrize(("module", "params"), CALLS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_a_300_token_budget_fits_and_omitted_adds_up(
    call: Call, full_root: Path, module: Any, params: dict[str, Any]
) -> None:
    whole = call(module, projects_dir=str(full_root), **params)
    small = call(module, projects_dir=str(full_root), budget=300, **params)
    assert cost(small) <= 300 or any("still over the output budget" in note for note in small["notes"])
    for key, count in small.get("omitted", {}).items():
        assert count > 0
        shown_small = len(_rows(small, key)) if key != "prompts" or "prompts" in small else 0
        shown_whole = len(_rows(whole, key))
        assert shown_small + count == shown_whole + whole.get("omitted", {}).get(key, 0), key


def test_budget_cuts_are_announced(call: Call, full_root: Path) -> None:
    small = call(show, session="ops", projects_dir=str(full_root), budget=300)
    assert small["omitted"]
    assert small["notes"]


def test_redact_is_a_cli_only_field() -> None:
    """The MCP schemas themselves are snapshotted with every tool's in tests/server/tools.snapshot.json."""
    for module in MODULES.values():
        assert "redact" not in module.Params.model_fields
        assert module.CliParams.model_fields["redact"].default is True


def test_registration() -> None:
    for name, module in MODULES.items():
        provider = by_name(name)
        assert provider is not None
        assert provider.cli == ("cc", name.removeprefix("cc_"))
        assert provider.module == module.__name__
        assert provider.cli_params is module.CliParams
        assert provider.annotations.read_only and not provider.annotations.open_world
        assert provider.mcp


SECRET_CALLS = [
    (ls, {}),
    (show, {"session": "ops"}),
    (resume, {"session": "ops"}),
    (prompts, {"session": "ops"}),
    (bash, {"session": "ops"}),
    (candidates, {"min_count": 1}),
]


def _planted(text: str) -> int:
    return sum(text.count(secret) for secret in transcripts.SECRETS.values())


@pytest.mark.parametrize(("module", "params"), SECRET_CALLS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_no_planted_secret_reaches_any_format(
    call: Call, full_root: Path, module: Any, params: dict[str, Any]
) -> None:
    """Rendered exactly as the CLI renders; `redactions` counts what the output would otherwise show."""
    provider = by_name("cc_" + module.__name__.rsplit(".", 1)[1])
    assert provider is not None
    result = call(module, projects_dir=str(full_root), **params)
    for fmt in ("toon", "json", "md"):
        text = render(result, fmt, provider.render)
        assert _planted(text) == 0, (fmt, text)
    shown = call(module, projects_dir=str(full_root), cli=True, redact=False, **params)
    assert shown["redactions"] == 0
    assert result["redactions"] == _planted(render(shown, "json"))
    assert result["redactions"] > 0 or module is ls


@pytest.mark.parametrize(
    "args",
    [
        ("ls",),
        ("show", "ops"),
        ("resume", "ops"),
        ("prompts", "ops", "--md"),
        ("bash", "ops", "--json"),
        ("candidates", "--min-count", "1"),
    ],
    ids=lambda a: a[0],
)
def test_the_real_cli_never_prints_a_planted_secret(
    full_root: Path, tmp_path: Path, args: tuple[str, ...]
) -> None:
    env = {"CC_PROJECTS_DIR": str(full_root), "SOFIA_CACHE_DIR": str(tmp_path / "cache")}
    done = run_sf("cc", *args, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert _planted(done.stdout + done.stderr) == 0
    if args[0] != "ls":
        assert "[REDACTED:" in done.stdout


def test_the_cli_shows_secrets_only_when_asked(full_root: Path, tmp_path: Path) -> None:
    done = run_sf(
        "cc",
        "prompts",
        "ops",
        "--no-redact",
        "--json",
        env={"CC_PROJECTS_DIR": str(full_root), "SOFIA_CACHE_DIR": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert transcripts.SECRETS["github"] in done.stdout


def test_no_redact_is_not_in_the_mcp_schema() -> None:
    for module in MODULES.values():
        assert "redact" not in module.Params.model_json_schema()["properties"]
