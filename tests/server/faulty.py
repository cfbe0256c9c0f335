"""Providers that misbehave on purpose, for the MCP server's fault-path tests.

Registered only when `SOFIA_TEST_PROVIDERS=tests.server.faulty` (see `sofia.providers.registry`);
the server and its workers import this module through PYTHONPATH set by the tests.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from sofia.providers.cc.params import SESSION_PATH, data_roots
from sofia.providers.composer.params import PACKAGE_PATH
from sofia.providers.contract import Context, Implementation, ProviderError
from sofia.providers.params import Input, PathParam
from sofia.providers.registry import LOCAL, RUNS_PROJECT_CODE, Annotations, Provider


class _Strict(Input):
    """Every test provider's input is checked as every real provider's is."""


class SleepParams(_Strict):
    seconds: Annotated[float, Field(ge=0, description="how long to sleep, in Python")] = 1.0
    label: Annotated[str, Field(description="echoed back")] = ""


def sleep(params: SleepParams, ctx: Context) -> dict[str, Any]:
    start = time.time()
    ctx.progress(0, None, "started")
    end = time.monotonic() + params.seconds
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(left, 0.05))
    return {"label": params.label, "pid": os.getpid(), "start": start, "end": time.time()}


class SpinParams(_Strict):
    iterations: Annotated[
        int, Field(ge=1, description="PBKDF2 rounds: seconds of C code that ignores signals")
    ] = 10**9
    pidfile: Annotated[str, Field(description="where to write the pid of a child started first")] = ""


def spin(params: SpinParams, ctx: Context) -> dict[str, Any]:
    if params.pidfile:
        child = subprocess.Popen(["sleep", "300"], start_new_session=True, stdin=subprocess.DEVNULL)
        Path(params.pidfile).write_text(str(child.pid))
    ctx.progress(0, None, "started")
    hashlib.pbkdf2_hmac("sha256", b"x", b"y", params.iterations)
    return {"spun": params.iterations}


class CrashParams(_Strict):
    how: Annotated[Literal["segv", "exit", "kill"], Field(description="how the worker dies")] = "segv"
    delay: Annotated[float, Field(ge=0, description="seconds before dying")] = 0.0


def crash(params: CrashParams, ctx: Context) -> dict[str, Any]:
    time.sleep(params.delay)
    if params.how == "segv":
        ctypes.string_at(0)
    elif params.how == "exit":
        os._exit(3)
    os.kill(os.getpid(), signal.SIGKILL)
    return {}


class PrintParams(_Strict):
    marker: Annotated[str, Field(description="text printed to stdout three ways")] = "stray"


def noise(params: PrintParams, ctx: Context) -> dict[str, Any]:
    print(f"{params.marker} via print")
    print(f"{params.marker} via sys.__stdout__", file=sys.__stdout__)
    os.write(1, f"{params.marker} via os.write\n".encode())
    subprocess.run(
        ["sh", "-c", f"echo '{params.marker} via a subprocess'"], stdin=subprocess.DEVNULL, check=True
    )
    return {"printed": 4}


class BigParams(_Strict):
    size: Annotated[int, Field(ge=0, description="characters in the payload")] = 2_000_000


def big(params: BigParams, ctx: Context) -> dict[str, Any]:
    return {"blob": "x" * params.size}


class NoParams(_Strict):
    pass


def boom(params: NoParams, ctx: Context) -> dict[str, Any]:
    raise RuntimeError("boom")


class RaiseParams(_Strict):
    size: Annotated[int, Field(ge=0, description="characters in the exception's message")] = 1_000_000


def raise_long(params: RaiseParams, ctx: Context) -> dict[str, Any]:
    raise RuntimeError("m" * params.size)


class StderrParams(_Strict):
    megabytes: Annotated[float, Field(ge=0, description="how much to write to stderr, four ways")] = 4.0


def stderr(params: StderrParams, ctx: Context) -> dict[str, Any]:
    """Write a lot to stderr: through sys.stderr, fd 2, a child process, and as one long line."""
    quarter = int(params.megabytes * (1 << 20) / 4)
    line = "noise " * 15 + "\n"
    for _ in range(quarter // len(line)):
        print(line, end="", file=sys.stderr)
    sys.stderr.flush()
    chunk = (b"fd2 " * 20 + b"\n") * 100
    for _ in range(quarter // len(chunk)):
        os.write(2, chunk)
    subprocess.run(
        ["sh", "-c", f"yes child-noise | head -c {quarter} >&2"], stdin=subprocess.DEVNULL, check=True
    )
    os.write(2, b"\n" + b"L" * quarter + b"\n")  # `head -c` may have cut the child's last line
    return {"wrote": 4 * quarter}


def fail(params: NoParams, ctx: Context) -> dict[str, Any]:
    raise ProviderError("no such widget: gizmo", "pass an existing widget")


def pid(params: NoParams, ctx: Context) -> dict[str, Any]:
    return {"pid": os.getpid(), "root": str(ctx.root), "budget": ctx.budget}


class MeetParams(_Strict):
    place: Annotated[str, Field(description="a directory each caller of one meeting writes its pid into")]
    count: Annotated[int, Field(ge=1, description="how many callers meet there")] = 2


def meet(params: MeetParams, ctx: Context) -> dict[str, Any]:
    """Returns once `count` calls are running at the same time (each in a worker of its own, as a
    worker runs one call at a time), or when the deadline passes: then `met` says how many came."""
    place = Path(params.place)
    (place / str(os.getpid())).touch()
    while len(arrived := os.listdir(place)) < params.count and (ctx.time_left() or 1.0) > 0.5:
        time.sleep(0.02)
    return {"pid": os.getpid(), "met": len(arrived)}


class ProgressParams(_Strict):
    steps: Annotated[int, Field(ge=1, description="progress reports to send")] = 3
    pause: Annotated[float, Field(ge=0, description="seconds between two reports")] = 0.06


def progress(params: ProgressParams, ctx: Context) -> dict[str, Any]:
    for step in range(1, params.steps + 1):
        ctx.progress(step, params.steps, f"step {step}")
        time.sleep(params.pause)
    return {"steps": params.steps}


class EchoParams(_Strict):
    text: Annotated[str, Field(description="returned as is")] = ""


def echo(params: EchoParams, ctx: Context) -> dict[str, Any]:
    return {"text": params.text}


class ShapeParams(_Strict):
    size: Annotated[int, Field(ge=0, le=200, description="rows, or levels of nesting")] = 3


def rows(params: ShapeParams, ctx: Context) -> dict[str, Any]:
    """A table: uniform rows, the shape TOON writes most compactly."""
    return {"rows": [{"id": i, "name": f"row-{i}", "ok": i % 2 == 0} for i in range(params.size)]}


def nest(params: ShapeParams, ctx: Context) -> dict[str, Any]:
    """Objects nested `size` deep: each level costs TOON more indentation than JSON a brace."""
    value: dict[str, Any] = {"leaf": True}
    for level in range(params.size):
        value = {f"level{level}": value}
    return value


class CpuParams(_Strict):
    n: Annotated[int, Field(ge=0, description="loop iterations of pure Python")] = 3_000_000


def cpu(params: CpuParams, ctx: Context) -> dict[str, Any]:
    total = 0
    for i in range(params.n):
        total += i * i % 7
    return {"total": total}


class PathParams(Input):
    """Path parameters spelt as the real providers spell them, plus one under a name no real
    provider uses (`where`): confinement follows the `PathParam` marker, not the name."""

    files: Annotated[
        list[str], Field(default_factory=list, description="paths or globs"), PathParam(glob=True)
    ]
    root: Annotated[str, Field(description="a directory"), PathParam()] = "."
    file: Annotated[str, Field(description="one file"), PathParam()] = ""
    package: Annotated[str, Field(description="a package name or a path"), PACKAGE_PATH] = ""
    projects_dir: Annotated[str | None, Field(description="a projects root"), PathParam()] = None
    session: Annotated[str, Field(description="a session selector or a transcript path"), SESSION_PATH] = ""
    where: Annotated[str, Field(description="a path under a new name"), PathParam()] = ""
    label: Annotated[str, Field(description="not a path")] = ""


def paths(params: PathParams, ctx: Context) -> dict[str, Any]:
    return params.model_dump()


SLEEP = Implementation(params=SleepParams, run=sleep)
SPIN = Implementation(params=SpinParams, run=spin)
CRASH = Implementation(params=CrashParams, run=crash)
NOISE = Implementation(params=PrintParams, run=noise)
BIG = Implementation(params=BigParams, run=big)
BOOM = Implementation(params=NoParams, run=boom)
FAIL = Implementation(params=NoParams, run=fail)
PID = Implementation(params=NoParams, run=pid)
MEET = Implementation(params=MeetParams, run=meet)
PROGRESS = Implementation(params=ProgressParams, run=progress)
ECHO = Implementation(params=EchoParams, run=echo)
CPU = Implementation(params=CpuParams, run=cpu)
RAISE = Implementation(params=RaiseParams, run=raise_long)
STDERR = Implementation(params=StderrParams, run=stderr)
PATHS = Implementation(params=PathParams, run=paths)
CC_PATHS = Implementation(params=PathParams, run=paths, extra_roots=data_roots)
ROWS = Implementation(params=ShapeParams, run=rows)
NEST = Implementation(params=ShapeParams, run=nest)


def _tool(name: str, implementation: str, group: str = "test", annotations: Annotations = LOCAL) -> Provider:
    return Provider(
        name=f"{group}_{name}",
        cli=(group, name),
        module=f"{__name__}:{implementation}",
        description=f"Test provider: {implementation.lower()}.",
        annotations=annotations,
    )


PROVIDERS: tuple[Provider, ...] = (
    _tool("sleep", "SLEEP"),
    _tool("once", "SLEEP", annotations=RUNS_PROJECT_CODE),
    _tool("spin", "SPIN"),
    _tool("crash", "CRASH"),
    _tool("print", "NOISE"),
    _tool("big", "BIG"),
    _tool("boom", "BOOM"),
    _tool("fail", "FAIL"),
    _tool("raise", "RAISE"),
    _tool("stderr", "STDERR"),
    _tool("pid", "PID"),
    _tool("meet", "MEET"),
    _tool("progress", "PROGRESS"),
    _tool("echo", "ECHO"),
    _tool("cpu", "CPU"),
    _tool("paths", "PATHS"),
    _tool("paths", "CC_PATHS", group="cc"),
    _tool("rows", "ROWS"),
    _tool("nest", "NEST"),
    Provider(
        name="test_noisy",
        cli=("test", "noisy"),
        module="tests.server.noisy",
        description="Test provider whose module prints to stdout when imported.",
    ),
)
