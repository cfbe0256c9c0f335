"""`changed` against `git diff`: tokens and time on ranges between two pinned releases of public
packages (each release committed in turn to a scratch repository, so the range is real history).

Targets: tokens vs `git diff` median ≥ 48×; size ≤ 1.5× `git diff --stat`; time ≤ 2× `git diff`
with symbols and ≤ 1.5× `git diff --numstat` without.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
from functools import partial
from pathlib import Path

from harness import (
    CACHE,
    estimate,
    median_seconds,
    pypi_sdist,
    ratio,
    run,
    section,
    sf_command,
    table,
    time_command,
)

from sofia.providers import changed
from sofia.providers.contract import Context

TARGET = 48.0
"""The bar: median tokens of `git diff` ÷ those of `sf changed` (TOON) over the pairs."""
PACKAGES = (("flask==2.2.5", "src/flask"), ("httpx==0.24.1", "httpx"))
"""A package directory of some ranges: the workspace of an editor opened on one package."""

PAIRS = (
    ("requests==2.28.2", "requests==2.32.3"),
    ("flask==2.2.5", "flask==3.0.3"),
    ("click==8.0.4", "click==8.1.7"),
    ("attrs==22.2.0", "attrs==23.2.0"),
    ("httpx==0.24.1", "httpx==0.27.0"),
)


def history(old: str, new: str) -> Path:
    """A repository whose two commits are the two releases (tagged `old` and `new`)."""
    name = old.split("==")[0]
    repo = CACHE / "changed" / f"{name}-{old.split('==')[1]}-{new.split('==')[1]}"
    if (repo / ".git" / "refs" / "tags" / "new").exists():
        return repo
    shutil.rmtree(repo, ignore_errors=True)
    repo.mkdir(parents=True)
    git = ["git", "-C", str(repo), "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    for tag, spec in (("old", old), ("new", new)):
        for item in repo.iterdir():
            if item.name != ".git":
                shutil.rmtree(item) if item.is_dir() else item.unlink()
        shutil.copytree(pypi_sdist(spec), repo, dirs_exist_ok=True)
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-qm", spec], check=True)
        subprocess.run([*git, "tag", tag], check=True)
    return repo


def package_rows() -> list[tuple[object, ...]]:
    rows: list[tuple[object, ...]] = []
    for old, package in PACKAGES:
        new = next(n for o, n in PAIRS if o == old)
        workspace = history(old, new) / package
        diff = estimate(run(["git", "diff", "old..new", "--", "."], cwd=workspace).stdout)
        out = run(sf_command("changed", "old..new", "--json", "--max-output-tokens", "0"), cwd=workspace)
        notes = json.loads(out.stdout)["notes"]
        outside = next((n.split(" ", 1)[0] for n in notes if "outside the workspace" in n), "0")
        toon = estimate(
            run(sf_command("changed", "old..new", "--max-output-tokens", "0"), cwd=workspace).stdout
        )
        rows.append((package, f"{old} → {new.split('==')[1]}", diff, toon, ratio(diff, toon), outside))
    return rows


def main() -> None:
    token_rows = []
    time_rows = []
    diff_ratios = []
    stat_ratios = []
    for old, new in PAIRS:
        repo = history(old, new)
        diff = estimate(run(["git", "diff", "old..new"], cwd=repo).stdout)
        stat = estimate(run(["git", "diff", "--stat", "old..new"], cwd=repo).stdout)
        numstat = run(["git", "diff", "--numstat", "old..new"], cwd=repo).stdout.decode()
        changed_lines = sum(
            int(a) + int(d) for a, d, _ in (line.split("\t", 2) for line in numstat.splitlines()) if a != "-"
        )
        files = len(numstat.splitlines())
        toon = estimate(run(sf_command("changed", "old..new", "--max-output-tokens", "0"), cwd=repo).stdout)
        as_json = estimate(
            run(sf_command("changed", "old..new", "--json", "--max-output-tokens", "0"), cwd=repo).stdout
        )
        diff_ratios.append(diff / toon)
        stat_ratios.append(toon / stat)
        token_rows.append(
            (
                f"{old} → {new.split('==')[1]}",
                files,
                changed_lines,
                diff,
                stat,
                toon,
                as_json,
                ratio(diff, toon),
                ratio(toon, stat),
            )
        )
        sf_time = time_command(sf_command("changed", "old..new", "--max-output-tokens", "0"), cwd=repo)
        git_time = time_command(["git", "diff", "old..new"], cwd=repo)
        sf_plain = time_command(
            sf_command("changed", "old..new", "--no-symbols", "--max-output-tokens", "0"), cwd=repo
        )
        numstat_time = time_command(["git", "diff", "--numstat", "old..new"], cwd=repo)
        in_process = median_seconds(
            partial(changed.run, changed.Params(range="old..new"), Context(root=repo, budget=None))
        )
        time_rows.append(
            (
                f"{old.split('==')[0]} ({files} files)",
                f"{sf_time * 1000:.0f} ms",
                f"{git_time * 1000:.0f} ms",
                ratio(sf_time, git_time),
                f"{in_process * 1000:.0f} ms",
                ratio(in_process, git_time),
                f"{sf_plain * 1000:.0f} ms",
                f"{numstat_time * 1000:.0f} ms",
                ratio(sf_plain, numstat_time),
            )
        )
    body = table(
        (
            "range",
            "files",
            "changed lines",
            "git diff tok",
            "git diff --stat tok",
            "sf changed (TOON) tok",
            "JSON tok",
            "git diff ÷ sf",
            "sf ÷ --stat",
        ),
        token_rows,
    )
    median = statistics.median(diff_ratios)
    verdict = "met" if median >= TARGET else f"{(1 - median / TARGET) * 100:.0f}% short"
    body += (
        f"\n\nMedian: git diff is **{median:.1f}×** the TOON output (target ≥ {TARGET:.0f}×, {verdict}); "
        f"the TOON output is **{statistics.median(stat_ratios):.2f}×** `git diff --stat` (target ≤ 1.5×).\n\n"
    )
    body += table(
        (
            "workspace",
            "range",
            "git diff -- . tok",
            "sf changed (TOON) tok",
            "git diff ÷ sf",
            "files outside",
        ),
        package_rows(),
    )
    body += (
        "\n\nFrom a package directory (an editor opened on one package), `changed` lists that "
        "package's part with workspace-relative paths and counts the rest; the baseline is what a "
        "user there would run, `git diff <range> -- .`.\n\n"
    )
    body += table(
        (
            "range",
            "sf changed",
            "git diff",
            "ratio (target ≤ 2×)",
            "in process (warm MCP worker)",
            "ratio",
            "sf changed --no-symbols",
            "git diff --numstat",
            "ratio (target ≤ 1.5×)",
        ),
        time_rows,
    )
    body += (
        "\n\nThe CLI columns include the interpreter's start-up and the pydantic import (see the start-up table); "
        "the in-process column is what a warm `sf mcp` worker spends on the same call.\n\n"
        "Corpora: the PyPI source distributions named in the first column, each release one commit."
    )
    section("changed", body, "python bench/run.py changed")


if __name__ == "__main__":
    main()
