"""Same input, byte-identical output: a mixed-language directory, every format, across processes."""

from __future__ import annotations

import pytest

from sofia.output import render as output
from sofia.providers.code import render
from tests.code.conftest import FIXTURES, code
from tests.helpers import run_sf

MIXED = FIXTURES / "mixed"


@pytest.mark.parametrize("fmt", ["toon", "json", "md"])
def test_twenty_runs_are_byte_identical(fmt: str, no_passthrough: None) -> None:
    outputs = {output.render(code(MIXED, "src"), fmt, render) for _ in range(20)}
    assert len(outputs) == 1
    (text,) = outputs
    for name in ("api.go", "models.py", "UserController.php", "auth.ts", "TaskView.vue"):
        assert f"src/{name}" in text
    assert "README.md" not in text


@pytest.mark.parametrize("fmt", ["toon", "json", "md"])
def test_separate_processes_agree(fmt: str, no_passthrough: None) -> None:
    runs = [
        run_sf(
            "code",
            "src",
            "--format",
            fmt,
            cwd=MIXED,
            env={"SOFIA_CODE_RAW_BELOW": "0", "PYTHONHASHSEED": seed},
        )
        for seed in ("1", "2")
    ]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stdout == output.render(code(MIXED, "src"), fmt, render)
