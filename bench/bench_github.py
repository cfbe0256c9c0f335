"""The GitHub tools against the gh output an agent would otherwise read, all replayed by the fake gh
from the test recordings (GitHub itself is not reachable here): tokens of `sf github pr|ci|branches`
vs the raw gh calls, and the wall time of `sf github ci` tree mode over 20 package repositories vs
the same probes run one after another.

Targets: github_pr TOON ≥ 15× smaller than two `gh search prs --json` calls plus `gh pr checks`
per PR; the compact JSON for MCP at least half of that; tree mode over 20 repositories with a gh
answering in 0.5 s within 1.3 × 4 × 0.5 s.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from harness import CACHE, ROOT, estimate, median_seconds, ratio, run, section, sf_command, table

sys.path.insert(0, str(ROOT))

from sofia.providers.github import ci
from tests.github.fakegh import RECORDINGS, FakeGh, go_json
from tests.github.helpers import VIEWER, branches_query, prs_query, record_api_repo

WORK = CACHE / "github"
NOW = "1781395200"  # 2026-06-14T00:00:00Z, the clock of the branch fixture
TREE_REPOS = 20
GH_DELAY = 0.5


def fake_env(fake: FakeGh) -> dict[str, str]:
    """The environment that puts the test suite's fake gh, with `fake`'s cases, first on PATH."""
    return {**fake.env(), "SOFIA_NOW": NOW}


def sf_output(args: list[str], env: dict[str, str], cwd: Path, fmt: str = "toon") -> str:
    flags = [] if fmt == "toon" else ["--json"]
    done = run(sf_command(*args, *flags), cwd=cwd, env=env)
    if done.returncode not in (0, 1):
        raise SystemExit(f"sf {' '.join(args)} failed: {done.stderr.decode()}")
    text = done.stdout.decode()
    return json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False) if fmt == "json" else text


def pr_alternative() -> tuple[str, int]:
    """Two `gh search prs --json` documents and `gh pr checks` per PR, built from the same recording."""
    data = json.loads((RECORDINGS / "graphql_prs.json").read_text())["data"]
    out: list[str] = []
    for alias in ("authored", "review"):
        hits = [
            {
                "isDraft": node["isDraft"],
                "number": node["number"],
                "repository": {
                    "name": node["repository"]["nameWithOwner"].split("/")[1],
                    "nameWithOwner": node["repository"]["nameWithOwner"],
                },
                "title": node["title"],
                "updatedAt": node["updatedAt"],
                "url": node["url"],
            }
            for node in data[alias]["nodes"]
        ]
        out.append(go_json(hits))
    seen: set[str] = set()
    calls = 2
    for alias in ("authored", "review", "owned"):
        for node in data[alias]["nodes"]:
            key = node["url"]
            if key in seen or (alias == "owned" and node["repository"]["isFork"]):
                continue
            seen.add(key)
            calls += 1
            out.append(pr_checks(node))
    return "".join(out), calls


CHECKS = [
    *(f"tests (PHP {php}, {deps} deps)" for php in ("8.2", "8.3", "8.4") for deps in ("lowest", "highest")),
    "phpstan",
    "psalm",
    "coding standards",
    "mutation tests",
    "codecov/patch",
    "codecov/project",
]
"""The checks of a PHP library's pull request: a PHP × dependency matrix plus static analysis and
coverage (the reference measured 254–346 tokens of `gh pr checks` per PR on such repositories)."""


def pr_checks(node: dict[str, Any]) -> str:
    """What `gh pr checks` prints to a pipe: name, state, elapsed time and link, tab-separated."""
    rollup = node["commits"]["nodes"][0]["commit"]["statusCheckRollup"]
    if rollup is None:
        return "no checks reported on the 'feature' branch\n"
    state = rollup["state"]
    repo = node["repository"]["nameWithOwner"]
    lines = []
    for i, name in enumerate(CHECKS):
        bucket = {"FAILURE": "fail" if i == 2 else "pass", "PENDING": "pending"}.get(state, "pass")
        elapsed = "0" if bucket == "pending" else f"{1 + i % 3}m{11 + i * 4}s"
        link = f"https://github.com/{repo}/actions/runs/{9400000000 + node['number']}/job/{25800000000 + i}"
        lines.append(f"{name}\t{bucket}\t{elapsed}\t{link}\n")
    return "".join(lines)


def pr_section() -> None:
    fake = FakeGh(WORK / "pr")
    fake.add(VIEWER, stdout="dev\n")
    fake.add(prs_query(), stdout_file="graphql_prs.json")
    env = fake_env(fake)
    toon = sf_output(["github", "pr"], env, WORK)
    compact = sf_output(["github", "pr"], env, WORK, "json")
    raw, calls = pr_alternative()
    raw_tok, toon_tok, json_tok = estimate(raw), estimate(toon), estimate(compact)
    rows = [
        ["`sf github pr` TOON", toon_tok, ratio(raw_tok, toon_tok), "≥ 15×", 2],
        ["`sf github pr` compact JSON (MCP)", json_tok, ratio(raw_tok, json_tok), "≥ 7.5×", 2],
        ["2 × `gh search prs --json` + `gh pr checks` per PR", raw_tok, "1.00×", "", calls],
    ]
    section(
        "GitHub: `sf github pr` (five-PR fixture)",
        table(["output", "tokens", "smaller by", "bar", "gh calls"], rows),
        "python bench/bench_github.py",
    )


def ci_section(repo: Path) -> None:
    fake = FakeGh(WORK / "ci")
    record_api_repo(fake, repo)
    env = fake_env(fake)
    toon = sf_output(["github", "ci"], env, repo)
    compact = sf_output(["github", "ci"], env, repo, "json")
    raw = "".join(
        (RECORDINGS / name).read_text()
        for name in ("run_list_api.json", "run_view_jobs_9123.json", "run_view_log_failed_9123.txt")
    )
    raw_tok, toon_tok, json_tok = estimate(raw), estimate(toon), estimate(compact)
    rows = [
        [
            "`sf github ci` TOON (5 runs, 2 failed steps with 20-line tails)",
            toon_tok,
            ratio(raw_tok, toon_tok),
        ],
        ["`sf github ci` compact JSON (MCP)", json_tok, ratio(raw_tok, json_tok)],
        ["`gh run list --json …` + `gh run view --json jobs` + `gh run view --log-failed`", raw_tok, "1.00×"],
    ]
    section(
        "GitHub: `sf github ci` (one repository)",
        table(["output", "tokens", "smaller by"], rows),
        "python bench/bench_github.py",
    )


def branches_section() -> None:
    fake = FakeGh(WORK / "branches")
    fake.add(VIEWER, stdout="dev\n")
    fake.add(branches_query(), stdout_file="graphql_branches.json")
    env = fake_env(fake)
    toon = sf_output(["github", "branches"], env, WORK)
    compact = sf_output(["github", "branches"], env, WORK, "json")
    raw_tok = estimate((RECORDINGS / "graphql_branches.json").read_text())
    rows = [
        ["`sf github branches` TOON", estimate(toon), ratio(raw_tok, estimate(toon))],
        ["`sf github branches` compact JSON (MCP)", estimate(compact), ratio(raw_tok, estimate(compact))],
        ["the same GraphQL answer from `gh api graphql`", raw_tok, "1.00×"],
    ]
    section(
        "GitHub: `sf github branches` (branch fixture)",
        table(["output", "tokens", "smaller by"], rows),
        "python bench/bench_github.py",
    )


def tree(root: Path) -> list[Path]:
    repos = []
    for i in range(TREE_REPOS):
        repo = root / f"pkg{i:02d}"
        if not (repo / ".git").exists():
            repo.mkdir(parents=True, exist_ok=True)
            (repo / "composer.json").write_text(json.dumps({"name": f"acme/pkg{i:02d}"}))
            subprocess.run(["git", "init", "-q", str(repo)], check=True)
        repos.append(repo)
    return repos


def tree_section() -> None:
    root = Path(tempfile.mkdtemp(prefix="sofia-bench-tree-"))
    repos = tree(root)
    vector = ["run", "list", "--limit", "1", "--json", ci.RUN_FIELDS]
    fake = FakeGh(WORK / "tree")
    for repo in repos:
        fake.add(vector, stdout_file="run_list_delta.json", cwd=repo, sleep=GH_DELAY)
    env = fake_env(fake)
    full_env = {**os.environ, **env}

    def sf_tree() -> None:
        run(sf_command("github", "ci", "--root", str(root)), cwd=WORK, env=env)

    def loop() -> None:
        for repo in repos:
            subprocess.run(["gh", *vector], cwd=repo, env=full_env, capture_output=True, check=True)

    done = run(sf_command("github", "ci", "--root", str(root), "--json"), cwd=WORK, env=env)
    if done.returncode != 0 or len(json.loads(done.stdout)["runs"]) != TREE_REPOS:
        raise SystemExit(f"sf github ci tree mode failed: {done.stderr.decode()}")
    sf_time, loop_time = median_seconds(sf_tree, 3, warmup=0), median_seconds(loop, 3, warmup=0)
    shutil.rmtree(root, ignore_errors=True)
    probe = loop_time / TREE_REPOS
    waves = -(-TREE_REPOS // 6)
    rows = [
        [
            f"`sf github ci --root` over {TREE_REPOS} repositories (6 probes at a time)",
            f"{sf_time:.2f} s",
            ratio(loop_time, sf_time),
            f"{sf_time / (waves * probe):.2f}× of {waves} probe waves",
            "≤ 1.30×",
        ],
        [
            "`gh run list --limit 1` in each repository, one after another",
            f"{loop_time:.2f} s",
            "1.00×",
            f"one probe {probe:.2f} s",
            "",
        ],
    ]
    section(
        f"GitHub: `sf github ci` tree mode (fake gh sleeping {GH_DELAY} s per call)",
        table(["command", "wall (median of 3)", "faster by", "vs ideal", "bar"], rows),
        "python bench/bench_github.py",
    )


def main() -> int:
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    repo = WORK / "api"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    pr_section()
    ci_section(repo)
    branches_section()
    tree_section()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
