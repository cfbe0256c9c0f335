"""Stress `sf mcp` on a large tree with pathological files, and print one table: expected vs observed.

Not part of the test run. It builds (once, cached in bench/.cache/stress) a git repository of tens
of thousands of files — real Python copied from this interpreter's standard library, plus PHP, Go,
TypeScript and Vue generated in the shapes real projects have — and, for each run, adds the
pathological entries: a directory that cannot be read, a FIFO, symlink loops, a 50 MB one-line
file, invalid UTF-8, names with newlines. Then, against the real `sf mcp` over real pipes:

* 200 concurrent mixed calls on 2 and on 4 workers;
* a soak (2,000 calls): RSS and open descriptors of the server and its workers, before and after;
* SIGKILL of idle workers, of loky's helper processes, of a busy worker, and of the server itself
  (nothing may be left behind); SIGSTOP of a busy worker (its call times out, others proceed);
* the malformed-request list (`tests/server/malformed.py`), huge inputs, a stderr nobody reads;
* every pathological entry given to `code` and `grep`, and the round trip of paths from `changed`
  into `code` with the server started in a subdirectory of the repository.

A row passes only when the behaviour is right; the exit status is 1 when any row fails.
`--quick` runs a smaller tree and shorter loops (about a minute). Must run as root or not: as root a
directory is made unreadable by bind-mounting a dead process's /proc entry (needs CAP_SYS_ADMIN),
otherwise with `chmod 000`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import psutil
from harness import CACHE, ROOT, table
from mcp.shared.exceptions import MCPError

from tests.server.harness import RawClient, Spawned, spawn, wait_gone
from tests.server.malformed import CASES, answered, check_answers, line, request

SHORT_ERROR = 3000
"""Characters an error answer to a huge input may have."""


@dataclass
class Row:
    area: str
    check: str
    expected: str
    observed: str
    ok: bool


@dataclass
class Settings:
    files: int
    concurrent: int
    soak: int
    quick: bool


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)

    def add(self, area: str, check: str, expected: str, observed: str, ok: bool) -> None:
        row = Row(area, check, expected, observed.replace("\n", " ").replace("|", "/"), ok)
        self.rows.append(row)
        print(
            f"  {'PASS' if ok else 'FAIL'} {area}: {check}: {row.observed[:160]}", file=sys.stderr, flush=True
        )

    def print(self) -> None:
        body = [
            [r.area, r.check, r.expected, r.observed[:220], "pass" if r.ok else "**FAIL**"] for r in self.rows
        ]
        print(table(["area", "check", "expected", "observed", ""], body))
        failed = [r for r in self.rows if not r.ok]
        print(f"\n{len(self.rows) - len(failed)} of {len(self.rows)} rows pass.")


# -- the tree -----------------------------------------------------------------------------------


def _php(package: int, index: int) -> str:
    return f"""<?php

declare(strict_types=1);

namespace Acme\\Package{package}\\Domain;

use InvalidArgumentException;

/**
 * Orders of package {package}, batch {index}.
 */
final class OrderService{index}
{{
    /** @var array<int, array{{id: int, total: float}}> */
    private array $orders = [];

    public function __construct(private readonly string $currency = 'EUR')
    {{
    }}

    #[Route('/orders/{index}', methods: ['POST'])]
    public function place{index}(int $id, float $total): array
    {{
        if ($total < 0) {{
            throw new InvalidArgumentException("negative total for order $id");
        }}
        $this->orders[$id] = ['id' => $id, 'total' => $total];
        return $this->orders[$id];
    }}

    public function total{index}(): float
    {{
        return array_sum(array_column($this->orders, 'total'));
    }}

    private function currency(): string
    {{
        return $this->currency;
    }}
}}
"""


def _go(package: int, index: int) -> str:
    return f"""package pkg{package}

import (
\t"errors"
\t"fmt"
)

// Inventory{index} keeps stock counts for batch {index}.
type Inventory{index} struct {{
\tcounts map[string]int
}}

// NewInventory{index} returns an empty inventory.
func NewInventory{index}() *Inventory{index} {{
\treturn &Inventory{index}{{counts: map[string]int{{}}}}
}}

// Reserve{index} takes n items of sku out of stock.
func (i *Inventory{index}) Reserve{index}(sku string, n int) error {{
\tif i.counts[sku] < n {{
\t\treturn errors.New(fmt.Sprintf("not enough %s", sku))
\t}}
\ti.counts[sku] -= n
\treturn nil
}}
"""


def _ts(package: int, index: int) -> str:
    return f"""import {{ computed, ref }} from "vue";

export interface Customer{index} {{
  id: number;
  name: string;
  tags: string[];
}}

export class CustomerStore{index} {{
  private readonly items = ref<Customer{index}[]>([]);

  readonly count = computed(() => this.items.value.length);

  add{index}(customer: Customer{index}): void {{
    this.items.value.push(customer);
  }}

  find{index}(id: number): Customer{index} | undefined {{
    return this.items.value.find((c) => c.id === id);
  }}
}}

export function formatCustomer{index}(c: Customer{index}): string {{
  return `${{c.name}} (${{c.tags.join(", ")}})`;
}}
"""


def _vue(package: int, index: int) -> str:
    return f"""<template>
  <section class="card-{index}">
    <h2>{{{{ title }}}}</h2>
    <button @click="increment{index}">{{{{ count }}}}</button>
  </section>
</template>

<script setup lang="ts">
import {{ ref }} from "vue";

const props = defineProps<{{ title: string }}>();
const count = ref(0);

function increment{index}(): void {{
  count.value += 1;
}}
</script>
"""


GENERATORS: list[tuple[str, Callable[[int, int], str]]] = [
    ("src/Domain/OrderService{i}.php", _php),
    ("internal/inventory{i}.go", _go),
    ("web/src/stores/customer{i}.ts", _ts),
    ("web/src/components/Card{i}.vue", _vue),
]


def build_tree(path: Path, files: int) -> Path:
    """A git repository of about `files` files (cached: built once per size)."""
    repo = path / f"repo-{files}"
    built = path / f"repo-{files}.built"
    if built.exists() and repo.is_dir():
        return repo
    shutil.rmtree(repo, ignore_errors=True)
    repo.mkdir(parents=True)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    copied = 0
    for source in sorted(stdlib.rglob("*.py")):
        if copied >= files // 3:
            break
        if "site-packages" in source.parts or source.stat().st_size > 200_000:
            continue
        target = repo / "python" / source.relative_to(stdlib)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        copied += 1
    generated = files - copied
    per_package = 400
    for number in range(generated):
        package, index = divmod(number, per_package)
        template, make = GENERATORS[number % len(GENERATORS)]
        target = repo / "packages" / f"pkg{package:03d}" / template.format(i=index)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(make(package, index))
    (repo / ".gitignore").write_text("node_modules/\nvendor/\n*.min.js\n")
    git = ["git", "-c", "user.email=stress@example.com", "-c", "user.name=stress", "-C", str(repo)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "stress tree"], check=True)
    built.write_text(f"{copied} copied, {generated} generated\n")
    return repo


@contextlib.contextmanager
def pathological(repo: Path) -> Iterator[dict[str, str]]:
    """Add the hostile entries under `weird/` (and edits for `changed`); remove them afterwards."""
    weird = repo / "weird"
    shutil.rmtree(weird, ignore_errors=True)
    weird.mkdir()
    names = {
        "unreadable": "weird/unreadable",
        "fifo": "weird/pipe.fifo",
        "loop": "weird/loop-a",
        "big": "weird/one-line-50mb.js",
        "latin1": "weird/latin1.py",
        "newline": "weird/new\nline.py",
    }
    os.mkfifo(weird / "pipe.fifo")
    (weird / "loop-a").symlink_to("loop-b")
    (weird / "loop-b").symlink_to("loop-a")
    (weird / "self").symlink_to(".")
    with (weird / "one-line-50mb.js").open("w") as big:
        chunk = "var stressValue = [" + "1," * 5000 + "];"
        for _ in range(50 * (1 << 20) // len(chunk)):
            big.write(chunk)
        big.write("\n")
    (weird / "latin1.py").write_bytes("def caf\xe9():\n    return 'd\xe9j\xe0'\n".encode("latin-1"))
    (weird / "new\nline.py").write_text("def newline_name():\n    return 1\n")
    unreadable = weird / "unreadable"
    unreadable.mkdir()
    (unreadable / "hidden.py").write_text("def hidden():\n    pass\n")
    mounted = False
    if os.geteuid() == 0:
        child = subprocess.Popen(["sleep", "60"], stdin=subprocess.DEVNULL)
        try:
            mounted = (
                subprocess.run(
                    ["mount", "--bind", f"/proc/{child.pid}", str(unreadable)], capture_output=True
                ).returncode
                == 0
            )
        finally:
            child.kill()
            child.wait()
    else:
        unreadable.chmod(0)
    edited = repo / "packages/pkg000/src/Domain/OrderService0.php"
    original = edited.read_text()
    edited.write_text(original.replace("return $this->currency;", "return strtoupper($this->currency);"))
    top = repo / "python/this.py"
    top_original = top.read_text() if top.exists() else None
    top.write_text((top_original or "") + "\n# edited by the stress run\n")
    try:
        names["unreadable-kind"] = "bind mount of a dead /proc entry" if mounted else "chmod 000"
        yield names
    finally:
        edited.write_text(original)
        if top_original is None:
            top.unlink()
        else:
            top.write_text(top_original)
        if mounted:
            subprocess.run(["umount", str(unreadable)], check=False, capture_output=True)
        with contextlib.suppress(OSError):
            unreadable.chmod(0o755)
        shutil.rmtree(weird, ignore_errors=True)


# -- calls ----------------------------------------------------------------------------------------


@dataclass
class Outcome:
    kind: str
    """`ok`, `error` (an isError result), `protocol` (a JSON-RPC error) or `no answer`."""
    text: str
    seconds: float


async def call(server: Spawned, tool: str, arguments: dict[str, Any], timeout: float = 120) -> Outcome:
    start = time.monotonic()
    try:
        result = await server.session.call_tool(tool, arguments, read_timeout_seconds=timeout)
    except MCPError as exc:
        kind = "no answer" if "timed out" in exc.error.message else "protocol"
        return Outcome(kind, f"{exc.error.code}: {exc.error.message}", time.monotonic() - start)
    block = result.content[0] if result.content else None
    text = block.text if isinstance(block, types.TextContent) else ""
    return Outcome("error" if result.is_error else "ok", text, time.monotonic() - start)


LOGS: list[Path] = []
"""The servers' stderr logs, outside the tree (kept when a row fails, for a look)."""


@contextlib.asynccontextmanager
async def server(cwd: Path, *args: str) -> AsyncIterator[Spawned]:
    log = Path(tempfile.gettempdir()) / f"sofia-stress-{os.getpid()}-{len(LOGS)}.log"
    LOGS.append(log)
    async with spawn(cwd, *args, "--log-level", "info", log=log) as spawned:
        yield spawned


def pool_processes(spawned: Spawned) -> dict[str, list[psutil.Process]]:
    kinds: dict[str, list[psutil.Process]] = {"worker": [], "tracker": []}
    for child in psutil.Process(spawned.process.pid).children():
        with contextlib.suppress(psutil.Error):
            command = " ".join(child.cmdline())
            if "popen_loky_posix" in command:
                kinds["worker"].append(child)
            elif "resource_tracker" in command:
                kinds["tracker"].append(child)
    return kinds


async def warm(spawned: Spawned, workers: int) -> None:
    async with anyio.create_task_group() as group:
        for _ in range(workers * 2):
            group.start_soon(call, spawned, "test_sleep", {"seconds": 0.2})
    deadline = time.monotonic() + 30
    while len(pool_processes(spawned)["worker"]) < workers and time.monotonic() < deadline:
        await anyio.sleep(0.1)


def mixed_calls(repo: Path, count: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(seed)
    services = sorted(
        str(p.relative_to(repo)) for p in (repo / "packages").glob("*/src/Domain/OrderService*.php")
    )
    calls: list[tuple[str, dict[str, Any]]] = []
    for number in range(count):
        php = rng.choice(services)
        index = php.rsplit("OrderService", 1)[1].removesuffix(".php")
        package = php.split("/")[1]
        kind = number % 20
        if kind < 7:
            calls.append(("code", {"files": [php]}))
        elif kind < 10:
            calls.append(("code", {"files": [php], "symbols": [f"OrderService{index}::place{index}"]}))
        elif kind < 14:
            calls.append(
                ("grep", {"patterns": ["InvalidArgumentException", "Reserve"], "root": f"packages/{package}"})
            )
        elif kind < 15:
            calls.append(("grep", {"patterns": ["def __init__"], "root": "python"}))
        elif kind < 17:
            calls.append(("changed", {}))
        else:
            calls.append(("test_echo", {"text": f"echo {number}"}))
    return calls


async def run_all(
    spawned: Spawned, calls: list[tuple[str, dict[str, Any]]], limit: int | None = None
) -> list[Outcome]:
    outcomes: list[Outcome | None] = [None] * len(calls)
    semaphore = anyio.Semaphore(limit or len(calls))

    async def one(index: int, tool: str, arguments: dict[str, Any]) -> None:
        async with semaphore:
            outcomes[index] = await call(spawned, tool, arguments, timeout=300)

    async with anyio.create_task_group() as group:
        for index, (tool, arguments) in enumerate(calls):
            group.start_soon(one, index, tool, arguments)
    return [o for o in outcomes if o is not None]


def summary(outcomes: list[Outcome]) -> str:
    kinds: dict[str, int] = {}
    for outcome in outcomes:
        kinds[outcome.kind] = kinds.get(outcome.kind, 0) + 1
    failures = [o.text[:90] for o in outcomes if o.kind != "ok"][:2]
    text = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    return text + (f" (e.g. {'; '.join(failures)})" if failures else "")


# -- the rows -------------------------------------------------------------------------------------


async def concurrency(report: Report, repo: Path, settings: Settings) -> None:
    for workers in (2, 4):
        async with server(repo, "--workers", str(workers), "--tools", "test,code,grep,changed") as spawned:
            await warm(spawned, workers)
            calls = mixed_calls(repo, settings.concurrent, seed=workers)
            start = time.monotonic()
            outcomes = await run_all(spawned, calls)
            wall = time.monotonic() - start
            ok = all(o.kind == "ok" for o in outcomes) and len(outcomes) == len(calls)
            report.add(
                "concurrency",
                f"{settings.concurrent} mixed calls at once, --workers {workers}",
                "every call answered, none failed",
                f"{summary(outcomes)} in {wall:.1f} s; stdout clean: {spawned.bad_lines == []}",
                ok and spawned.bad_lines == [],
            )


def _sample(spawned: Spawned) -> tuple[int, int, int, int, int]:
    """Server RSS and fds, then the workers' summed RSS and fds, and how many workers."""
    process = psutil.Process(spawned.process.pid)
    workers = pool_processes(spawned)["worker"]
    rss = fds = 0
    for worker in workers:
        with contextlib.suppress(psutil.Error):
            rss += worker.memory_info().rss
            fds += worker.num_fds()
    return process.memory_info().rss, process.num_fds(), rss, fds, len(workers)


async def soak(report: Report, repo: Path, settings: Settings) -> None:
    async with server(repo, "--workers", "2", "--tools", "test,code,grep,changed") as spawned:
        await warm(spawned, 2)
        await run_all(spawned, mixed_calls(repo, 100, seed=6), limit=20)
        before = _sample(spawned)
        calls = mixed_calls(repo, settings.soak, seed=7)
        start = time.monotonic()
        outcomes = await run_all(spawned, calls, limit=20)
        wall = time.monotonic() - start
        await anyio.sleep(2)  # a recycled worker's successor settles
        after = _sample(spawned)
    mb = 1 << 20
    grew = (after[0] - before[0]) / mb
    report.add(
        "soak",
        f"{settings.soak:,} mixed calls, 20 at a time, --workers 2 (workers recycled every 500 calls)",
        "all answered; server RSS growth < 20 MB; fds unchanged",
        f"{summary(outcomes)} in {wall:.0f} s; server RSS {before[0] / mb:.0f} → {after[0] / mb:.0f} MB, "
        f"fds {before[1]} → {after[1]}; workers {before[4]} → {after[4]}, their RSS "
        f"{before[2] / mb:.0f} → {after[2] / mb:.0f} MB, fds {before[3]} → {after[3]}",
        all(o.kind == "ok" for o in outcomes)
        and grew < 20
        and after[1] <= before[1]
        and after[4] == before[4],
    )


async def kills(report: Report, repo: Path) -> None:
    async with server(repo, "--workers", "2", "--tools", "test,code") as spawned:
        for victim in ("one idle worker", "every idle worker", "loky's helper processes"):
            await warm(spawned, 2)
            kinds = pool_processes(spawned)
            targets = {
                "one idle worker": kinds["worker"][:1],
                "every idle worker": kinds["worker"],
                "loky's helper processes": kinds["tracker"],
            }[victim]
            killed_at = time.monotonic()
            for process in targets:
                with contextlib.suppress(psutil.Error):
                    process.kill()
            wait_gone([p.pid for p in targets], 10)
            await anyio.sleep(0.5)
            outcomes = [await call(spawned, "test_echo", {"text": "after"}) for _ in range(4)]
            report.add(
                "kill",
                f"SIGKILL {victim} ({len(targets)} processes), then 4 calls",
                "every call succeeds",
                f"{summary(outcomes)}; first call {outcomes[0].seconds * 1000:.0f} ms, "
                f"{(time.monotonic() - killed_at):.1f} s after the kill",
                bool(targets) and all(o.kind == "ok" for o in outcomes),
            )
        await warm(spawned, 2)
        busy: list[Outcome] = []

        async def sleeper(label: str) -> None:
            busy.append(await call(spawned, "test_sleep", {"seconds": 3, "label": label}))

        async with anyio.create_task_group() as group:
            group.start_soon(sleeper, "a")
            group.start_soon(sleeper, "b")
            await anyio.sleep(1.0)
            victim = pool_processes(spawned)["worker"][0]
            victim.kill()
        died = [o for o in busy if o.kind == "error" and "died (SIGKILL)" in o.text]
        after = await call(spawned, "test_echo", {"text": "after"})
        report.add(
            "kill",
            "SIGKILL a busy worker (two 3 s calls running)",
            "its call: 'died (SIGKILL)'; the other call and the next succeed",
            f"{summary(busy)}; next call {after.kind}",
            len(died) == 1 and sum(o.kind == "ok" for o in busy) == 1 and after.kind == "ok",
        )


async def sigstop(report: Report, repo: Path, settings: Settings) -> None:
    timeout = 4 if settings.quick else 8
    loops = 60_000_000
    async with server(repo, "--workers", "2", "--tools", "test", "--timeout", str(timeout)) as spawned:
        await warm(spawned, 2)
        outcome: list[Outcome] = []

        async def spin() -> None:
            outcome.append(await call(spawned, "test_cpu", {"n": loops}))

        others: list[Outcome] = []
        async with anyio.create_task_group() as group:
            group.start_soon(spin)
            await anyio.sleep(0.5)
            workers = pool_processes(spawned)["worker"]
            first = {w.pid: w.cpu_times().user for w in workers}
            await anyio.sleep(0.5)
            busy = max(workers, key=lambda w: w.cpu_times().user - first[w.pid])
            busy.send_signal(signal.SIGSTOP)
            stopped_at = time.monotonic()
            for number in range(10):
                others.append(await call(spawned, "test_echo", {"text": str(number)}))
        ended = time.monotonic() - stopped_at
        (stopped,) = outcome
        report.add(
            "sigstop",
            f"SIGSTOP the worker of a running call (--timeout {timeout}), 10 calls meanwhile",
            f"it times out (≤ {timeout} s + 3 s grace); the 10 others succeed at once",
            f"{stopped.kind}: {stopped.text[:70]} after {ended:.1f} s; others: {summary(others)}, "
            f"slowest {max(o.seconds for o in others) * 1000:.0f} ms",
            stopped.kind == "error" and "timed out" in stopped.text and all(o.kind == "ok" for o in others),
        )


async def server_kill(report: Report, repo: Path, work: Path) -> None:
    pidfile = work / "spin.pid"
    async with server(repo, "--workers", "2", "--tools", "test") as spawned:
        await warm(spawned, 2)
        async with anyio.create_task_group() as group:
            group.start_soon(call, spawned, "test_spin", {"pidfile": str(pidfile)})
            deadline = time.monotonic() + 30
            while not pidfile.exists() and time.monotonic() < deadline:
                await anyio.sleep(0.1)
            pids = [p.pid for p in spawned.descendants()]
            if pidfile.exists():
                pids.append(int(pidfile.read_text()))
            spawned.process.kill()
            await spawned.wait(10)
            group.cancel_scope.cancel()
    left = wait_gone(pids, 10)
    report.add(
        "kill",
        "SIGKILL the server (2 workers, one busy in C with a child process)",
        "no process left behind within 10 s",
        f"{len(pids)} descendants, {len(left)} left",
        len(pids) >= 3 and not left,
    )


def malformed(report: Report, work: Path) -> None:
    client = RawClient(work, "--workers", "1", "--tools", "test")
    try:
        client.initialize()
        for case in CASES:
            ping = f"ping after {case.name}"
            client.send(case.line)
            client.send(line(request(ping, "ping")))
            try:
                got = client.receive(answered(case, ping))
                check_answers(case, ping, got)
                codes = [
                    m.get("error", {}).get("code", "result") if isinstance(m, dict) else "array" for m in got
                ]
                observed, ok = f"answered: {codes}", True
            except AssertionError as exc:
                observed, ok = f"wrong: {str(exc)[:150]}", False
            expected = (
                ", ".join(f"id {i!r}" for i in case.by_id)
                + (f"{len(case.unidentified)} with id null" if case.unidentified else "")
                + ("one array" if case.batch is not None else "")
            ) or "no answer (notifications only)"
            report.add("malformed", case.name, f"{expected}; then the ping", observed, ok)
    finally:
        assert client.process.stdin is not None
        client.process.stdin.close()
        client.process.wait(timeout=30)


def unread_stderr(report: Report, work: Path) -> None:
    read_end, write_end = os.pipe()
    client = RawClient(work, "--workers", "2", "--tools", "test", "--timeout", "20", stderr=write_end)
    os.close(write_end)
    try:
        client.initialize()
        start = time.monotonic()
        answers = [client.call(f"noise {n}", "test_stderr", {"megabytes": 6}) for n in range(3)]
        wall = time.monotonic() - start
    except AssertionError as exc:
        answers, wall = [{"error": str(exc)[:100]}], 0.0
    finally:
        assert client.process.stdin is not None
        client.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            client.process.wait(timeout=30)
        os.close(read_end)
    ok = all(a.get("result", {}).get("isError") is False for a in answers)
    report.add(
        "stderr",
        "providers write 18 MB to stderr; the client never reads it",
        "every call answered at once",
        f"{sum(a.get('result', {}).get('isError') is False for a in answers)} of 3 answered in {wall:.1f} s",
        ok,
    )


async def hostile_inputs(report: Report, repo: Path, names: dict[str, str]) -> None:
    async with server(repo, "--workers", "2", "--tools", "code,grep", "--timeout", "20") as spawned:
        checks: list[tuple[str, str, dict[str, Any], str, Callable[[Outcome], bool]]] = [
            ("huge input", "code", {"files": ["a" * 50_000_000]}, f"an error under {SHORT_ERROR:,} characters",
             lambda o: o.kind == "error" and len(o.text) < SHORT_ERROR),
            ("huge input", "code", {"files": ["packages/pkg000/src/Domain/OrderService0.php"], "symbols": ["s" * 1_000_000]},
             f"an error under {SHORT_ERROR:,} characters", lambda o: o.kind == "error" and len(o.text) < SHORT_ERROR),
            ("huge input", "grep", {"patterns": ["x"], "root": "r" * 1_000_000},
             f"a validation error under {SHORT_ERROR:,} characters, not an internal error",
             lambda o: o.kind == "error" and len(o.text) < SHORT_ERROR and "internal error" not in o.text),
            ("tree", "code", {"files": ["."]}, "a result or the file-cap error; never 'ripgrep failed'",
             lambda o: "ripgrep failed" not in o.text and o.kind in ("ok", "error") and "internal" not in o.text),
            ("tree", "code", {"files": ["**/*.php"]}, "a result or the file-cap error; never 'ripgrep failed'",
             lambda o: "ripgrep failed" not in o.text and o.kind in ("ok", "error") and "internal" not in o.text),
            ("tree", "grep", {"patterns": ["OrderService17"]}, "hits, the unreadable directory noted",
             lambda o: o.kind == "ok" and "OrderService17" in o.text and "unreadable" in o.text),
            ("weird", "grep", {"patterns": ["hidden", "stressValue"], "root": "weird"},
             "an answer (loops, FIFO, 50 MB line, unreadable dir) noting what was skipped",
             lambda o: o.kind == "ok" and "unreadable" in o.text),
            ("weird", "grep", {"patterns": ["x"], "root": names["fifo"]}, "refused at once: not a directory or regular file",
             lambda o: o.kind == "error" and o.seconds < 5 and "timed out" not in o.text),
            ("weird", "code", {"files": [names["fifo"]]}, "refused at once (an error, or the file skipped as not regular)",
             lambda o: o.seconds < 5 and (o.kind == "error" or "not a regular file" in o.text) and "internal" not in o.text),
            ("weird", "code", {"files": [names["big"]]}, "an answer (outline, summary or clear refusal) in time",
             lambda o: o.kind in ("ok", "error") and "internal" not in o.text and "timed out" not in o.text),
            ("weird", "code", {"files": [names["latin1"]]}, "an answer, not an internal error",
             lambda o: o.kind in ("ok", "error") and "internal" not in o.text),
            ("weird", "code", {"files": [names["newline"]]}, "the file's content (a name with a newline is a name)",
             lambda o: o.kind == "ok" and "newline_name" in o.text),
            ("weird", "code", {"files": [names["loop"]]}, "the loop named (an error, or the file skipped)",
             lambda o: "symbolic links" in o.text and "internal" not in o.text),
            ("weird", "code", {"files": ["weird"]}, "an answer noting the unreadable directory",
             lambda o: o.kind in ("ok", "error") and "internal" not in o.text and "ripgrep failed" not in o.text),
        ]  # fmt: skip
        for area, tool, arguments, expected, good in checks:
            outcome = await call(spawned, tool, arguments, timeout=60)
            shown = {
                k: (v if len(json.dumps(v)) < 60 else f"<{len(json.dumps(v)):,} chars>")
                for k, v in arguments.items()
            }
            report.add(
                area,
                f"{tool} {json.dumps(shown, ensure_ascii=False)}",
                expected,
                f"{outcome.kind} in {outcome.seconds:.1f} s, {len(outcome.text):,} chars: {outcome.text[:110]}",
                good(outcome),
            )


async def path_space(report: Report, repo: Path) -> None:
    """With the server in a package directory, every path `changed` prints must open in `code`."""
    workspace = repo / "packages/pkg000"
    async with server(workspace, "--workers", "1", "--tools", "code,changed,grep") as spawned:
        changed = await call(spawned, "changed", {})
        try:
            paths = [entry["path"] for entry in json.loads(changed.text)["files"]]
        except (ValueError, KeyError, TypeError):
            paths = []
        outside = [p for p in paths if not (workspace / p).resolve().is_relative_to(workspace)]
        opened = [await call(spawned, "code", {"files": [p]}) for p in paths]
        refused = [p for p, o in zip(paths, opened, strict=True) if o.kind != "ok"]
        report.add(
            "path space",
            "server in packages/pkg000: `changed`, then `code` on every path it prints",
            "every path opens; none outside the workspace",
            f"{len(paths)} paths {paths[:3]}; {len(refused)} refused by code "
            f"({opened[0].text[:60] if refused and opened else ''}); {len(outside)} outside",
            bool(paths) and not refused and not outside,
        )
        hits = await call(spawned, "grep", {"patterns": ["strtoupper"]})
        report.add(
            "path space",
            "server in packages/pkg000: `grep`, then `code` on a path it prints",
            "the path opens",
            f"grep {hits.kind}: {hits.text[:80]}",
            hits.kind == "ok" and "src/Domain/OrderService0.php" in hits.text,
        )


# -- main -----------------------------------------------------------------------------------------


async def _awaited(awaitable: Awaitable[None]) -> None:
    await awaitable


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a smaller tree and shorter loops")
    parser.add_argument(
        "--files", type=int, default=None, help="files in the tree (default 30,000; quick 3,000)"
    )
    parser.add_argument("--only", default="", help="comma-separated areas to run (default: all)")
    args = parser.parse_args()
    settings = Settings(
        files=args.files or (3_000 if args.quick else 30_000),
        concurrent=200,
        soak=500 if args.quick else 2_000,
        quick=args.quick,
    )
    only = set(filter(None, args.only.split(",")))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))
    began = time.monotonic()
    print(f"building the tree ({settings.files:,} files)…", file=sys.stderr, flush=True)
    repo = build_tree(CACHE / "stress", settings.files)
    counted = int(
        subprocess.run(["git", "-C", str(repo), "ls-files"], capture_output=True, text=True).stdout.count(
            "\n"
        )
    )
    report = Report()
    work = Path(tempfile.mkdtemp(prefix="sofia-stress-"))

    def wanted(area: str) -> bool:
        return not only or area in only

    try:
        with pathological(repo) as names:
            steps: list[tuple[str, Callable[[], Awaitable[None]] | Callable[[], None]]] = [
                ("malformed", lambda: malformed(report, work)),
                ("stderr", lambda: unread_stderr(report, work)),
                ("hostile", lambda: hostile_inputs(report, repo, names)),
                ("path", lambda: path_space(report, repo)),
                ("kill", lambda: kills(report, repo)),
                ("kill", lambda: server_kill(report, repo, work)),
                ("sigstop", lambda: sigstop(report, repo, settings)),
                ("concurrency", lambda: concurrency(report, repo, settings)),
                ("soak", lambda: soak(report, repo, settings)),
            ]
            for area, step in steps:
                if not wanted(area):
                    continue
                print(f"{area}…", file=sys.stderr, flush=True)
                result = step()
                if result is not None:
                    anyio.run(_awaited, result)
            unreadable_kind = names["unreadable-kind"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if all(r.ok for r in report.rows):
        for log in LOGS:
            log.unlink(missing_ok=True)
    else:
        print(f"servers' stderr kept in {', '.join(map(str, LOGS))}", file=sys.stderr)
    print(
        f"## MCP server: stress run\n\n{counted:,} files in git (real Python copied from the standard "
        f"library, generated PHP/Go/TS/Vue) plus the pathological entries (unreadable directory: "
        f"{unreadable_kind}); {'--quick, ' if args.quick else ''}{time.monotonic() - began:.0f} s in all, "
        f"on a machine shared with other jobs.\n"
    )
    report.print()
    return 0 if all(r.ok for r in report.rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
