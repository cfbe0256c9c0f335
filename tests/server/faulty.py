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

from sofia.providers.contract import Context, ProviderError
from sofia.providers.params import Input
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


class CpuParams(_Strict):
    n: Annotated[int, Field(ge=0, description="loop iterations of pure Python")] = 3_000_000


def cpu(params: CpuParams, ctx: Context) -> dict[str, Any]:
    total = 0
    for i in range(params.n):
        total += i * i % 7
    return {"total": total}


class PathParams(_Strict):
    files: Annotated[list[str], Field(default_factory=list, description="paths or globs")]
    root: Annotated[str, Field(description="a directory")] = "."
    file: Annotated[str, Field(description="one file")] = ""
    package: Annotated[str, Field(description="a package name or a path")] = ""
    projects_dir: Annotated[str | None, Field(description="a projects root")] = None
    session: Annotated[str, Field(description="a session selector or a transcript path")] = ""


def paths(params: PathParams, ctx: Context) -> dict[str, Any]:
    return params.model_dump()


def _tool(
    name: str, run: str, params: str, group: str = "test", annotations: Annotations = LOCAL
) -> Provider:
    return Provider(
        name=f"{group}_{name}",
        cli=(group, name),
        module=__name__,
        description=f"Test provider: {run}.",
        annotations=annotations,
        input_attr=params,
        run_attr=run,
    )


PROVIDERS: tuple[Provider, ...] = (
    _tool("sleep", "sleep", "SleepParams"),
    _tool("once", "sleep", "SleepParams", annotations=RUNS_PROJECT_CODE),
    _tool("spin", "spin", "SpinParams"),
    _tool("crash", "crash", "CrashParams"),
    _tool("print", "noise", "PrintParams"),
    _tool("big", "big", "BigParams"),
    _tool("boom", "boom", "NoParams"),
    _tool("fail", "fail", "NoParams"),
    _tool("raise", "raise_long", "RaiseParams"),
    _tool("stderr", "stderr", "StderrParams"),
    _tool("pid", "pid", "NoParams"),
    _tool("progress", "progress", "ProgressParams"),
    _tool("echo", "echo", "EchoParams"),
    _tool("cpu", "cpu", "CpuParams"),
    _tool("paths", "paths", "PathParams"),
    _tool("paths", "paths", "PathParams", group="cc"),
    Provider(
        name="test_noisy",
        cli=("test", "noisy"),
        module="tests.server.noisy",
        description="Test provider whose module prints to stdout when imported.",
    ),
)
