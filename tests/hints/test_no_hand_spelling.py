"""No provider message spells one of its parameters by hand (`limit=0`, `max_per_pattern`): such a
spelling is right for one caller only; `sofia.errors.param` is right for both."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from sofia.providers.registry import PROVIDERS

PROVIDERS_DIR = Path(__file__).resolve().parents[2] / "sofia" / "providers"


def _fields_by_package() -> dict[str, set[str]]:
    fields: dict[str, set[str]] = {}
    for provider in PROVIDERS:
        parts = provider.module_path.split(".")
        if parts[:2] != ["sofia", "providers"]:
            continue  # a test provider
        names = fields.setdefault(parts[2], set())
        names.update(provider.params.model_fields, provider.cli_params.model_fields)
    return fields


def _messages(path: Path) -> list[tuple[int, str]]:
    """String literals that read as text (they hold a space), leaving out docstrings and the
    descriptions of fields (which are the schema, not messages)."""
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        if isinstance(node, ast.keyword) and node.arg == "description":
            skip.update(id(sub) for sub in ast.walk(node.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and " " in node.value.strip()
    ]


def test_no_provider_message_spells_a_parameter_by_hand() -> None:
    found = []
    fields = _fields_by_package()
    assert len(fields) >= 9, fields
    for package, names in fields.items():
        for path in sorted((PROVIDERS_DIR / package).rglob("*.py")):
            for line, text in _messages(path):
                for name in names:
                    word = r"(?<![\w-])" + re.escape(name)
                    assigned = re.search(word + r"=(?!=)", text)
                    identifier = "_" in name and re.search(word + r"(?![\w-])", text)
                    if assigned or identifier:
                        found.append(f"{path.relative_to(PROVIDERS_DIR)}:{line}: {name} in {text!r}")
    assert found == [], "write these with sofia.errors.param:\n" + "\n".join(found)
