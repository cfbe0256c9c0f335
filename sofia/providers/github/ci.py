"""`github_ci`: the latest GitHub Actions runs of a repository, or the latest run of every package
repository under a tree, failing first, with failed jobs and steps and a short log tail each."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from sofia.errors import param
from sofia.output import budget
from sofia.output.redact import Redactor
from sofia.providers.composer import PACKAGE_PATH
from sofia.providers.contract import Cli, Context, Implementation, ProviderError
from sofia.providers.github import gh, logs
from sofia.providers.github.targets import Target, resolve
from sofia.providers.params import Input, PathParam

RUN_FIELDS = "databaseId,workflowName,status,conclusion,headBranch,event,displayTitle,createdAt,url"
"""The `--json` fields of `gh run list` and `gh run view` that a run row is built from."""

LOG_RUNS = 3
"""Failing runs per call whose failed steps get log tails (each is one `--log-failed` download)."""
LOG_BYTES = 1 << 20
"""Only the last MiB of a `--log-failed` output is read."""
TREE_WORKERS = 6
OK_CONCLUSIONS = ("success", "skipped", "neutral")
FAILED_STEP_CONCLUSIONS = ("failure", "timed_out", "startup_failure")
STATE_ORDER = {"fail": 0, "error": 1, "running": 2, "fixed": 3, "ok": 4}


class Params(Input):
    """Input of `github_ci`."""

    package: Annotated[
        str,
        Field(
            default="",
            description=(
                "Package (name, name suffix, directory name) or directory under root; empty = root itself."
            ),
        ),
        Cli(positional=True, metavar="PACKAGE"),
        PACKAGE_PATH,
    ]
    root: Annotated[
        str,
        Field(
            default=".",
            description="A git repository (latest runs) or a tree of package repositories (latest run of each).",
        ),
        PathParam(),
    ]
    limit: Annotated[int, Field(default=5, ge=1, le=100, description="Runs listed for a single repository.")]
    log_lines: Annotated[
        int,
        Field(
            default=20,
            ge=0,
            le=100,
            description="Log tail lines per failed step (first 3 failing runs); 0 = no log download.",
        ),
    ]


@dataclass
class Run:
    """One workflow run row, plus where to ask gh about it again."""

    package: str
    id: int
    workflow: str
    state: str
    status: str
    conclusion: str
    branch: str
    event: str
    title: str
    created: str
    url: str
    repo: Path = field(repr=False)
    created_raw: str = field(default="", repr=False)

    def row(self) -> dict[str, Any]:
        return {
            "package": self.package,
            "id": self.id,
            "workflow": self.workflow,
            "state": self.state,
            "status": self.status,
            "conclusion": self.conclusion,
            "branch": self.branch,
            "event": self.event,
            "title": self.title,
            "created": self.created,
            "url": self.url,
        }


@dataclass
class Failure:
    run_id: int
    job: str
    step: str
    tail: list[str] = field(default_factory=list)


@dataclass
class Report:
    """Everything a github_ci result is assembled from, before the budget is applied."""

    mode: str
    repo_dir: str
    runs: list[Run]
    failures: list[Failure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    redactor: Redactor = field(default_factory=Redactor)


def run(params: Params, ctx: Context) -> dict[str, Any]:
    target = resolve(params.root, params.package, ctx)
    redactor = Redactor()
    if target.mode == "repository":
        assert target.repo is not None
        runs = [to_run(item, "", target.repo, redactor) for item in list_runs(target.repo, params.limit, ctx)]
        report = Report("repository", target.repo_dir, classify(runs), redactor=redactor)
    else:
        report = tree_report(target, ctx, redactor)
    add_failures(report, params.log_lines, ctx)
    return assemble(report, params.log_lines, ctx.budget)


def list_runs(repo: Path, limit: int, ctx: Context) -> list[dict[str, Any]]:
    """`gh run list` in `repo`, newest first, as gh's JSON objects."""
    items = gh.run_json(
        ["run", "list", "--limit", str(limit), "--json", RUN_FIELDS],
        ctx,
        subcommand="run list",
        timeout=20,
        cwd=repo,
    )
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise gh.unexpected("run list", str(items))
    return items


def view_run(run_id: int, repo: Path, ctx: Context) -> dict[str, Any]:
    """`gh run view ID` with the run fields: one run's current state."""
    item = gh.run_json(
        ["run", "view", str(run_id), "--json", RUN_FIELDS],
        ctx,
        subcommand="run view",
        timeout=20,
        cwd=repo,
    )
    if not isinstance(item, dict):
        raise gh.unexpected("run view", str(item))
    return item


def to_run(item: dict[str, Any], package: str, repo: Path, redactor: Redactor) -> Run:
    status = gh.text(item.get("status"))
    conclusion = gh.text(item.get("conclusion"))
    created = gh.text(item.get("createdAt"))
    return Run(
        package=package,
        id=gh.integer(item.get("databaseId")),
        workflow=gh.text(item.get("workflowName")),
        state=run_state(status, conclusion),
        status=status,
        conclusion=conclusion,
        branch=gh.text(item.get("headBranch")),
        event=gh.text(item.get("event")),
        title=redactor(gh.text(item.get("displayTitle"))),
        created=gh.minutes(created),
        url=gh.text(item.get("url")),
        repo=repo,
        created_raw=created,
    )


def run_state(status: str, conclusion: str) -> str:
    """`ok`, `fail` or `running` from gh's status and conclusion (`fixed` needs the other runs)."""
    if status != "completed":
        return "running"
    return "ok" if conclusion in OK_CONCLUSIONS else "fail"


def _created_key(run: Run) -> tuple[float, int]:
    parsed = gh.parse_time(run.created_raw)
    return (parsed.timestamp() if parsed else 0.0, run.id)


def classify(runs: list[Run]) -> list[Run]:
    """Mark failures followed by a newer success of the same workflow and branch `fixed`; sort."""
    for failed in runs:
        if failed.state != "fail":
            continue
        if any(
            other.conclusion == "success"
            and other.workflow == failed.workflow
            and other.branch == failed.branch
            and _created_key(other) > _created_key(failed)
            for other in runs
        ):
            failed.state = "fixed"
    return sorted(runs, key=lambda r: (STATE_ORDER[r.state], -_created_key(r)[0], r.id))


def tree_report(target: Target, ctx: Context, redactor: Redactor) -> Report:
    """The latest run of every package repository, probed six at a time."""

    def probe(label_repo: tuple[str, Path]) -> tuple[str, Path, list[dict[str, Any]] | ProviderError]:
        label, repo = label_repo
        try:
            return label, repo, list_runs(repo, 1, ctx)
        except gh.GhUnavailable:
            raise
        except ProviderError as exc:
            return label, repo, exc

    with ThreadPoolExecutor(max_workers=TREE_WORKERS) as pool:
        probed = list(pool.map(probe, target.repos))
    runs: list[Run] = []
    notes: list[str] = []
    without_runs: list[str] = []
    for label, repo, outcome in probed:
        if isinstance(outcome, ProviderError):
            runs.append(Run(label, 0, "", "error", "", "", "", "", "", "", "", repo))
            notes.append(f"{label}: {outcome.message}")
        elif outcome:
            runs.append(to_run(outcome[0], label, repo, redactor))
        else:
            without_runs.append(label)
    if without_runs:
        notes.append(f"no workflow runs: {' '.join(without_runs)}")
    notes.extend(target.notes)
    runs.sort(key=lambda r: (STATE_ORDER[r.state], r.package, r.id))
    return Report("tree", target.repo_dir, runs, notes=notes, redactor=redactor)


def add_failures(report: Report, log_lines: int, ctx: Context) -> None:
    """Failed jobs and steps of every `fail` run, with log tails for the first LOG_RUNS of them."""
    failing = [r for r in report.runs if r.state == "fail"]
    with_logs = {r.id for r in failing[:LOG_RUNS]} if log_lines > 0 else set()

    def details(failed: Run) -> tuple[list[Failure], list[str]]:
        notes: list[str] = []
        try:
            failures = failed_steps(failed, ctx, report.redactor)
        except ProviderError as exc:
            return [], [f"run {failed.id}: jobs unavailable: {exc.message}"]
        if failed.id in with_logs and failures:
            try:
                log = gh.run(
                    ["run", "view", str(failed.id), "--log-failed"],
                    ctx,
                    subcommand="run view",
                    timeout=30,
                    cwd=failed.repo,
                    keep_last_bytes=LOG_BYTES,
                )
            except ProviderError as exc:
                notes.append(f"run {failed.id}: log unavailable: {exc.message}")
            else:
                lines = logs.step_lines(log, log_lines)
                for failure in failures:
                    tail = logs.tail_for(lines, failure.job, failure.step)
                    failure.tail = report.redactor("\n".join(tail)).split("\n") if tail else []
        return failures, notes

    with ThreadPoolExecutor(max_workers=TREE_WORKERS) as pool:
        for failures, notes in pool.map(details, failing):
            report.failures.extend(failures)
            report.notes.extend(notes)


def failed_steps(failed: Run, ctx: Context, redactor: Redactor) -> list[Failure]:
    """Failed jobs of a run and their failed steps (`gh run view ID --json jobs`)."""
    doc = gh.run_json(
        ["run", "view", str(failed.id), "--json", "jobs"],
        ctx,
        subcommand="run view",
        timeout=20,
        cwd=failed.repo,
    )
    jobs = doc.get("jobs") if isinstance(doc, dict) else None
    if not isinstance(jobs, list):
        raise gh.unexpected("run view", str(doc))
    failures: list[Failure] = []
    for job in jobs:
        if not isinstance(job, dict) or gh.text(job.get("conclusion")) not in FAILED_STEP_CONCLUSIONS:
            continue
        name = redactor(gh.text(job.get("name")))
        steps = [s for s in job.get("steps") or [] if isinstance(s, dict)]
        bad = sorted(
            (s for s in steps if gh.text(s.get("conclusion")) in FAILED_STEP_CONCLUSIONS),
            key=lambda s: gh.integer(s.get("number")),
        )
        if bad:
            failures.extend(Failure(failed.id, name, redactor(gh.text(s.get("name")))) for s in bad)
        else:
            failures.append(Failure(failed.id, name, ""))
    return failures


def summary(runs: list[Run]) -> dict[str, int]:
    counts = dict.fromkeys(("fail", "fixed", "running", "ok", "error"), 0)
    for r in runs:
        counts[r.state] += 1
    return counts


def assemble(report: Report, log_lines: int, limit: int | None) -> dict[str, Any]:
    """The result document, shortened along the ladder: tails to 5 lines → no tails → failure rows → run rows."""
    hint = f"narrow with {param('package')}, {param('limit')} or {param('log_lines')}"
    counts = summary(report.runs)
    runs = [r.row() for r in report.runs]

    def build(knobs: budget.Knobs) -> dict[str, Any]:
        lines, kept_failures, kept_runs = knobs["lines"], knobs["failures"], knobs["runs"]
        notes = list(report.notes)
        cut = sum(len(f.tail) > lines for f in report.failures[:kept_failures])
        if lines < log_lines and cut:
            change = budget.texts_cut(cut, lines, "lines", noun="log tail")
            notes.append(budget.shortened_note("log_tail", change, limit, hint))
        if kept_failures < len(report.failures):
            notes.append(
                budget.note("failures", kept_failures, len(report.failures), "failure rows", limit, hint)
            )
        if kept_runs < len(runs):
            notes.append(budget.note("runs", kept_runs, len(runs), "runs", limit, hint))
        failures = [
            {"run_id": f.run_id, "job": f.job, "step": f.step, "log_tail": logs.render(f.tail, lines)}
            for f in report.failures[:kept_failures]
        ]
        result = {
            "mode": report.mode,
            "repo_dir": report.repo_dir,
            "runs": runs[:kept_runs],
            "failures": failures,
            "summary": counts,
            "redactions": report.redactor.total,
            "notes": notes,
        }
        omitted = {"failures": len(report.failures) - kept_failures, "runs": len(runs) - kept_runs}
        return budget.with_omitted(result, omitted)

    ladder: list[budget.Step] = [
        budget.Lower({"lines": 5}),
        budget.Lower({"lines": 0}),
        budget.Shrink("failures"),
        budget.Shrink("runs"),
    ]
    knobs = {"lines": log_lines, "failures": len(report.failures), "runs": len(runs)}
    return budget.fit(build, knobs, ladder, limit)


IMPLEMENTATION = Implementation(params=Params, run=run)
