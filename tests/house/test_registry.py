"""Every hook of every record resolves to what it must be: a misspelt hook, a model that forgets
`Input`, a path parameter without its marker or a mode without its command fails here, not in a
user's first call."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest
from pydantic import BaseModel

from sofia.providers.contract import Implementation
from sofia.providers.params import Input, path_param
from sofia.providers.registry import GROUPS, PROVIDERS, Provider, command_entries, group_named

REAL = [p for p in PROVIDERS if not p.module.startswith("tests.")]
PATH_NAMES = {"root", "file", "files", "paths", "projects_dir", "dir", "directory", "path"}
"""Field names that always name paths: such a field without `PathParam` would be unconfined."""


def _arity(function: object) -> int:
    """Positional parameters (keyword-only ones with defaults are optional extras)."""
    parameters = inspect.signature(function).parameters.values()  # type: ignore[arg-type]
    return sum(1 for p in parameters if p.kind is not inspect.Parameter.KEYWORD_ONLY)


@pytest.mark.parametrize("provider", REAL, ids=lambda p: p.name)
def test_every_hook_resolves_and_has_its_shape(provider: Provider) -> None:
    implementation = provider.implementation
    assert isinstance(implementation, Implementation)
    assert issubclass(implementation.params, Input)
    assert implementation.params.model_config.get("extra") == "forbid"
    assert _arity(implementation.run) == 2
    if implementation.cli_params is not None:
        assert issubclass(implementation.cli_params, implementation.params) or issubclass(
            implementation.cli_params, Input
        )
    for hook, arity in (("prepare", 2), ("render", 2), ("as_text", 1), ("extra_roots", 0)):
        value = getattr(implementation, hook)
        if value is not None:
            assert callable(value) and _arity(value) == arity, hook
    if implementation.extra_roots is not None:
        assert all(isinstance(root, Path) and root.is_absolute() for root in implementation.extra_roots())


@pytest.mark.parametrize("provider", REAL, ids=lambda p: p.name)
def test_every_path_parameter_is_marked(provider: Provider) -> None:
    for model in {provider.params, provider.cli_params}:
        for name, field in model.model_fields.items():
            if name in PATH_NAMES:
                assert path_param(field) is not None, f"{provider.name}.{name} is a path without PathParam"


@pytest.mark.parametrize("provider", [p for p in REAL if p.head_start], ids=lambda p: p.name)
def test_a_head_start_module_has_start_and_discard(provider: Provider) -> None:
    module = importlib.import_module(provider.head_start)
    assert _arity(module.start) == 2 and _arity(module.discard) == 0


@pytest.mark.parametrize("provider", [p for p in REAL if p.dedup_bypass], ids=lambda p: p.name)
def test_a_dedup_bypass_is_a_boolean_parameter(provider: Provider) -> None:
    field = provider.params.model_fields[provider.dedup_bypass]
    assert field.annotation is bool and field.default is False


@pytest.mark.parametrize("provider", [p for p in REAL if p.mode_flag], ids=lambda p: p.name)
def test_a_cli_only_mode_extends_the_command_it_lives_in(provider: Provider) -> None:
    own = command_entries(provider.cli)[0]
    assert not provider.mcp and own.mcp and not own.mode_flag
    assert issubclass(provider.params, own.params)
    flag = provider.params.model_fields[provider.mode_flag]
    assert flag.annotation is bool and flag.default is False
    assert provider.mode_flag not in own.params.model_fields


@pytest.mark.parametrize("provider", [p for p in REAL if p.self_check is not None], ids=lambda p: p.name)
def test_a_self_check_is_a_valid_call(provider: Provider) -> None:
    assert provider.mcp
    assert isinstance(provider.params.model_validate(dict(provider.self_check or {})), BaseModel)


def test_every_served_tool_has_a_line_in_the_instructions() -> None:
    for provider in REAL:
        if provider.mcp:
            group = group_named(provider.group)
            assert provider.guide or (group is not None and group.guide), provider.name


def test_every_example_runs_its_own_command() -> None:
    for provider in REAL:
        for example in provider.examples:
            assert example.startswith("sf " + " ".join(provider.cli)), example


def test_names_are_unique_and_groups_known() -> None:
    names = [p.name for p in PROVIDERS]
    assert len(names) == len(set(names))
    grouped = {p.group for p in REAL if len(p.cli) == 2}
    assert grouped <= {group.name for group in GROUPS}


def test_the_server_and_workers_name_no_tool_or_group() -> None:
    """They know tools only through the records: no string literal in them names one (a mapping
    key such as JSON-RPC's `"code":` is not a tool)."""
    import re

    names = {p.name for p in REAL} | {g.name for g in GROUPS} | {p.group for p in REAL}
    literal = re.compile(r"[\"']({})(?:[\"'](?!\s*:\s*\S)|_)".format("|".join(sorted(map(re.escape, names)))))
    root = Path(__file__).resolve().parents[2] / "sofia"
    found = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for package in ("server", "workers")
        for path in sorted((root / package).rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if literal.search(line)
    ]
    assert found == []
