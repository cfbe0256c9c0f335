"""Every environment setting is in `sofia/settings.py`'s one list and read through it: no other
module reads `os.environ` for a `SOFIA_`/`CC_` name, and every such name sofia spells is listed
(so the generated settings page is complete)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sofia import settings
from sofia.errors import UsageError

REPO = Path(__file__).resolve().parents[2]
OURS = re.compile(r"(?:SOFIA|CC)_[A-Z0-9_]+")
SOURCES = sorted(
    path
    for folder in ("sofia", "scripts")
    for path in (REPO / folder).rglob("*.py")
    if "__pycache__" not in path.parts
)


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level `NAME = "SOFIA_..."` bindings, so `environ.get(JOBS_ENV)` is seen through."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    return found


def _is_environ(node: ast.expr) -> bool:
    """`os.environ` or a bare `environ` (`from os import environ`)."""
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
        isinstance(node, ast.Name) and node.id == "environ"
    )


def _reads_by_name(func: ast.expr) -> bool:
    """`environ.get`, `environ.pop`, `environ.setdefault` or `os.getenv`."""
    if not isinstance(func, ast.Attribute):
        return False
    return func.attr == "getenv" or (_is_environ(func.value) and func.attr in ("get", "pop", "setdefault"))


def environment_reads(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, name) of every read of a named variable: `environ[X]`, `environ.get(X)`,
    `environ.pop(X)`, `environ.setdefault(X)`, `os.getenv(X)`."""
    names = _constants(tree)
    reads: list[tuple[int, str]] = []

    def named(arg: ast.expr) -> str:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
        if isinstance(arg, ast.Name):
            return names.get(arg.id, "")
        return ""

    for node in ast.walk(tree):
        key: ast.expr | None = None
        if isinstance(node, ast.Subscript) and _is_environ(node.value):
            key = node.slice
        elif isinstance(node, ast.Call) and node.args and _reads_by_name(node.func):
            key = node.args[0]
        if key is not None:
            reads.append((node.lineno, named(key)))
    return reads


def test_no_module_but_settings_reads_a_sofia_or_cc_variable() -> None:
    offenders = [
        f"{path.relative_to(REPO)}:{line}: {name}"
        for path in SOURCES
        if path != REPO / "sofia" / "settings.py"
        for line, name in environment_reads(ast.parse(path.read_text("utf-8")))
        if OURS.fullmatch(name)
    ]
    assert offenders == []


def test_the_reader_sees_every_spelling_of_a_read() -> None:
    tree = ast.parse(
        'import os\nfrom os import environ\nJOBS = "SOFIA_X"\n'
        'os.environ.get(JOBS)\nos.environ["CC_Y"]\nenviron.get("SOFIA_Z", "")\nos.getenv("SOFIA_W")\n'
    )
    assert environment_reads(tree) == [(4, "SOFIA_X"), (5, "CC_Y"), (6, "SOFIA_Z"), (7, "SOFIA_W")]


def test_every_name_sofia_spells_is_a_listed_setting() -> None:
    listed = {setting.env for setting in settings.SETTINGS}
    spelled = {
        f"{path.relative_to(REPO)}: {node.value}"
        for path in SOURCES
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and OURS.fullmatch(node.value)
        if node.value not in listed
    }
    assert spelled == set()


@pytest.mark.parametrize("setting", settings.SETTINGS, ids=lambda setting: setting.env)
def test_a_bad_value_is_a_usage_error_or_any_text_is_taken(
    setting: settings.Setting, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is silently ignored: a value the setting does not accept names the variable."""
    monkeypatch.setenv(setting.env, "\u00bfbad?")
    if setting.parse in (settings.text, settings.names):
        assert settings.get(setting.env) not in ("", ())
        return
    with pytest.raises(UsageError, match=f"^{setting.env} must be "):
        settings.get(setting.env)


def test_the_settings_page_lists_every_setting() -> None:
    page = (REPO / "docs" / "reference" / "settings.md").read_text("utf-8")
    assert [setting.env for setting in settings.SETTINGS if f"| `{setting.env}` |" not in page] == []
