"""`sf refs` against what an agent would otherwise run: end-to-end time vs `rg -w` on a tree of
more than 50,000 files (a new CLI process, and over MCP with a warm worker), a name with more than
10,000 occurrences over MCP inside the default deadline (exact totals, worker memory), names in
most files of the Linux tree (`err`, `i`, `ret`) and of a Python tree (`self`) with peak memory,
and output tokens vs `grep -rn -w` and `grep -rn -w -C2` for the same symbols on the same files.

    python bench/bench_refs.py [time mcp everywhere tokens] [--before CHECKOUT]

Corpora: grep's generated polyglot monorepo (fixed seed) and Laravel and Symfony components from
Debian (both built by bench_grep into bench/.cache).
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import harness
from bench_grep import files_walked, monorepo, php_corpus, side_by_side
from harness import ratio, section, sf_command, table, tokens_of_command

from sofia.providers.refs.head_start import default_exts
from sofia.runtime import rg

TIME_NAMES = ("deleteUser", "InvoiceRepository")
"""Names every generated package uses (thousands of files); a rare one is picked from the tree."""
BIG_NAME = "CACHE_TTL"
PHP_SYMBOLS = (
    "getConnection",
    "dispatch",
    "InvalidArgumentException",
    "setAttribute",
    "Request",
    "Symfony\\Component\\HttpFoundation\\Request",
    "Model::getConnection",
    "handle",
)
MONOREPO_SYMBOLS = ("deleteUser", "DeleteUser", "delete_user", "InvoiceRepository")
DEFAULT_DEADLINE = 120.0


def rg_word(root: Path, name: str, *, count: bool = False, every_type: bool = False) -> list[str]:
    """Bare `rg -n -w` (or `rg -w --count-matches`) in `root` with the walk refs uses, over the
    extensions it reads (`every_type`: over every file, as refs without `exts` counts)."""
    args = [rg.executable(), "--no-config", "--count-matches" if count else "-n", "--fixed-strings"]
    args += ["--word-regexp", *rg.walk_args(cwd=root.resolve())]
    args += [] if every_type else [f"--iglob=*.{ext}" for ext in default_exts()]
    return [*args, f"--regexp={name}", "--", "."]


def grep_word(name: str, *extra: str, include: Sequence[str] = ("php",)) -> list[str]:
    includes = [f"--include=*.{ext}" for ext in include]
    return ["grep", "-rn", "-w", "-F", *includes, *extra, "--", name.rsplit("\\", 1)[-1].split("::")[-1], "."]


def occurrences(root: Path, name: str) -> int:
    args = [rg.executable(), "--no-config", "--count-matches", "-F", "-w", "--no-filename"]
    args += rg.walk_args(cwd=root.resolve())
    args += [f"--iglob=*.{ext}" for ext in default_exts()]
    done = harness.run([*args, "-e", name, "--", "."], root)
    return sum(int(n) for n in done.stdout.split())


def rare_name(root: Path) -> str:
    """A class declared once in the generated tree (each PHP file declares its own)."""
    ignored = set(rg.DEFAULT_IGNORE_DIRS)
    first = next(p for p in sorted((root / "packages").rglob("*.php")) if not ignored & set(p.parts))
    line = next(line for line in first.read_text().splitlines() if line.startswith("final class "))
    return line.split()[2]


def time_rows(root: Path, names: Sequence[str], before: Path | None = None) -> list[list[object]]:
    """`sf refs` vs `rg -w`, and with `before` the same `sf refs` run from that checkout too, all
    interleaved in the same rounds."""
    from refs_oracle.refs_client import refs_command

    commands: dict[str, list[str]] = {}
    for name in names:
        commands[f"sf:{name}"] = sf_command("refs", name)
        commands[f"rg:{name}"] = rg_word(root, name)
        if before is not None:
            commands[f"before:{name}"] = [*refs_command(before), "refs", name]
    t = side_by_side(commands, root)
    size = f"{files_walked(root):,} files"
    rows: list[list[object]] = []
    for name in names:
        row: list[object] = [
            size,
            f"`sf refs {name}` ({occurrences(root, name):,} occurrences)",
            ratio(t[f"sf:{name}"], t[f"rg:{name}"]),
            f"{t[f'sf:{name}']:.2f} / {t[f'rg:{name}']:.2f}",
        ]
        if before is not None:
            row += [ratio(t[f"before:{name}"], t[f"rg:{name}"]), f"{t[f'before:{name}']:.2f}"]
        rows.append(row)
    return rows


class RssSampler:
    """Peak resident memory of the server's worker processes while a call runs."""

    def __init__(self) -> None:
        import psutil

        self.psutil = psutil
        self.peak = 0
        self.running = True
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        me = self.psutil.Process()
        while self.running:
            for child in me.children(recursive=True):
                try:
                    if "mcp" not in child.cmdline():
                        self.peak = max(self.peak, child.memory_info().rss)
                except self.psutil.Error:
                    continue
            time.sleep(0.05)

    def __enter__(self) -> RssSampler:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.running = False
        self.thread.join()


def mcp_rows(
    root: Path, names: Sequence[str], calls: int = 5
) -> tuple[list[list[object]], list[list[object]]]:
    """Warm-worker calls against bare rg, interleaved; then the big name once, with worker memory."""
    import anyio

    async def measure() -> tuple[list[list[object]], list[list[object]]]:
        rows: list[list[object]] = []
        async with harness.mcp_session(root, "--workers", "1") as session:
            await session.call_tool("refs", {"symbols": ["warmup"]}, read_timeout_seconds=None)
            for name in names:
                over: list[float] = []
                bare: list[float] = []
                for _ in range(calls + 1):
                    start = time.perf_counter()
                    result = await session.call_tool("refs", {"symbols": [name]})
                    over.append(time.perf_counter() - start)
                    assert not result.is_error, result
                    start = time.perf_counter()
                    await anyio.to_thread.run_sync(lambda n=name: harness.run(rg_word(root, n), cwd=root))
                    bare.append(time.perf_counter() - start)
                # The first call of a name parses its files; the worker keeps what it
                # classified, so asking again (the files unchanged) only counts and matches.
                first, again = over[0], statistics.median(over[1:])
                rg_first, rg_again = bare[0], statistics.median(bare[1:])
                rows.append(
                    [
                        f"`refs {name}` over MCP (warm worker), first call of the name",
                        ratio(first, rg_first),
                        f"{first:.2f} / {rg_first:.2f}",
                    ]
                )
                rows.append(
                    [
                        f"`refs {name}` over MCP (warm worker), asked again (median of {calls})",
                        ratio(again, rg_again),
                        f"{again:.2f} / {rg_again:.2f}",
                    ]
                )
            expected = occurrences(root, BIG_NAME)
            with RssSampler() as sampler:
                start = time.perf_counter()
                result = await session.call_tool("refs", {"symbols": [BIG_NAME]}, read_timeout_seconds=None)
                elapsed = time.perf_counter() - start
            assert not result.is_error, result
            payload = json.loads(result.content[0].text)  # type: ignore[union-attr]
            totals = payload["symbols"][0]["totals"]
            big = [
                [
                    f"`refs {BIG_NAME}` over MCP",
                    f"{expected:,}",
                    f"{totals['text']:,}",
                    f"{totals.get('unclassified', 0):,}",
                    f"{elapsed:.1f} s (deadline {DEFAULT_DEADLINE:.0f} s)",
                    f"{sampler.peak / 2**20:.0f} MiB",
                ]
            ]
        return rows, big

    return anyio.run(measure)


EVERYWHERE = ("err", "i", "ret")
"""Names in most C files of the kernel: what refs costs when it cannot classify every candidate."""
PYTHON_EVERYWHERE = ("self",)
"""A name in most files of a Python tree."""


def python_tree() -> Path:
    """The running interpreter's library directory (the standard library and the packages installed
    beside it): some 15,000 Python files among 37,000, `self` in most of them."""
    import sysconfig

    return Path(sysconfig.get_paths()["stdlib"])


def everywhere_rows(
    root: Path, names: Sequence[str], before: Path | None, repeat: int = 3
) -> list[list[object]]:
    """`sf refs NAME` (a new process, the default cap) against `rg -w --count-matches NAME` over
    the same walk and every file type (what refs counts without `exts`) and against a plain
    `rg -w -c NAME` (ripgrep's own defaults), wall time and peak memory, interleaved; `before`'s
    `sf refs` once."""
    from bench_grep import Run, before_command, load, peak

    rows: list[list[object]] = []
    for name in names:
        ours = sf_command("refs", "--json", name)
        theirs = rg_word(root, name, count=True, every_type=True)
        plain = [rg.executable(), "-w", "-c", name]
        peak(theirs, root)  # warm the page cache
        sf_runs: list[Run] = []
        rg_runs: list[Run] = []
        plain_runs: list[Run] = []
        loads: list[str] = []
        for _ in range(repeat):
            loads.append(load())
            sf_runs.append(peak(ours, root))
            rg_runs.append(peak(theirs, root))
            plain_runs.append(peak(plain, root))
        answer = json.loads(harness.run(ours, root).stdout)
        totals = answer["symbols"][0]["totals"]
        sample = next((n for n in answer["notes"] if n.startswith("classified a sample of ")), "")
        sampled = sample.split(" (", 1)[0].removeprefix("classified a sample of ") if sample else "all"
        narrows = next((n.split("narrow with ", 1)[1] for n in answer["notes"] if "narrow with " in n), "")
        listing = rg_word(root, name)
        candidates = len(
            harness.run([*listing[:2], "--files-with-matches", *listing[3:]], root).stdout.splitlines()
        )
        plain_time = statistics.median(run.wall for run in plain_runs)
        sf_time = statistics.median(run.wall for run in sf_runs)
        rg_time = statistics.median(run.wall for run in rg_runs)
        sf_cpu = statistics.median(run.cpu for run in sf_runs)
        rg_cpu = statistics.median(run.cpu for run in rg_runs)
        before_cell = ""
        if before is not None:
            then = peak(before_command(before, "refs", name), root)
            before_cell = f"{then.wall:.1f} s, {then.kib / 1024:,.0f} MiB ({ratio(then.wall, rg_time)})"
        rows.append(
            [
                f"`sf refs {name}`",
                f"{occurrences(root, name):,} in {candidates:,} files",
                f"{totals['text']:,}",
                sampled,
                f"{totals.get('unclassified', 0):,}",
                f"narrow with {narrows}" if narrows else "no",
                ratio(sf_time, rg_time),
                f"{sf_time:.2f} / {rg_time:.2f}",
                f"{ratio(sf_time, plain_time)} ({plain_time:.2f} s)",
                ratio(sf_cpu, rg_cpu),
                f"{sf_cpu:.2f} / {rg_cpu:.2f}",
                f"{max(run.kib for run in sf_runs) / 1024:,.0f} MiB",
                before_cell,
                ", ".join(loads),
            ]
        )
    return rows


def token_rows(
    root: Path, symbols: Sequence[str], include: Sequence[str]
) -> tuple[list[list[object]], list[float], list[float]]:
    env = {"SOFIA_MAX_OUTPUT_TOKENS": "10000000"}
    exts = ",".join(include)
    rows: list[list[object]] = []
    vs_plain: list[float] = []
    vs_context: list[float] = []
    for symbol in symbols:
        sf = tokens_of_command(
            sf_command("refs", symbol, "--ext", exts, "--max-per-symbol", "0"), cwd=root, env=env
        )
        sf_json = tokens_of_command(
            sf_command("refs", symbol, "--ext", exts, "--max-per-symbol", "0", "--json"), cwd=root, env=env
        )
        plain = tokens_of_command(grep_word(symbol, include=include), cwd=root)
        context = tokens_of_command(grep_word(symbol, "-C2", include=include), cwd=root)
        vs_plain.append(sf / plain)
        vs_context.append(context / sf)
        rows.append(
            [
                f"`{symbol}`",
                f"{sf:,}",
                f"{sf_json:,}",
                f"{plain:,}",
                f"{context:,}",
                ratio(sf, plain),
                ratio(context, sf),
            ]
        )
    return rows, vs_plain, vs_context


def main(argv: Sequence[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--before",
        type=Path,
        help="another checkout (its source tree) whose `sf refs` is timed in the same rounds",
    )
    parser.add_argument(
        "sections", nargs="*", help="sections to run: time, mcp, everywhere, tokens (default: all)"
    )
    args = parser.parse_args(argv)
    before = args.before.resolve() if args.before else None
    wanted = set(args.sections or ("time", "mcp", "everywhere", "tokens"))
    if "everywhere" in wanted:
        from bench_grep import linux_tree

        header = [
            "call",
            "rg -w occurrences",
            "text total",
            "classified files",
            "unclassified",
            "says how to narrow",
            "sf vs rg -w",
            "seconds (sf / rg)",
            "sf vs plain `rg -w -c`",
            "CPU sf vs rg -w",
            "CPU seconds (sf / rg)",
            "sf peak RSS",
            "before (once)",
            "load average (1 / 5 min) per round",
        ]
        rows = everywhere_rows(linux_tree(), EVERYWHERE, before)
        rows += everywhere_rows(python_tree(), PYTHON_EVERYWHERE, before)
        body = table(header, rows)
        body += (
            f"\n\nThe Linux tree (bench/languages) for {', '.join(EVERYWHERE)}; {python_tree()} "
            f"({files_walked(python_tree()):,} files) for {', '.join(PYTHON_EVERYWHERE)}. "
            'Medians of 3 new `sf` processes and 3 runs of each rg, interleaved. "rg -w" is '
            "`rg -w --count-matches NAME` over the walk refs makes (hidden files, the default skips) "
            "and every file type, as refs without `exts` counts the name in every type (those it "
            'does not parse for its note); "plain" is `rg -w -c NAME` as typed.'
        )
        section("refs: a name in most files of a large tree", body, "python bench/bench_refs.py everywhere")
    if wanted <= {"everywhere"}:
        return
    tree = monorepo()
    names = (rare_name(tree), *TIME_NAMES)
    if "time" in wanted:
        header = ["tree", "call", "sf vs rg -w", "seconds (sf / rg)"]
        if before is not None:
            header += ["before vs rg -w", "seconds (before)"]
        body = table(header, time_rows(tree, names, before))
        section(
            "refs: time end to end, a new CLI process (median of 5, warm cache)",
            body,
            "python bench/bench_refs.py",
        )
    if "mcp" in wanted:
        rows, big = mcp_rows(tree, names)
        body = table(["call", "vs rg -w", "seconds (MCP / rg)"], rows)
        body += "\n\n" + table(
            ["call", "rg -w occurrences", "text total", "unclassified", "wall", "worker peak RSS"], big
        )
        section(
            "refs: over MCP, warm worker; a name with > 10,000 occurrences",
            body,
            "python bench/bench_refs.py",
        )
    if "tokens" not in wanted:
        return
    header = ["symbol", "sf TOON", "sf JSON", "grep -rn -w", "grep -rn -w -C2", "sf / grep", "-C2 / sf"]
    php = php_corpus()
    php_rows, php_plain, php_context = token_rows(php, PHP_SYMBOLS, ("php",))
    mono_rows, mono_plain, mono_context = token_rows(tree, MONOREPO_SYMBOLS, ("php", "ts", "go", "py"))
    body = table(header, php_rows)
    body += (
        f"\n\nLaravel and Symfony ({files_walked(php):,} PHP files): median `sf refs` / `grep -rn -w` "
        f"{statistics.median(php_plain):.2f}×, `grep -rn -w -C2` / `sf refs` {statistics.median(php_context):.2f}×."
    )
    body += "\n\n" + table(header, mono_rows)
    body += (
        f"\n\nGenerated monorepo: median `sf refs` / `grep -rn -w` {statistics.median(mono_plain):.2f}×, "
        f"`grep -rn -w -C2` / `sf refs` {statistics.median(mono_context):.2f}× "
        "(every use shown: max_per_symbol 0, unlimited budget; grep over the same extensions)."
    )
    section("refs: tokens", body, "python bench/bench_refs.py")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
