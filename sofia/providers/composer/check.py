"""`composer_check`: run every package's own check script (tests, PHPStan, code style) and collapse
its output into one row per package with the first meaningful failure.

This executes project code. Checks run `jobs` at a time in package order, each in its own process
group under a per-package timeout, all of them inside one whole-call budget; a timeout kills the
whole process tree of that check.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from sofia.errors import ArgumentError, param
from sofia.output import budget, tables
from sofia.providers.composer import discovery, failures
from sofia.providers.composer import manifest as manifests
from sofia.providers.composer.params import PackageFilter, TreeRoot
from sofia.providers.contract import Cli, Context, Implementation, ProviderError
from sofia.providers.params import CallBudget, Input
from sofia.runtime import proc

STATUS_ORDER = ("fail", "timeout", "error", "skip", "ok")
FAILURE_LIMIT = 200
BUDGET_FAILURE_LIMIT = 100
NO_EXIT_STATUS = -1
"""`exit_code` of a check that has no exit status of its own (killed on timeout, never started)."""

UNSTARTED = {"budget": "budget exhausted", "deadline": "call deadline reached"}

COMPOSER_ENV = {
    "COMPOSER_NO_INTERACTION": "1",
    "COMPOSER_PROCESS_TIMEOUT": "0",
    "NO_COLOR": "1",
    "GIT_TERMINAL_PROMPT": "0",
}
"""`COMPOSER_PROCESS_TIMEOUT=0`: our per-package timeout is the only limit (Composer's own is 300 s)."""


def composer_missing() -> ProviderError:
    """A fresh error each time: a shared instance would collect every raise's traceback."""
    return ProviderError("composer not found on PATH: install Composer (https://getcomposer.org/download/)")


def php_missing() -> ProviderError:
    return ProviderError("php not found on PATH: install the PHP CLI (Composer needs it)")


def default_jobs() -> int:
    return min(4, os.cpu_count() or 1)


class Params(Input):
    package: PackageFilter = ""
    root: TreeRoot = "."
    script: Annotated[
        str,
        Field(min_length=1, description="Composer script to run in each package (house convention: check)."),
        Cli(flag="--script", metavar="NAME"),
    ] = "check"
    jobs: Annotated[
        int | None,
        Field(ge=1, le=16, description="Packages checked in parallel, 1-16 (default: min(4, CPUs))."),
        Cli(flag="--jobs", metavar="N"),
    ] = None
    timeout_s: Annotated[
        int,
        Field(
            ge=1,
            description="Per-package limit in seconds; a check running longer is killed (status timeout).",
        ),
        Cli(flag="--timeout", metavar="SECONDS"),
    ] = 600
    budget_s: Annotated[
        int,
        Field(
            ge=1,
            description="Whole-call limit in seconds; running checks are then killed, unstarted ones skipped.",
        ),
        Cli(flag="--budget", metavar="SECONDS"),
        CallBudget(),
    ] = 1800


@dataclass
class _Outcome:
    status: str
    exit_code: int = 0
    duration_ms: int = 0
    failed_step: str = ""
    first_failure: str = ""
    cut_short: str = ""
    """`budget` or `deadline` when the whole-call limit, not the package's own timeout, stopped it."""


def run(params: Params, ctx: Context) -> dict[str, Any]:
    if params.script.startswith("-"):
        raise ArgumentError(
            f"invalid script name: {params.script}", "pass the name of a composer script, e.g. check"
        )
    if params.package.startswith("-"):
        raise ArgumentError(f"invalid package: {params.package}", "pass a package name or directory name")
    root = discovery.resolve_root(params.root, ctx)
    found = discovery.discover(root, ctx)
    selected = discovery.select(found, params.package)
    broken = discovery.select_errors(found, params.package)
    if params.package and not selected and not broken:
        raise discovery.no_match(params.package, params.root, found)
    env = proc.environment(add=COMPOSER_ENV)
    require_tools(env.get("PATH", os.defpath))

    started = time.monotonic()
    budget_end = started + params.budget_s
    rows: list[dict[str, Any]] = []
    total = len(selected) + len(broken)
    finished = 0
    outcomes: list[tuple[discovery.Package, _Outcome]] = []

    def report(label: str, outcome: _Outcome) -> None:
        nonlocal finished
        finished += 1
        ctx.progress(finished, total, f"{label} {outcome.status} {outcome.duration_ms / 1000:.1f}s")

    for error in broken:
        outcome = _Outcome("error", NO_EXIT_STATUS, first_failure=f"composer.json: {error.error}")
        rows.append(_row("", error.dir, outcome))
        report(error.dir, outcome)

    runner = _Runner(params, env, budget_end, ctx)
    if selected:
        with ThreadPoolExecutor(max_workers=min(params.jobs or default_jobs(), len(selected))) as pool:
            futures = {pool.submit(runner.check, package): package for package in selected}
            for future in as_completed(futures):
                package = futures[future]
                outcome = future.result()
                outcomes.append((package, outcome))
                rows.append(_row(package.name, package.dir, outcome))
                report(package.label, outcome)

    rows.sort(key=lambda r: (STATUS_ORDER.index(r["status"]), r["package"], r["dir"]))
    whole: dict[str, Any] = {
        "root": params.root,
        "script": params.script,
        "wall_ms": round((time.monotonic() - started) * 1000),
        "summary": {
            status: sum(r["status"] == status for r in rows)
            for status in ("ok", "fail", "skip", "timeout", "error")
        },
        "results": rows,
        "notes": [
            *discovery.unusable_manifests_note(broken, ctx.root),
            *_notes(params, outcomes, total),
        ],
    }
    return _fit(whole, ctx.budget)


def require_tools(path: str) -> None:
    """Composer and the PHP CLI it runs on must both be reachable before anything starts."""
    if shutil.which("composer", path=path) is None:
        raise composer_missing()
    if shutil.which("php", path=path) is None:
        raise php_missing()


class _Runner:
    """Runs one package's check; shared state is read-only, so threads need no locking."""

    def __init__(self, params: Params, env: dict[str, str], budget_end: float, ctx: Context) -> None:
        self.params = params
        self.env = env
        self.budget_end = budget_end
        self.ctx = ctx

    def check(self, package: discovery.Package) -> _Outcome:
        script = self.params.script
        if script not in manifests.mapping(package.manifest, "scripts"):
            return _Outcome("skip", first_failure=f"no '{script}' script")
        limits = {"timeout": float(self.params.timeout_s), "budget": self.budget_end - time.monotonic()}
        deadline_left = self.ctx.time_left()
        if deadline_left is not None:
            limits["deadline"] = deadline_left
        cause = min(limits, key=lambda key: limits[key])
        limit = limits[cause]
        if limit <= 0:
            return _Outcome("skip", first_failure=UNSTARTED[cause], cut_short=cause)
        begin = time.monotonic()
        try:
            done = proc.run(
                ["composer", "run-script", "--no-interaction", script],
                cwd=package.path,
                env=self.env,
                timeout=limit,
            )
        except proc.ProgramTimeout:
            elapsed = self._elapsed(begin)
            reasons = {
                "timeout": f"killed after {self.params.timeout_s} s ({param('timeout_s')})",
                "budget": f"killed after {elapsed / 1000:.1f} s: budget of {self.params.budget_s} s exhausted",
                "deadline": f"killed after {elapsed / 1000:.1f} s: the call's deadline was reached",
            }
            cut_short = "" if cause == "timeout" else cause
            return _Outcome(
                "timeout", NO_EXIT_STATUS, elapsed, first_failure=reasons[cause], cut_short=cut_short
            )
        except OSError as exc:
            return _Outcome(
                "error", NO_EXIT_STATUS, self._elapsed(begin), first_failure=f"cannot start composer: {exc}"
            )
        elapsed = self._elapsed(begin)
        if done.returncode == 0:
            return _Outcome("ok", 0, elapsed)
        lines = failures.clean_lines(done.out + "\n" + done.err)
        if done.returncode < 0:
            name = _signal_name(-done.returncode)
            return _Outcome(
                "error", done.returncode, elapsed, failures.failed_step(lines), f"composer killed by {name}"
            )
        first = failures.first_failure(lines, str(package.path))
        return _Outcome(
            "fail", done.returncode, elapsed, failures.failed_step(lines), tables.cut(first, FAILURE_LIMIT)
        )

    def _elapsed(self, begin: float) -> int:
        return round((time.monotonic() - begin) * 1000)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _row(name: str, directory: str, outcome: _Outcome) -> dict[str, Any]:
    return {
        "package": name,
        "dir": directory,
        "status": outcome.status,
        "exit_code": outcome.exit_code,
        "duration_ms": outcome.duration_ms,
        "failed_step": outcome.failed_step,
        "first_failure": outcome.first_failure,
    }


def _notes(params: Params, outcomes: list[tuple[discovery.Package, _Outcome]], total: int) -> list[str]:
    notes: list[str] = []
    if total == 0:
        notes.append("no composer.json found under the root")
    for cause, limit in (("budget", f"budget of {params.budget_s} s"), ("deadline", "the call's deadline")):
        killed = sum(o.cut_short == cause and o.status == "timeout" for _, o in outcomes)
        unstarted = sum(o.cut_short == cause and o.status == "skip" for _, o in outcomes)
        if killed or unstarted:
            notes.append(
                f"{limit} exhausted (checks killed: {killed}, not started: {unstarted}); "
                f"raise {param('budget_s')} or check fewer packages"
            )
    timed_out = sum(o.status == "timeout" and not o.cut_short for _, o in outcomes)
    if timed_out:
        notes.append(
            f"checks killed at {param('timeout_s', params.timeout_s)}: {timed_out}; "
            f"raise {param('timeout_s')} if they are just slow"
        )
    missing = sum(o.status == "skip" and o.first_failure.startswith("no '") for _, o in outcomes)
    if missing and missing == len(outcomes):
        notes.append(f"no package defines a '{params.script}' script; pick another with {param('script')}")
    return notes


def _fit(whole: dict[str, Any], limit: int | None) -> dict[str, Any]:
    """Ladder: first_failure to 100 characters, then trailing `ok` rows (still counted in summary)."""
    rows = whole["results"]
    failing = sum(row["status"] != "ok" for row in rows)
    longest = max((len(row["first_failure"]) for row in rows), default=0)
    hint = f"narrow with {param('package')}"

    def build(knobs: budget.Knobs) -> dict[str, Any]:
        chars, kept = knobs["chars"], knobs["results"]
        notes = list(whole["notes"])
        cut = sum(len(row["first_failure"]) > chars for row in rows[:kept])
        if cut:
            notes.append(budget.shortened_note("first_failure", budget.texts_cut(cut, chars), limit, hint))
        if kept < len(rows):
            notes.append(
                budget.note(
                    "results",
                    kept,
                    len(rows),
                    "rows",
                    limit,
                    "passing rows go first (summary counts them); " + hint,
                )
            )
        shown = [{**row, "first_failure": tables.cut(row["first_failure"], chars)} for row in rows[:kept]]
        result = {**whole, "results": shown, "notes": notes}
        return budget.with_omitted(result, {"results": len(rows) - kept})

    ladder: list[budget.Step] = [
        budget.Lower({"chars": BUDGET_FAILURE_LIMIT}),
        budget.Shrink("results", floor=failing),
    ]
    return budget.fit(build, {"chars": longest, "results": len(rows)}, ladder, limit)


IMPLEMENTATION = Implementation(params=Params, run=run)
