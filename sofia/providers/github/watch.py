"""`sf github ci --watch` (CLI only): follow the newest run of a repository until it completes, then
show it with its failures; the exit status says how it ended (0 success, 1 failure, 124 timeout)."""

from __future__ import annotations

import re
import time
from typing import Annotated, Any

from pydantic import Field, field_validator

from sofia import settings
from sofia.output.redact import Redactor
from sofia.providers.contract import Cli, Context, Implementation, Outcome, ProviderError
from sofia.providers.github import ci, gh
from sofia.providers.github.targets import resolve

POLL_ENV = "SOFIA_GH_POLL_SECONDS"
"""Seconds between two `gh run view` polls (default 8; tests shorten it): a setting."""
EXIT_TIMEOUT = 124


_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$")


def parse_duration(value: str) -> float:
    """Seconds in `90`, `90s`, `15m`, `1h30m`; ValueError for anything else or zero."""
    text = value.strip().lower()
    if text.isdigit():
        seconds = int(text)
    else:
        match = _DURATION.match(text)
        if not text or not match:
            raise ValueError(f"invalid duration {value!r}: use seconds or 90s, 15m, 1h30m")
        hours, mins, secs = (int(part) if part else 0 for part in match.groups())
        seconds = hours * 3600 + mins * 60 + secs
    if seconds <= 0:
        raise ValueError(f"invalid duration {value!r}: must be longer than 0 s")
    return float(seconds)


class Params(ci.Params):
    """`sf github ci --watch`: the read-only tool's parameters plus how long to wait."""

    watch: Annotated[
        bool,
        Field(
            default=False,
            description="Wait for the newest run to complete, then show it; exit 0 success, 1 failure, 124 timeout.",
        ),
    ]
    timeout: Annotated[
        str,
        Field(default="15m", description="How long --watch waits (90s, 15m, 1h)."),
        Cli(metavar="DURATION"),
    ]

    @field_validator("timeout")
    @classmethod
    def _valid_timeout(cls, value: str) -> str:
        parse_duration(value)
        return value


def poll_interval() -> float:
    """`SOFIA_GH_POLL_SECONDS`, default 8; a bad value is a usage error."""
    seconds: float = settings.get(POLL_ENV)
    return seconds


def run(params: Params, ctx: Context) -> Outcome:
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
    timeout = parse_duration(params.timeout)
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


IMPLEMENTATION = Implementation(params=Params, run=run)
