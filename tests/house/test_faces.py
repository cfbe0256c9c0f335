"""One public face per provider package: a module that uses a provider's machinery (another
provider, the CLI's doctor, the server) imports it from that package itself (`from sofia.providers.grep import Ripgrep`), never from the modules below it
(docs/adding-a-tool.md), so a package can rearrange its modules without breaking another tool.
grep's face also keeps its package free of imports, so its head start runs before pydantic."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.house.imports import PACKAGE, graph

PROVIDERS_DIR = PACKAGE / "providers"
FACES = ["sofia.providers.cc", "sofia.providers.composer", "sofia.providers.grep"]
"""The packages whose faces other tools import from."""


def provider_package(module: str) -> str | None:
    """`sofia.providers.grep` for any module of that package; None outside provider packages."""
    parts = module.split(".")
    if len(parts) < 3 or parts[:2] != ["sofia", "providers"]:
        return None
    return ".".join(parts[:3]) if (PROVIDERS_DIR / parts[2]).is_dir() else None


def test_nothing_imports_below_a_providers_face_from_outside_its_package() -> None:
    reaching = [
        f"{module}:{line} imports {target}"
        for module, targets in graph().items()
        for target, line in targets.items()
        if provider_package(target) not in (None, provider_package(module))
        and target != provider_package(target)
    ]
    assert reaching == []


def test_the_rule_sees_a_provider_reaching_below_a_face() -> None:
    """The rule itself: a refs module importing grep's ripgrep module is named, its face is not."""
    assert provider_package("sofia.providers.grep.ripgrep") == "sofia.providers.grep"
    assert provider_package("sofia.providers.grep") == "sofia.providers.grep"
    assert provider_package("sofia.providers.contract") is None
    assert provider_package("sofia.syntax.uses") is None


@pytest.mark.parametrize("face", FACES)
def test_every_public_name_of_a_face_resolves(face: str) -> None:
    package = importlib.import_module(face)
    names: list[str] = package.__all__
    assert names == sorted(names, key=lambda n: (not n.isupper(), not n[:1].isupper(), n))
    missing = [name for name in names if getattr(package, name, None) is None]
    assert missing == []
    assert set(names) <= set(dir(package))


def test_an_unknown_name_of_grep_s_face_is_an_attribute_error() -> None:
    import sofia.providers.grep as grep

    with pytest.raises(AttributeError, match="no attribute 'ripgrep_internals'"):
        _ = grep.ripgrep_internals


def test_importing_grep_s_face_imports_nothing_below_it() -> None:
    """The head start imports the package before pydantic: the face must load nothing itself."""
    probe = (
        "import sys, sofia.providers.grep as grep\n"
        "below = sorted(m for m in sys.modules if m.startswith('sofia.providers.grep.'))\n"
        "print(below, 'pydantic' in sys.modules)\n"
        "grep.start_head_start\n"
        "print('pydantic' in sys.modules)\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["[] False", "False"]
