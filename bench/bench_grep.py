"""`sf grep` against what an agent would otherwise run: end-to-end time vs
ripgrep and grep on two trees of more than 50,000 files, and output tokens vs `grep -rn` (with and
without `-C2`) on real PHP code, plus the cap's effect on a broad query.

Also what a search costs whatever the hit count (a pattern on every line of the kernel, alone and
beside a rare one, against one `rg --count-matches -e … -e …`, with peak memory), and the totals on
the kernel as a repository that tracks every file (its `drivers/target`, `tools/build`) against rg.

    python bench/bench_grep.py [time inprocess small tokens cost tracked] [--before CHECKOUT]

Corpora: a generated polyglot monorepo (reproducible: fixed seed, cached under bench/.cache) and the
Linux kernel source from Debian's `linux-source-6.1` (the tree bench/languages unpacks); PHP from
Debian's Laravel and Symfony packages.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import harness
from harness import CACHE, debian_package, ratio, section, sf_command, table, tokens_of_command

from sofia.runtime import rg

MONOREPO_FILES = 52_000
MONOREPO_SEED = 20_260_101
MONOREPO_VERSION = "v1"

PHP_PACKAGES = (
    "php-laravel-framework",
    *(
        f"php-illuminate-{name}"
        for name in [
            "auth",
            "broadcasting",
            "bus",
            "cache",
            "collections",
            "config",
            "console",
            "container",
            "contracts",
            "cookie",
            "database",
            "encryption",
            "events",
            "filesystem",
            "hashing",
            "http",
            "log",
            "macroable",
            "mail",
            "notifications",
            "pagination",
            "pipeline",
            "queue",
            "redis",
            "routing",
            "session",
            "support",
            "testing",
            "translation",
            "validation",
            "view",
        ]
    ),
    *(
        f"php-symfony-{name}"
        for name in [
            "cache",
            "config",
            "console",
            "dependency-injection",
            "doctrine-bridge",
            "error-handler",
            "event-dispatcher",
            "filesystem",
            "finder",
            "form",
            "framework-bundle",
            "http-client",
            "http-foundation",
            "http-kernel",
            "intl",
            "mailer",
            "messenger",
            "mime",
            "notifier",
            "process",
            "property-access",
            "property-info",
            "routing",
            "security-core",
            "security-http",
            "serializer",
            "string",
            "translation",
            "twig-bridge",
            "validator",
            "var-dumper",
            "workflow",
            "yaml",
        ]
    ),
)
PHP_QUERIES = (
    "getConnection",
    "array_merge",
    "InvalidArgumentException",
    "->setAttribute(",
    "dispatch",
    "$request",
)
BROAD_QUERY = "public function"
MONOREPO_THREE = ("deleteUser", "InvoiceRepository", "CACHE_TTL")
MONOREPO_TEN = (
    *MONOREPO_THREE,
    "deleteUser(",
    "repository",
    "Service",
    "ttl",
    "ledgerTax",
    "refundCoupon",
    "import",
)
"""Ten patterns as an agent sends them: a few rare names, some that overlap, some broad words."""
LINUX_THREE = ("kmalloc_array", "spin_lock_irqsave", "EXPORT_SYMBOL_GPL")
LINUX_TEN = (
    *LINUX_THREE,
    "kmalloc",
    "mutex_lock",
    "copy_from_user",
    "GFP_KERNEL",
    "container_of",
    "pr_debug",
    "spin_lock",
)


# --- corpora ------------------------------------------------------------------------------------

WORDS = [
    "user",
    "order",
    "invoice",
    "payment",
    "cart",
    "item",
    "price",
    "total",
    "customer",
    "account",
    "session",
    "cache",
    "queue",
    "worker",
    "route",
    "report",
    "export",
    "import",
    "ledger",
    "tax",
    "refund",
    "shipment",
    "stock",
    "warehouse",
    "coupon",
    "discount",
    "audit",
    "tenant",
]


def _identifier(rng: random.Random) -> str:
    return rng.choice(WORDS) + rng.choice(WORDS).title()


def _php(rng: random.Random, name: str) -> str:
    methods = []
    for _ in range(rng.randint(2, 8)):
        method = _identifier(rng)
        body = [f"        $this->{_identifier(rng)}->{_identifier(rng)}(${rng.choice(WORDS)});"]
        if rng.random() < 0.02:
            body.append("        $this->users->deleteUser($id);")
        if rng.random() < 0.1:
            body.append("        return $this->repository->find($id) ?? InvoiceRepository::empty();")
        if rng.random() < 0.3:
            body.append("        $ttl = self::CACHE_TTL * 2;")
        methods.append(
            f"    /**\n     * {method} for the {rng.choice(WORDS)} flow.\n     */\n"
            f"    public function {method}(int $id): mixed\n    {{\n" + "\n".join(body) + "\n    }\n"
        )
    return (
        f"<?php\n\nnamespace App\\{name.title()};\n\nuse App\\Support\\{_identifier(rng).title()};\n\n"
        f"final class {name.title()}\n{{\n    private const CACHE_TTL = {rng.randint(10, 900)};\n\n"
        + "\n".join(methods)
        + "}\n"
    )


def _ts(rng: random.Random, name: str) -> str:
    lines = [f"import {{ {_identifier(rng)} }} from './{rng.choice(WORDS)}'", ""]
    for _ in range(rng.randint(2, 8)):
        fn = _identifier(rng)
        lines += [
            f"export const {fn} = async (id: number): Promise<void> => {{",
            f"  const {rng.choice(WORDS)} = await api.get(`/{rng.choice(WORDS)}/${{id}}`)",
            "  await api.deleteUser(id)" if rng.random() < 0.02 else f"  console.debug('{fn}', id)",
            "}",
            "",
        ]
    lines.append(f"export class {name.title()}Store {{\n  private ttl = CACHE_TTL\n}}\n")
    return "\n".join(lines)


def _go(rng: random.Random, name: str) -> str:
    funcs = []
    for _ in range(rng.randint(2, 6)):
        fn = _identifier(rng).title()
        call = "s.users.DeleteUser(ctx, id)" if rng.random() < 0.02 else f"s.log.Info({fn!r})"
        funcs.append(
            f"func (s *Service) {fn}(ctx context.Context, id int64) error {{\n\t{call}\n\treturn nil\n}}\n"
        )
    return f'package {name}\n\nimport "context"\n\nconst CacheTTL = {rng.randint(1, 99)}\n\n' + "\n".join(
        funcs
    )


def _py(rng: random.Random, name: str) -> str:
    funcs = []
    for _ in range(rng.randint(2, 6)):
        fn = "_".join(rng.sample(WORDS, 2))
        call = "    client.delete_user(user_id)" if rng.random() < 0.02 else f"    log.info({fn!r}, user_id)"
        funcs.append(f"def {fn}(client, user_id: int) -> None:\n{call}\n")
    return (
        f'"""{name} helpers."""\n\nimport logging\n\nlog = logging.getLogger(__name__)\n\n\n'
        + "\n\n".join(funcs)
    )


GENERATORS = {"php": _php, "ts": _ts, "go": _go, "py": _py}


def monorepo() -> Path:
    """A generated polyglot monorepo: apps and packages in four languages, with node_modules, vendor
    and build output that the walk skips, and a .gitignore; the same files for the same seed."""
    target = CACHE / f"grep-monorepo-{MONOREPO_VERSION}"
    if (target / ".done").exists():
        return target / "repo"
    shutil.rmtree(target, ignore_errors=True)
    root = target / "repo"
    rng = random.Random(MONOREPO_SEED)
    written = 0
    package = 0
    while written < MONOREPO_FILES:
        lang = rng.choice(["php", "php", "ts", "ts", "go", "py"])
        name = f"{rng.choice(WORDS)}{package}"
        base = root / ("apps" if package % 10 == 0 else "packages") / name
        for index in range(rng.randint(40, 160)):
            folder = (
                base
                / "src"
                / rng.choice(["", "domain", "http", "infra", "jobs"])
                / rng.choice(["", "v1", "v2"])
            )
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{rng.choice(WORDS)}_{index}.{lang}").write_text(
                GENERATORS[lang](rng, f"{name}{index}")
            )
            written += 1
        ignored = base / rng.choice(["node_modules/lodash", "vendor/acme/lib", "build", "dist"])
        ignored.mkdir(parents=True, exist_ok=True)
        for index in range(rng.randint(5, 20)):
            (ignored / f"gen_{index}.{lang}").write_text(GENERATORS[lang](rng, f"gen{index}"))
        package += 1
    (root / ".gitignore").write_text("*.min.js\n/tmp/\n")
    (target / ".done").write_text(f"{MONOREPO_FILES} files, seed {MONOREPO_SEED}\n")
    return root


def linux_tree() -> Path:
    """The kernel sources bench/languages unpacks (one copy for every benchmark; its own empty git
    repository, so nothing is tracked and the default names are skipped as outside git)."""
    from languages.corpora import linux_tree as unpacked

    return unpacked()


def linux_tracked() -> Path:
    """The same kernel sources as a repository that tracks them all (hard links to the unpacked
    files, one commit): `drivers/target`, `include/target`, `tools/build` are tracked sources."""
    target = CACHE / "grep-linux-git"
    tree = target / "linux"
    if (target / ".done").exists():
        return tree
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    source = linux_tree()
    subprocess.run(["cp", "-al", str(source), str(tree)], check=True)
    shutil.rmtree(tree / ".git")
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", source.name]):
        subprocess.run(["nice", "-n", "10", *git, *step], cwd=tree, check=True)
    (target / ".done").write_text(source.name + "\n")
    return tree


def php_corpus() -> Path:
    """Laravel and Symfony components from Debian, side by side as they sit in /usr/share/php."""
    target = CACHE / "grep-php"
    if (target / ".done").exists():
        return target / "php"
    shutil.rmtree(target, ignore_errors=True)
    versions = []
    for name in PHP_PACKAGES:
        package = debian_package(name)
        shutil.copytree(package / "usr" / "share" / "php", target / "php", dirs_exist_ok=True)
        versions.append((package / ".version").read_text().strip())
    (target / ".done").write_text("\n".join(versions) + "\n")
    return target / "php"


# --- measuring ----------------------------------------------------------------------------------

EVERY_LINE = "^"
"""A regex matching every line of a tree (each counts once)."""
BROAD = "x"
"""A literal on most lines of the kernel (11.8 million matches)."""
RARE = "spin_lock_irqsave"
TRACKED_PATTERN = "EXPORT_SYMBOL_GPL("


def before_command(before: Path, *args: str) -> list[str]:
    """`sf ARGS` run from the checkout `before` (its source tree), for a side-by-side row."""
    from refs_oracle.refs_client import refs_command

    return [*refs_command(before), *args]


@dataclass(frozen=True)
class Run:
    """One run measured by GNU time: wall seconds, CPU seconds (user and system, of the process and
    the children it waited for: on a shared machine the figure load changes least) and peak
    resident memory in KiB (the largest of those processes: %M)."""

    wall: float
    cpu: float
    kib: int


def peak(args: Sequence[str], cwd: Path) -> Run:
    """Wall time, CPU time and peak memory of one run."""
    done = harness.run(["/usr/bin/time", "-f", "@@ %e %U %S %M", *args], cwd=cwd)
    line = next(x for x in reversed(done.stderr.decode(errors="replace").splitlines()) if x.startswith("@@ "))
    _, wall, user, system, kib = line.split()
    return Run(float(wall), float(user) + float(system), int(kib))


def say(text: str) -> None:
    """Progress on stderr, so a long run's rows survive whatever happens to it."""
    print(text, file=sys.stderr, flush=True)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} / {five:.1f}"


def cost_rows(root: Path, before: Path | None, repeat: int = 3) -> list[list[object]]:
    """A pattern on every line (and a literal on most lines) of the kernel, alone and beside a
    rare one: `sf grep` against one `rg --count-matches -e … -e …`, wall time and peak memory,
    interleaved; `before`'s `sf` once per row (it decodes every matching line)."""
    cases = [
        ([BROAD], False),
        ([RARE, BROAD], False),
        ([EVERY_LINE], True),
        ([RARE, EVERY_LINE], True),
    ]
    rows: list[list[object]] = []
    for patterns, regex in cases:
        flags = ["--regex"] if regex else []
        ours = [*sf_command("grep", *flags, "--", *patterns)]
        theirs = rg_command(root, *patterns, count=True, regex=regex)
        sf_runs: list[Run] = []
        rg_runs: list[Run] = []
        loads: list[str] = []
        peak(theirs, root)  # warm the page cache
        for _ in range(repeat):
            loads.append(load())
            sf_runs.append(peak(ours, root))
            rg_runs.append(peak(theirs, root))
        sf_time = statistics.median(run.wall for run in sf_runs)
        rg_time = statistics.median(run.wall for run in rg_runs)
        sf_cpu = statistics.median(run.cpu for run in sf_runs)
        rg_cpu = statistics.median(run.cpu for run in rg_runs)
        before_cell = ""
        if before is not None:
            then = peak(before_command(before, "grep", *flags, "--", *patterns), root)
            before_cell = f"{then.wall:.1f} s, {then.kib / 1024:,.0f} MiB ({ratio(then.wall, rg_time)})"
        shown = " ".join(f"`{p}`" for p in patterns) + (" (regex)" if regex else "")
        total = sum(hits(root, p, regex=regex) for p in patterns)
        say(f"cost {shown}: sf {sf_runs}, rg {rg_runs}, before {before_cell}")
        rows.append(
            [
                shown,
                f"{total:,}",
                ratio(sf_time, rg_time),
                f"{sf_time:.2f} / {rg_time:.2f}",
                ratio(sf_cpu, rg_cpu),
                f"{sf_cpu:.2f} / {rg_cpu:.2f}",
                f"{max(run.kib for run in sf_runs) / 1024:,.0f} MiB",
                before_cell,
                ", ".join(loads),
            ]
        )
    return rows


def mcp_cost_row(root: Path, calls: int = 3) -> list[object]:
    """The broad pair over MCP against one `rg --count-matches -e … -e …`, interleaved: wall time
    (medians of `calls`) and the worker's peak memory over every call."""
    import anyio
    from bench_refs import RssSampler

    theirs = rg_command(root, RARE, BROAD, count=True)

    async def measure() -> tuple[float, float, int]:
        over_mcp: list[float] = []
        bare: list[float] = []
        async with harness.mcp_session(root, "--workers", "1") as session:
            await session.call_tool("grep", {"patterns": ["warmup"]}, read_timeout_seconds=None)
            with RssSampler() as sampler:
                for _ in range(calls):
                    start = time.perf_counter()
                    result = await session.call_tool(
                        "grep", {"patterns": [RARE, BROAD]}, read_timeout_seconds=None
                    )
                    over_mcp.append(time.perf_counter() - start)
                    assert not result.is_error, result
                    start = time.perf_counter()
                    await anyio.to_thread.run_sync(lambda: harness.run(theirs, cwd=root))
                    bare.append(time.perf_counter() - start)
            return statistics.median(over_mcp), statistics.median(bare), sampler.peak

    at_start = load()
    mcp_time, rg_time, worker = anyio.run(measure)
    return [
        f"`grep {RARE} {BROAD}` over MCP (warm worker)",
        ratio(mcp_time, rg_time),
        f"{mcp_time:.2f} / {rg_time:.2f}",
        f"{worker / 2**20:,.0f} MiB",
        f"{at_start}, {load()}",
    ]


def tracked_rows(root: Path, before: Path | None) -> list[list[object]]:
    """On the kernel as a repository that tracks every file: each total against ripgrep with the
    repository's ignore files and `.git` alone skipped."""
    args = [rg.executable(), "--no-config", "--count-matches", "--fixed-strings", "--hidden", "--glob=!.git/"]
    done = harness.run([*args, f"--regexp={TRACKED_PATTERN}", "--", "."], root)
    expected = sum(int(line.rsplit(b":", 1)[1]) for line in done.stdout.splitlines() if line)
    commands = {"sf": sf_command("grep", "--json", "--", TRACKED_PATTERN)}
    if before is not None:
        commands["before"] = before_command(before, "grep", "--json", "--", TRACKED_PATTERN)
    rows: list[list[object]] = []
    for name, command in commands.items():
        answer = json.loads(harness.run(command, root).stdout)
        total = answer["patterns"][0]["total"] if answer["patterns"] else 0
        skipped = next((n for n in answer["notes"] if "skipped by name" in n), "none")
        rows.append(
            [
                "this checkout" if name == "sf" else "before",
                f"`{TRACKED_PATTERN}`",
                f"{expected:,}",
                f"{total:,}",
                f"{expected - total:,}",
                skipped,
            ]
        )
    return rows


def rg_command(root: Path, *patterns: str, count: bool = False, regex: bool = False) -> list[str]:
    """Bare ripgrep as a user would run it in `root`, given the same walk rules as `sf grep`:
    `-n`, or with `count` `--count-matches`."""
    args = [rg.executable(), "--no-config", "--count-matches" if count else "-n"]
    args += [*([] if regex else ["--fixed-strings"]), *rg.walk_args(cwd=root.resolve())]
    return [*args, *(f"--regexp={p}" for p in patterns), "--", "."]


def grep_command(pattern: str, *extra: str) -> list[str]:
    return ["grep", "-rn", "-F", *extra, "--", pattern, "."]


def files_walked(root: Path) -> int:
    done = subprocess.run(
        [rg.executable(), "--no-config", "--files", *rg.walk_args(cwd=root.resolve()), "--", "."],
        cwd=root,
        capture_output=True,
        check=True,
    )
    return done.stdout.count(b"\n")


def hits(root: Path, pattern: str, *, regex: bool = False) -> int:
    done = harness.run(rg_command(root, pattern, count=True, regex=regex), root)
    return sum(int(line.rsplit(b":", 1)[1]) for line in done.stdout.splitlines() if line)


def side_by_side(commands: dict[str, list[str]], cwd: Path, repeat: int = 5) -> dict[str, float]:
    """Median wall time of each command, run in interleaved rounds after one warm-up round, so load
    from elsewhere on the machine falls on tool and baseline alike."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(repeat + 1):
        for name, args in commands.items():
            start = time.perf_counter()
            harness.run(args, cwd=cwd)
            if round_:
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def time_rows(
    name: str, root: Path, single: str, three: Sequence[str], ten: Sequence[str], before: Path | None = None
) -> list[list[object]]:
    """`sf grep` against rg and grep, and with `before` the same calls of that checkout's `sf`,
    all interleaved in the same rounds."""
    commands = {
        "sf": sf_command("grep", single),
        "sf-late": ["env", "SOFIA_HEAD_START=off", *sf_command("grep", single)],
        "rg": rg_command(root, single),
        "grep": grep_command(single),
        "sf3": sf_command("grep", *three),
        "rg-e": rg_command(root, *three),
        **{f"rg:{p}": rg_command(root, p) for p in three},
        "sf10": sf_command("grep", *ten),
        "rg-e10": rg_command(root, *ten),
    }
    if before is not None:
        commands |= {
            "before": before_command(before, "grep", single),
            "before3": before_command(before, "grep", *three),
            "before10": before_command(before, "grep", *ten),
        }
    t = side_by_side(commands, root)
    rg_each = sum(t[f"rg:{p}"] for p in three)
    size = f"{files_walked(root):,} files"
    if before is not None:
        return [
            [
                name,
                size,
                f"`{single}`",
                ratio(t["sf"], t["rg"]),
                ratio(t["before"], t["rg"]),
                f"{t['sf']:.2f} / {t['before']:.2f} / {t['rg']:.2f}",
            ],
            [
                name,
                size,
                "three patterns",
                ratio(t["sf3"], t["rg-e"]),
                ratio(t["before3"], t["rg-e"]),
                f"{t['sf3']:.2f} / {t['before3']:.2f} / {t['rg-e']:.2f}",
            ],
            [
                name,
                size,
                "ten patterns",
                ratio(t["sf10"], t["rg-e10"]),
                ratio(t["before10"], t["rg-e10"]),
                f"{t['sf10']:.2f} / {t['before10']:.2f} / {t['rg-e10']:.2f}",
            ],
        ]
    return [
        [
            name,
            size,
            f"`{single}` ({hits(root, single):,} hits)",
            ratio(t["sf"], t["rg"]),
            ratio(t["sf-late"], t["rg"]),
            ratio(t["sf"], t["grep"]) + " (vs `grep -rn`)",
            f"{t['sf']:.2f} / {t['rg']:.2f} / {t['grep']:.2f}",
        ],
        [
            name,
            size,
            "three patterns: " + ", ".join(f"`{p}`" for p in three),
            ratio(t["sf3"], t["rg-e"]) + " (vs one `rg -e A -e B -e C`)",
            "",
            ratio(t["sf3"], rg_each) + " (vs 3 rg runs)",
            f"{t['sf3']:.2f} / {t['rg-e']:.2f} / {rg_each:.2f}",
        ],
        [
            name,
            size,
            f"ten patterns ({sum(hits(root, p) for p in ten):,} hits): " + ", ".join(f"`{p}`" for p in ten),
            ratio(t["sf10"], t["rg-e10"]) + " (vs one `rg -e P1 … -e P10`)",
            "",
            "",
            f"{t['sf10']:.2f} / {t['rg-e10']:.2f}",
        ],
    ]


def startup_row(root: Path, pattern: str) -> list[object]:
    """The fixed cost on a small tree, where process start-up is most of the time."""
    t = side_by_side({"sf": sf_command("grep", pattern), "rg": rg_command(root, pattern)}, root, repeat=10)
    return [
        f"{files_walked(root):,} files",
        f"`sf grep {pattern}` (new process)",
        f"{t['sf'] * 1000:.0f} ms",
        f"{t['rg'] * 1000:.0f} ms",
        f"+{(t['sf'] - t['rg']) * 1000:.0f} ms",
    ]


def in_process_rows(
    name: str, root: Path, groups: Sequence[Sequence[str]], repeat: int = 5
) -> list[list[object]]:
    """The provider called in this process (what a warm MCP worker pays) vs one `rg -n -e …` run,
    interleaved: the search itself, without the new process's start-up."""
    from tests.helpers import call

    rows: list[list[object]] = []
    for patterns in groups:
        ours: list[float] = []
        theirs: list[float] = []
        for round_ in range(repeat + 1):
            start = time.perf_counter()
            call("grep", {"patterns": list(patterns)}, root, 20_000)
            middle = time.perf_counter()
            harness.run(rg_command(root, *patterns), cwd=root)
            if round_:
                ours.append(middle - start)
                theirs.append(time.perf_counter() - middle)
        sf_time, rg_time = statistics.median(ours), statistics.median(theirs)
        rows.append(
            [name, f"{len(patterns)} patterns", ratio(sf_time, rg_time), f"{sf_time:.2f} / {rg_time:.2f}"]
        )
    return rows


def mcp_row(root: Path, pattern: str, calls: int = 10) -> list[object]:
    """`grep` over the real MCP server with a warm worker vs a bare rg process, interleaved."""
    import anyio

    rg_args = rg_command(root, pattern)

    async def measure() -> tuple[float, float]:
        over_mcp: list[float] = []
        bare: list[float] = []
        async with harness.mcp_session(root, "--workers", "1") as session:
            for round_ in range(calls + 1):
                start = time.perf_counter()
                result = await session.call_tool("grep", {"patterns": [pattern]})
                elapsed = time.perf_counter() - start
                assert not result.is_error, result
                start = time.perf_counter()
                await anyio.to_thread.run_sync(lambda: harness.run(rg_args, cwd=root))
                if round_:
                    over_mcp.append(elapsed)
                    bare.append(time.perf_counter() - start)
        return statistics.median(over_mcp), statistics.median(bare)

    mcp_time, rg_time = anyio.run(measure)
    return [
        f"{files_walked(root):,} files",
        f"`grep {pattern}` over MCP (warm worker)",
        f"{mcp_time * 1000:.0f} ms",
        f"{rg_time * 1000:.0f} ms",
        f"+{(mcp_time - rg_time) * 1000:.0f} ms",
    ]


def token_rows(root: Path) -> tuple[list[list[object]], list[float], list[float]]:
    rows: list[list[object]] = []
    vs_context: list[float] = []
    vs_plain: list[float] = []
    env = {"SOFIA_MAX_OUTPUT_TOKENS": "10000000"}
    for query in PHP_QUERIES:
        toon = tokens_of_command(sf_command("grep", "--max-per-pattern", "0", "--", query), cwd=root, env=env)
        as_json = tokens_of_command(
            sf_command("grep", "--json", "--max-per-pattern", "0", "--", query), cwd=root, env=env
        )
        plain = tokens_of_command(grep_command(query), cwd=root)
        context = tokens_of_command(grep_command(query, "-C2"), cwd=root)
        vs_context.append(context / toon)
        vs_plain.append(toon / plain)
        rows.append(
            [
                f"`{query}`",
                f"{hits(root, query):,}",
                f"{toon:,}",
                f"{as_json:,}",
                f"{plain:,}",
                f"{context:,}",
                ratio(context, toon),
                ratio(toon, plain),
            ]
        )
    return rows, vs_context, vs_plain


SECTIONS = ("time", "inprocess", "small", "tokens", "cost", "tracked")


def main(argv: Sequence[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sections", nargs="*", help=f"sections to run: {', '.join(SECTIONS)} (default: all)")
    parser.add_argument(
        "--before", type=Path, help="another checkout (its source tree) timed in the same rounds"
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.sections) - set(SECTIONS))
    if unknown:
        parser.error(f"no section named {', '.join(unknown)} (choose from {', '.join(SECTIONS)})")
    wanted = set(args.sections or SECTIONS)
    before = args.before.resolve() if args.before else None
    if "cost" in wanted:
        cost(before)
    if "tracked" in wanted:
        body = table(
            ["sf", "pattern", "rg total", "sf total", "missed", "directories skipped by name"],
            tracked_rows(linux_tracked(), before),
        )
        section(
            "grep: directories git tracks, whatever their name", body, "python bench/bench_grep.py tracked"
        )
    corpora = [
        ("generated monorepo", monorepo(), "deleteUser", MONOREPO_THREE, MONOREPO_TEN),
        ("Linux 6.1 (Debian linux-source-6.1)", linux_tree(), "kmalloc_array", LINUX_THREE, LINUX_TEN),
    ]
    if "time" in wanted and before is not None:
        rows = []
        for name, root, single, three, ten in corpora:
            rows += time_rows(name, root, single, three, ten, before)
        body = table(
            ["corpus", "walked", "query", "sf vs rg", "before vs rg", "seconds (sf / before / rg)"], rows
        )
        body += f"\n\nLoad average (1 / 5 min) at the end: {load()}."
        section(
            "grep: time end to end, before and after (median of 5, warm cache)",
            body,
            "python bench/bench_grep.py time --before DIR",
        )
    elif "time" in wanted:
        time_section(corpora)
    if "inprocess" in wanted:
        inprocess_section(corpora)
    if "small" in wanted:
        small_section(corpora)
    if "tokens" in wanted:
        tokens_section()


def cost(before: Path | None) -> None:
    root = linux_tree()
    body = table(
        [
            "patterns",
            "matches",
            "sf vs rg --count-matches",
            "seconds (sf / rg)",
            "CPU sf vs rg",
            "CPU seconds (sf / rg)",
            "sf peak RSS",
            "before (once)",
            "load average (1 / 5 min) per round",
        ],
        cost_rows(root, before),
    )
    body += "\n\n" + table(
        [
            "call",
            "vs rg --count-matches",
            "seconds (MCP / rg)",
            "worker peak RSS",
            "load average (start, end)",
        ],
        [mcp_cost_row(root)],
    )
    body += (
        f"\n\n{files_walked(root):,} files of the Linux tree; medians of 3 new `sf` processes and 3 rg "
        "runs, interleaved (over MCP: 3 calls and 3 rg runs). CPU is user and system time of the process "
        "and its children (GNU time), which the machine's load changes least."
    )
    section("grep: cost whatever the hit count", body, "python bench/bench_grep.py cost")


def time_section(corpora: Sequence[tuple[str, Path, str, Sequence[str], Sequence[str]]]) -> None:
    rows: list[list[object]] = []
    for name, root, single, three, ten in corpora:
        rows += time_rows(name, root, single, three, ten)
    body = table(
        [
            "corpus",
            "walked",
            "query",
            "sf vs rg",
            "without head start",
            "sf vs other",
            "seconds (sf / rg / grep; several: sf / rg -e … / separate rg runs)",
        ],
        rows,
    )
    section("grep: time end to end (median of 5, warm cache)", body, "python bench/bench_grep.py")


def inprocess_section(corpora: Sequence[tuple[str, Path, str, Sequence[str], Sequence[str]]]) -> None:
    rows: list[list[object]] = []
    for name, root, _, three, ten in corpora:
        rows += in_process_rows(name, root, [three, ten])
    body = table(["corpus", "search", "sf in process vs one `rg -n -e …`", "seconds (sf / rg)"], rows)
    section("grep: several patterns in process (median of 5, warm cache)", body, "python bench/bench_grep.py")


def small_section(corpora: Sequence[tuple[str, Path, str, Sequence[str], Sequence[str]]]) -> None:
    small = corpora[1][1] / "kernel"
    body = table(
        ["tree", "call", "sf", "rg -n", "above rg"],
        [startup_row(small, "spin_lock_irqsave"), mcp_row(small, "spin_lock_irqsave")],
    )
    section("grep: small tree (median of 10, warm cache)", body, "python bench/bench_grep.py")


def tokens_section() -> None:
    php = php_corpus()
    token_table, vs_context, vs_plain = token_rows(php)
    body = table(
        ["query", "hits", "sf TOON", "sf JSON", "grep -rn", "grep -rn -C2", "-C2 / sf", "sf / grep -rn"],
        token_table,
    )
    body += (
        f"\n\nMedian over the query set: `grep -rn -C2` is {statistics.median(vs_context):.2f}× the tokens of "
        f"`sf grep`; `sf grep` is {statistics.median(vs_plain):.2f}× `grep -rn` "
        f"(max_per_pattern=0, unlimited budget; {files_walked(php):,} PHP files from {len(PHP_PACKAGES)} Debian packages)."
    )
    capped = tokens_of_command(sf_command("grep", "--", BROAD_QUERY), cwd=php)
    uncapped = tokens_of_command(grep_command(BROAD_QUERY), cwd=php)
    body += (
        f'\n\nThe cap on a broad query: `sf grep "{BROAD_QUERY}"` (default cap 30, {hits(php, BROAD_QUERY):,} hits) '
        f"prints {capped:,} tokens against {uncapped:,} for `grep -rn`: {ratio(uncapped, capped)} fewer."
    )
    section("grep: tokens", body, "python bench/bench_grep.py")


if __name__ == "__main__":
    main(sys.argv[1:])
