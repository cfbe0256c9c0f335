"""Claude Code transcript tools on a generated corpus: parse throughput cold and cached, the parallel
pool against one process, peak memory on a single huge transcript, and token ratios against the raw
transcripts.

Targets: `cc_ls` cold ≥ 150 MB/s of transcript with the pool's parallelism;
warm ≥ 10× faster than cold; a touched file is the only one parsed again; single-session tools on the
huge file ≥ 60 MB/s cold, peak RSS growth ≤ 150 MB, warm ≥ 20× faster; `cc_show` TOON ≥ 400× smaller
than transcripts ≥ 2 MB; `cc_ls` ≤ 30 tokens per row.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import CACHE, estimate, median_seconds, ratio, section, sf_command, table

from sofia.output.jsonfmt import compact
from sofia.output.render import render
from sofia.providers.cc import loading, ls, parallel, show
from sofia.providers.cc.discovery import list_sessions
from sofia.providers.cc.loading import Loader
from sofia.providers.contract import Context
from tests.cc.corpus import write_corpus, write_session

CORPUS = CACHE / "cc" / "corpus-300"
HUGE = CACHE / "cc" / "huge" / "-home-dev-huge" / "5e55105e-0000-4000-8000-000000000000.jsonl"
HUGE_SIZE = 600 * 1024 * 1024
MB = 1e6


def corpus() -> tuple[Path, int, int]:
    """The 300-session corpus (generated once): root, bytes, files."""
    if not (CORPUS / ".done").exists():
        shutil.rmtree(CORPUS, ignore_errors=True)
        write_corpus(CORPUS)
        (CORPUS / ".done").write_text("")
    files = [p for p in CORPUS.rglob("*.jsonl")]
    return CORPUS, sum(p.stat().st_size for p in files), len(files)


def huge() -> Path:
    if not HUGE.exists() or HUGE.stat().st_size < HUGE_SIZE:
        write_session(HUGE, HUGE_SIZE, 17, HUGE.stem, "/home/dev/huge")
    return HUGE


def fresh_cache() -> str:
    path = tempfile.mkdtemp(prefix="sofia-cc-bench-")
    os.environ["SOFIA_CACHE_DIR"] = path
    return path


def ls_call(root: Path) -> dict[str, Any]:
    result: dict[str, Any] = ls.run(
        ls.Params(projects_dir=str(root), limit=0), Context(root=root, budget=None)
    )
    return result


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def cold_ls(root: Path, parallel: bool) -> tuple[float, float]:
    """Median wall and CPU seconds of cc_ls on an empty cache (a new cache directory per run)."""
    saved = loading.PARALLEL_MIN_BYTES
    loading.PARALLEL_MIN_BYTES = saved if parallel else 1 << 62
    walls, cpus = [], []
    try:
        for _ in range(3):
            cache = fresh_cache()
            wall, cpu = time.perf_counter(), cpu_seconds()
            ls_call(root)
            walls.append(time.perf_counter() - wall)
            cpus.append(cpu_seconds() - cpu)
            shutil.rmtree(cache)
    finally:
        loading.PARALLEL_MIN_BYTES = saved
    return statistics.median(walls), statistics.median(cpus)


def naive_parse(root: Path) -> tuple[float, float]:
    """What a hand-written script does: json.loads every line of every transcript, in one process."""
    walls, cpus = [], []
    for _ in range(3):
        wall, cpu = time.perf_counter(), cpu_seconds()
        for path in root.rglob("*.jsonl"):
            with open(path, "rb") as handle:
                for line in handle:
                    with contextlib.suppress(ValueError):
                        json.loads(line)
        walls.append(time.perf_counter() - wall)
        cpus.append(cpu_seconds() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def cli_seconds(args: list[str], env: dict[str, str], repeat: int = 3) -> float:
    full = dict(os.environ, SOFIA_FOOTER="off", **env)
    return median_seconds(
        lambda: subprocess.run(args, env=full, capture_output=True, check=True), repeat=repeat, warmup=0
    )


def throughput_section(root: Path, size: int, files: int) -> None:
    sessions = len(list_sessions(root).sessions)
    naive, naive_cpu = naive_parse(root)
    sequential, sequential_cpu = cold_ls(root, parallel=False)
    pooled, pooled_cpu = cold_ls(root, parallel=True)
    cache = fresh_cache()
    ls_call(root)
    warm = median_seconds(lambda: ls_call(root), repeat=5)
    cli_env = {"SOFIA_CACHE_DIR": cache}
    cli_warm = cli_seconds(sf_command("cc", "ls", "--projects-dir", str(root), "--limit", "0"), cli_env)
    touched = next(p for p in sorted(root.rglob("*.jsonl")) if "subagents" not in p.parts)
    os.utime(touched)
    loader = Loader(Context(root=root, budget=None), redact=True)
    listing = list_sessions(root)
    loader.digests((s.file, None) for s in listing.sessions)
    workers = parallel.worker_count(files)

    def row(name: str, wall: float, cpu: float | None, unit: str = "s") -> list[str]:
        shown = f"{wall * 1000:.0f} ms" if unit == "ms" else f"{wall:.2f} s"
        per_cpu = f"{size / cpu / MB:.0f}" if cpu else ""
        return [name, shown, f"{size / wall / MB:.0f} MB/s", per_cpu, ratio(naive, wall)]

    rows = [
        row("naive `json.loads` of every line (1 process)", naive, naive_cpu),
        row("`cc_ls` cold, 1 process", sequential, sequential_cpu),
        row(f"`cc_ls` cold, pool of {workers}", pooled, pooled_cpu),
        row("`cc_ls` warm (in-process)", warm, None, "ms"),
        row("`sf cc ls` warm (whole CLI process)", cli_warm, None, "ms"),
    ]
    body = (
        f"Corpus: {sessions} sessions, {files} transcript files (with subagent files), {size / MB:.0f} MB, generated by "
        "`tests/cc/corpus.py` (many small lines, results up to 200 KB, a few multi-MB lines).\n\n"
        + table(["run", "wall time", "throughput", "MB per CPU-second", "vs naive parse"], rows)
        + f"\n\nLoad average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores. "
        f"Pool vs one process: {ratio(sequential, pooled)}; warm vs cold (pool): "
        f"{ratio(pooled, warm)} in-process, {ratio(pooled, cli_warm)} through the CLI. After touching one "
        f"transcript: {loader.cache.misses} parsed again, {loader.cache.hits} from the cache."
    )
    shutil.rmtree(cache)
    section("Claude Code transcripts: parse throughput (cc_ls)", body, "python bench/bench_cc.py")


def huge_section() -> None:
    path = huge()
    size = path.stat().st_size
    script = (
        "import sys, time\nfrom pathlib import Path\n"
        "from sofia.providers.cc import show\nfrom sofia.providers.contract import Context\n"
        "def hwm():\n"
        "    return next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')) // 1024\n"
        "base = hwm()\n"
        "start = time.perf_counter()\n"
        "show.run(show.Params(session=sys.argv[1]), Context(root=Path('/'), budget=20000))\n"
        "took = time.perf_counter() - start\n"
        "print(took, base, hwm())\n"
    )
    cache = fresh_cache()
    env = dict(os.environ, SOFIA_CACHE_DIR=cache)
    out = subprocess.run(
        [sys.executable, "-c", script, str(path)], env=env, capture_output=True, text=True, check=True
    )
    cold, base_mb, peak_mb = out.stdout.split()
    warm_out = subprocess.run(
        [sys.executable, "-c", script, str(path)], env=env, capture_output=True, text=True, check=True
    )
    warm = float(warm_out.stdout.split()[0])
    cli_warm = cli_seconds(sf_command("cc", "show", str(path)), {"SOFIA_CACHE_DIR": cache})
    cat = median_seconds(
        lambda: subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True), repeat=3, warmup=0
    )
    rows = [
        ["`cat` the transcript", f"{cat:.2f} s", f"{size / cat / MB:.0f} MB/s", ""],
        [
            "`cc_show` cold",
            f"{float(cold):.2f} s",
            f"{size / float(cold) / MB:.0f} MB/s",
            f"{peak_mb} MB peak ({int(peak_mb) - int(base_mb)} MB growth)",
        ],
        [
            "`cc_show` warm (in-process)",
            f"{warm * 1000:.1f} ms",
            "",
            f"{ratio(float(cold), warm)} faster than cold",
        ],
        [
            "`sf cc show` warm (whole CLI process)",
            f"{cli_warm * 1000:.0f} ms",
            "",
            f"{ratio(float(cold), cli_warm)} faster than cold",
        ],
    ]
    shutil.rmtree(cache)
    section(
        f"Claude Code transcripts: one {size / MB:.0f} MB transcript (cc_show)",
        table(["run", "time", "throughput", "memory / speed-up"], rows),
        "python bench/bench_cc.py",
    )


def tokens_section(root: Path) -> None:
    os.environ["SOFIA_CACHE_DIR"] = fresh_cache()
    listing = list_sessions(root)
    big = sorted((s for s in listing.sessions if s.file.size >= 2 * 1024 * 1024), key=lambda s: s.file.size)
    picks = [big[0], big[len(big) // 2], big[-1]] if len(big) >= 3 else big
    toon_ratios = []
    json_ratios = []
    rows = []
    for session in picks:
        raw = estimate(Path(session.file.path).read_bytes())
        result = show.run(show.Params(session=session.file.path), Context(root=root))
        toon = estimate(render(result, "toon", show.render))
        packed = estimate(compact(result))
        toon_ratios.append(raw / toon)
        json_ratios.append(raw / packed)
        rows.append(
            [
                session.short_id,
                f"{session.file.size / MB:.1f} MB",
                raw,
                toon,
                ratio(raw, toon),
                packed,
                ratio(raw, packed),
            ]
        )
    result = ls_call(root)
    rows_ls = len(result["sessions"])
    ls_toon = estimate(render(result, "toon", ls.render))
    ls_json = estimate(compact(result))
    body = (
        table(["session", "size", "raw tokens", "cc_show TOON", "ratio", "cc_show JSON", "ratio"], rows)
        + f"\n\nMedian ratio over transcripts ≥ 2 MB ({len(big)} of them, three shown): "
        f"TOON {statistics.median(raw_r for raw_r in toon_ratios):.0f}×, JSON {statistics.median(json_ratios):.0f}×.\n\n"
        + table(
            ["cc_ls, all sessions", "rows", "tokens", "tokens per row"],
            [
                ["TOON", rows_ls, ls_toon, f"{ls_toon / rows_ls:.1f}"],
                ["compact JSON (MCP)", rows_ls, ls_json, f"{ls_json / rows_ls:.1f}"],
            ],
        )
    )
    section("Claude Code transcripts: tokens vs the raw transcript", body, "python bench/bench_cc.py")


def main() -> None:
    started = time.perf_counter()
    root, size, files = corpus()
    throughput_section(root, size, files)
    tokens_section(root)
    huge_section()
    print(f"<!-- bench_cc took {time.perf_counter() - started:.0f} s -->")


if __name__ == "__main__":
    main()
