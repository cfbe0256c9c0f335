"""The documentation explains the project from inside the repository: generated pages are fresh,
the README is a front page with the two set-up commands first, and every link resolves."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_generated_pages_are_fresh() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "docs.py"), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_the_readme_is_a_front_page_with_the_two_commands_first() -> None:
    text = (REPO / "README.md").read_text()
    assert len(text.encode()) <= 12 * 1024
    head = text.splitlines()[:6]
    assert any("pip install . && sf doctor" in line for line in head)
    assert any("python3 -m pip install tox && tox" in line for line in head)


def test_every_relative_link_resolves() -> None:
    broken = []
    for page in [REPO / "README.md", REPO / "BENCHMARKS.md", *sorted((REPO / "docs").rglob("*.md"))]:
        for target in LINK.findall(page.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(REPO)} -> {target}")
    assert broken == []
