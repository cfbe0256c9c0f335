"""`sf github ci --watch` (CLI only): follow the newest run of a repository until it completes, then
show it with its failures; the exit status says how it ended (0 success, 1 failure, 124 timeout)."""

from __future__ import annotations

import os
import time
from typing import Any

from sofia.providers.contract import Context, Outcome, ProviderError
from sofia.providers.github import ci, gh
from sofia.providers.github.redaction import Redactor
from sofia.providers.github.targets import resolve

POLL_ENV = "SOFIA_GH_POLL_SECONDS"
"""Seconds between two `gh run view` polls (default 8; tests shorten it)."""
DEFAULT_POLL = 8.0
EXIT_TIMEOUT = 124


def poll_interval() -> float:
    value = os.environ.get(POLL_ENV, "")
    try:
        seconds = float(value)
    except ValueError:
        return DEFAULT_POLL
    return seconds if seconds > 0 else DEFAULT_POLL


def watch(params: ci.CliParams, ctx: Context) -> Outcome:
    target = resolve(params.root, params.package, ctx)
    if target.mode != "repository" or target.repo is None:
        raise ProviderError(
            f"--watch needs a single repository, but {target.repo_dir} is a tree of package repositories",
            "pass a package, or run inside the repository to watch",
        )
    repo = target.repo
    latest = ci.list_runs(repo, 1, ctx)
    if not latest:
        raise ProviderError(
            f"no workflow runs in {target.repo_dir}", "push a commit or start a workflow, then watch again"
        )
    timeout = ci.parse_duration(params.timeout)
    interval = poll_interval()
    deadline = time.monotonic() + timeout
    item: dict[str, Any] = latest[0]
    run_id = ci.to_run(item, "", repo, Redactor()).id
    polls = 0
    while item.get("status") != "completed":
        left = deadline - time.monotonic()
        if left <= 0:
            report = ci.Report("repository", target.repo_dir, [ci.to_run(item, "", repo, Redactor())])
            report.notes.append(
                f"watch timed out after {params.timeout}: run {run_id} still {gh.text(item.get('status'))}"
            )
            return Outcome(ci.assemble(report, params.log_lines, ctx.budget), EXIT_TIMEOUT)
        polls += 1
        ctx.progress(polls, None, f"run {run_id} {item.get('status')}, next check in {interval:g} s")
        time.sleep(min(interval, left))
        item = ci.view_run(run_id, repo, ctx)
    redactor = Redactor()
    report = ci.Report(
        "repository", target.repo_dir, [ci.to_run(item, "", repo, redactor)], redactor=redactor
    )
    ci.add_failures(report, params.log_lines, ctx)
    result = ci.assemble(report, params.log_lines, ctx.budget)
    return Outcome(result, 0 if item.get("conclusion") == "success" else 1)
