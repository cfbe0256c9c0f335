"""The distribution as users get it: `python -m build` makes an sdist and a wheel that `twine check`
passes, and the wheel installed in a fresh virtual environment, away from any source tree, passes
`sf doctor` (and `sofia`, the second command, is the same program)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return out


def test_the_sdist_and_wheel_pass_twine_check(dist: Path) -> None:
    built = sorted(p.name for p in dist.iterdir())
    assert any(name.endswith(".whl") for name in built) and any(name.endswith(".tar.gz") for name in built)
    assert all(name.startswith("sofia_ctx-") for name in built)
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", *map(str, dist.iterdir())], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_wheel_in_a_fresh_environment_passes_doctor(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    environment = tmp_path / "env"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    elsewhere = tmp_path / "somewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{environment / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    doctor = subprocess.run(
        [str(environment / "bin" / "sf"), "doctor", "--json"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = json.loads(doctor.stdout)
    assert doctor.returncode == 0 and report["ok"], doctor.stdout + doctor.stderr
    where = subprocess.run(
        [str(python), "-c", "import sofia; print(sofia.__file__)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert str(environment) in where.stdout and str(REPO) not in where.stdout
    second = subprocess.run(
        [str(environment / "bin" / "sofia"), "--version"], env=env, capture_output=True, text=True
    )
    assert second.returncode == 0 and second.stdout.startswith("sf ")


def test_the_wheel_ships_every_query_file(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    shipped = {name for name in zipfile.ZipFile(wheel).namelist() if name.endswith(".scm")}
    wanted = {
        path.relative_to(REPO).as_posix() for path in (REPO / "sofia" / "syntax" / "languages").glob("*.scm")
    }
    assert wanted and wanted <= shipped
