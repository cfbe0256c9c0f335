"""Shared benchmark plumbing: side-by-side timing (median of N), token ratios, and corpora of real
public code installed into `bench/.cache` from the registries this machine reaches (never committed)."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("SOFIA_BENCH_CACHE", ROOT / "bench" / ".cache"))

sys.path.insert(0, str(ROOT))

from sofia.output.tokens import estimate  # noqa: E402

if TYPE_CHECKING:
    from mcp import ClientSession


def sf_command(*args: str) -> list[str]:
    """The `sf` console script of this interpreter (what a user runs), falling back to `-m sofia`."""
    script = Path(sys.executable).with_name("sf")
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-m", "sofia", *args]


@asynccontextmanager
async def mcp_session(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    """An initialized MCP client session with `sf mcp ARGS` started in `cwd` through the SDK's stdio
    client, its stderr discarded; `env` None: the SDK's default environment for a server."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    command = sf_command("mcp", *args)
    params = StdioServerParameters(command=command[0], args=command[1:], cwd=cwd, env=env)
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def run(
    args: Sequence[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    full_env = dict(os.environ)
    full_env.setdefault("SOFIA_FOOTER", "off")
    if env:
        full_env.update(env)
    return subprocess.run(list(args), cwd=cwd, env=full_env, capture_output=True, stdin=subprocess.DEVNULL)


def median_seconds(action: Callable[[], object], repeat: int = 5, warmup: int = 1) -> float:
    """Median wall time of `action` over `repeat` runs after `warmup` untimed runs."""
    for _ in range(warmup):
        action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_command(
    args: Sequence[str], cwd: Path | None = None, repeat: int = 5, env: dict[str, str] | None = None
) -> float:
    return median_seconds(lambda: run(args, cwd=cwd, env=env), repeat=repeat)


def tokens_of_command(args: Sequence[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> int:
    """Estimated tokens of what a command prints on stdout."""
    return estimate(run(args, cwd=cwd, env=env).stdout)


def ratio(numerator: float, denominator: float) -> str:
    if denominator == 0:
        return "n/a"
    return f"{numerator / denominator:.2f}×"


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def section(title: str, body: str, command: str) -> None:
    """Print one BENCHMARKS.md section: its title, the table, and the command that produced it."""
    print(f"## {title}\n\n{body}\n\nMeasured with `{command}`.\n", flush=True)


def debian_package(name: str) -> Path:
    """The extracted contents of a Debian package (downloaded with `apt-get download`)."""
    target = CACHE / "deb" / name
    if (target / ".done").exists():
        return target
    work = CACHE / "deb" / f".{name}.download"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    subprocess.run(["apt-get", "download", name], cwd=work, check=True, capture_output=True)
    debs = list(work.glob("*.deb"))
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for deb in debs:
        subprocess.run(["dpkg-deb", "-x", str(deb), str(target)], check=True)
        (target / ".version").write_text(deb.name + "\n")
    shutil.rmtree(work)
    (target / ".done").write_text("")
    return target


def npm_package(spec: str) -> Path:
    """The extracted tarball of an npm package (`name@version`), as `npm pack` fetches it."""
    safe = spec.replace("/", "__").replace("@", "_at_")
    target = CACHE / "npm" / safe
    if (target / ".done").exists():
        return target / "package"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    done = subprocess.run(
        ["npm", "pack", spec, "--silent"], cwd=target, check=True, capture_output=True, text=True
    )
    tarball = target / done.stdout.strip().splitlines()[-1]
    with tarfile.open(tarball) as archive:
        archive.extractall(target, filter="data")
    tarball.unlink()
    (target / ".done").write_text(spec + "\n")
    return target / "package"


def pypi_sdist(spec: str, *pip_options: str) -> Path:
    """The extracted source distribution of a PyPI package (`name==version`); `pip_options` are
    passed to `pip download` (`--ignore-requires-python` for an application's sdist that only
    states the Python it runs on)."""
    safe = spec.replace("==", "-")
    target = CACHE / "pypi" / safe
    if (target / ".done").exists():
        return next(p for p in target.iterdir() if p.is_dir())
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--no-binary",
            ":all:",
            "-q",
            "-d",
            str(target),
            *pip_options,
            spec,
        ],
        check=True,
        capture_output=True,
    )
    for archive_path in list(target.iterdir()):
        with tarfile.open(archive_path) as archive:
            archive.extractall(target, filter="data")
        archive_path.unlink()
    (target / ".done").write_text(spec + "\n")
    return next(p for p in target.iterdir() if p.is_dir())
