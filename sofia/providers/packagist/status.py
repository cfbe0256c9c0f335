"""`packagist_status`: per package, whether its latest stable tag is pushed to `origin` and published
on Packagist — which packages still need a push or a Packagist update — in one table.

Local tags come from git; `git ls-remote` asks origin once per repository; p2 documents are fetched
8 at a time. Everything runs inside one whole-call budget: whatever has not answered by then is
reported `unknown`, never waited for.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from sofia.providers.composer import discovery, fitting, versions
from sofia.providers.composer import manifest as manifests
from sofia.providers.composer.params import PackageFilter, TreeRoot
from sofia.providers.contract import Cli, Context, Implementation
from sofia.providers.packagist import client, remote
from sofia.providers.params import CallBudget, Input

FETCHES_AT_ONCE = 8
DRIFT_STATES = ("no-tags", "unpublished", "needs-update", "local-stale")
NEXT_STEP = {
    "no-tags": "no-tags: no stable version tag yet; tag a release (sf packagist release PACKAGE VERSION --dry-run)",
    "unpublished": "unpublished: Packagist does not know the package; submit it at https://packagist.org/packages/submit",
    "needs-update": "needs-update: trigger a Packagist update (sf packagist release --dry-run shows the steps)",
    "local-stale": "local-stale: Packagist has a newer version than the local tags; run git fetch --tags",
    "unknown": "unknown: Packagist or origin did not answer in time or answered with an error; retry later",
    "skip-net": "skip-net: offline, so neither origin nor Packagist was asked; drop offline to compare",
}


class Params(Input):
    package: PackageFilter = ""
    root: TreeRoot = "."
    offline: Annotated[
        bool,
        Field(description="Local tags only: no Packagist request and no git ls-remote."),
        Cli(flag="--offline"),
    ] = False
    budget_s: Annotated[
        int,
        Field(
            ge=5,
            le=300,
            description="Whole-call limit in seconds; whatever has not answered by then is unknown.",
        ),
        Cli(flag="--budget", metavar="SECONDS"),
        CallBudget(),
    ] = 45


def run(params: Params, ctx: Context) -> dict[str, Any]:
    deadline = time.monotonic() + params.budget_s
    if ctx.deadline is not None:
        deadline = min(deadline, ctx.deadline)
    root = discovery.resolve_root(params.root, ctx)
    found = discovery.discover(root, ctx)
    packages = discovery.select(found, params.package)
    if params.package and not packages:
        raise discovery.no_match(params.package, params.root, found)
    local = found.versions(ctx) if packages else {}
    notes: list[str] = []
    if params.offline:
        rows = [_row(p, _local_tag(p, local), "skip", "", "skip-net") for p in packages]
    else:
        rows = _online_rows(packages, local, deadline, notes)
        if any(row["state"] == "unknown" for row in rows) and time.monotonic() >= deadline:
            notes.append(f"budget_s={params.budget_s} ran out: unanswered probes are reported unknown")
    broken = discovery.select_errors(found, params.package)
    if broken:
        notes.append(
            f"unreadable composer.json, not listed: {' '.join(e.dir for e in broken[:3])}"
            f"{' …' if len(broken) > 3 else ''} (sf composer ls shows why)"
        )
    states = {row["state"] for row in rows}
    notes[:0] = [text for state, text in NEXT_STEP.items() if state in states]
    if any(row["pushed"] == "no" for row in rows):
        notes.append("pushed=no: the local tag is not on origin yet; push it (git push origin TAG)")
    result: dict[str, Any] = {
        "root": params.root,
        "packages": rows,
        "summary": {
            "in_sync": sum(row["state"] == "in-sync" for row in rows),
            "drift": sum(row["state"] in DRIFT_STATES for row in rows),
            "unknown": sum(row["state"] == "unknown" for row in rows),
        },
        "notes": notes,
        "omitted": {},
    }
    fitting.drop_trailing(result, "packages", ctx.budget, "packages", "narrow with package or root")
    fitting.floor_note(result, ctx.budget)
    return result


def _online_rows(
    packages: list[discovery.Package],
    local: dict[Path, str],
    deadline: float,
    notes: list[str],
) -> list[dict[str, str]]:
    repos = list(dict.fromkeys(p.repo for p in packages if p.repo is not None and local.get(p.repo)))
    names = list(dict.fromkeys(p.name for p in packages if manifests.valid_name(p.name)))
    invalid = sorted({p.name for p in packages if p.name and not manifests.valid_name(p.name)})
    if invalid:
        notes.append(f"not looked up on Packagist (not a valid Composer package name): {' '.join(invalid)}")
    probes = ThreadPoolExecutor(max_workers=max(1, min(discovery.PROBES_AT_ONCE, len(repos))))
    fetches = ThreadPoolExecutor(max_workers=max(1, min(FETCHES_AT_ONCE, len(names))))
    p2 = client.P2Client(deadline)
    try:
        pushed_futures = {
            repo: probes.submit(remote.remote_tags, repo, _left(deadline, remote.LS_REMOTE_TIMEOUT))
            for repo in repos
        }
        fetch_futures = {name: fetches.submit(p2.fetch, name) for name in names}
        pending: list[Future[Any]] = [*pushed_futures.values(), *fetch_futures.values()]
        wait(pending, timeout=max(0.0, deadline - time.monotonic()) + 0.5)
        rows = []
        for package in packages:
            tag = _local_tag(package, local)
            pushed = _pushed(tag, pushed_futures.get(package.repo) if package.repo else None)
            fetched = _done(fetch_futures.get(package.name))
            packagist = versions.highest_stable(fetched.versions or []) if fetched else ""
            rows.append(_row(package, tag, pushed, packagist, _state(package, tag, fetched, packagist)))
        return rows
    finally:
        probes.shutdown(wait=False, cancel_futures=True)
        fetches.shutdown(wait=False, cancel_futures=True)
        p2.close()


def _left(deadline: float, wanted: float) -> float:
    return max(0.05, min(wanted, deadline - time.monotonic()))


def _done(future: Future[client.Fetched] | None) -> client.Fetched | None:
    if future is None or not future.done() or future.cancelled() or future.exception() is not None:
        return None
    return future.result()


def _pushed(tag: str, future: Future[remote.RemoteTags] | None) -> str:
    if not tag:
        return "skip"
    if future is None or not future.done() or future.cancelled() or future.exception() is not None:
        return "unknown"
    answer = future.result()
    if not answer.ok:
        return "unknown"
    return "yes" if tag in answer.tags else "no"


def _state(package: discovery.Package, tag: str, fetched: client.Fetched | None, packagist: str) -> str:
    if not tag:
        return "no-tags"
    if not manifests.valid_name(package.name):
        return "unpublished"
    if fetched is None or fetched.error:
        return "unknown"
    if not fetched.published:
        return "unpublished"
    if not packagist:
        return "needs-update"
    order = versions.compare(packagist, tag)
    return "in-sync" if order == 0 else "needs-update" if order < 0 else "local-stale"


def _local_tag(package: discovery.Package, local: dict[Path, str]) -> str:
    return local.get(package.repo, "") if package.repo else ""


def _row(package: discovery.Package, tag: str, pushed: str, packagist: str, state: str) -> dict[str, str]:
    return {
        "name": package.name,
        "dir": package.dir,
        "local_tag": tag,
        "pushed": pushed,
        "packagist": packagist,
        "state": state,
    }


IMPLEMENTATION = Implementation(params=Params, run=run)
