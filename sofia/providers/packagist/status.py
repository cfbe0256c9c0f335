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
from typing import Annotated, Any, TypeVar

from pydantic import Field

from sofia.errors import param, quote
from sofia.output import budget
from sofia.providers import composer
from sofia.providers.composer import PackageFilter, TreeRoot
from sofia.providers.contract import Cli, Context, Implementation
from sofia.providers.packagist import client, remote
from sofia.providers.params import CallBudget, Input
from sofia.runtime import paths

FETCHES_AT_ONCE = 8
DRIFT_STATES = ("no-tags", "unpublished", "needs-update", "local-stale")
NEXT_STEP = {
    "no-tags": "no-tags: no stable version tag yet; tag a release (sf packagist release PACKAGE VERSION --dry-run)",
    "unpublished": "unpublished: Packagist does not know the package; submit it at https://packagist.org/packages/submit",
    "needs-update": "needs-update: trigger a Packagist update (sf packagist release --dry-run shows the steps)",
    "local-stale": "local-stale: Packagist has a newer version than the local tags; run git fetch --tags",
    "unknown": "unknown: Packagist's version could not be read; the cause column says why, its note how to fix it",
    "skip-net": f"skip-net: offline, so neither origin nor Packagist was asked; drop {param('offline')} to compare",
}
"""One note per state present: what it means and the next step."""

FIX = {
    "origin-missing": "add it (git remote add origin URL)",
    "origin-unreachable": (
        "check origin's URL (git remote get-url origin), the network and your git credentials"
    ),
    "origin-timeout": "check the network and origin's host, then retry",
    "packagist-dns": (
        "check the network and DNS, or point SOFIA_PACKAGIST_URL at a reachable mirror; "
        f"{param('offline', True)} skips Packagist"
    ),
    "packagist-refused": "nothing listens there: check SOFIA_PACKAGIST_URL (unset, it is https://repo.packagist.org)",
    "packagist-timeout": f"the server is slow or unreachable: retry later, or raise {param('budget_s')}",
    "packagist-tls": (
        "check the system's CA certificates (SSL_CERT_FILE) and any TLS-intercepting proxy, "
        "or an http:// SOFIA_PACKAGIST_URL that should be https:// (or the reverse)"
    ),
    "packagist-http-5": "Packagist's side failed (3 attempts made): retry later",
    "packagist-http-429": "rate limited (3 attempts made): retry later",
    "packagist-http-4": "refused by the server: check SOFIA_PACKAGIST_URL, or a proxy's access rules",
    "packagist-invalid": (
        "the answer is no p2 document: check that SOFIA_PACKAGIST_URL serves Composer metadata, else retry later"
    ),
    "packagist-network": "check the network, then retry",
    "budget": f"raise {param('budget_s')}, or narrow with {param('package')}",
}
"""How to fix each cause (`packagist-http-5` covers every 5xx status, `packagist-http-4` the other 4xx)."""
DETAILS_SHOWN = 3
"""Distinct details (git's messages, hosts) named per cause; the rest are counted."""


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
    root = composer.resolve_root(params.root, ctx)
    found = composer.discover(root, ctx)
    packages = composer.select(found, params.package)
    if params.package and not packages:
        raise composer.no_match(params.package, params.root, found)
    local = found.versions(ctx) if packages else {}
    notes: list[str] = []
    causes: dict[str, list[str]] = {}
    if params.offline:
        rows = [_row(p, _local_tag(p, local), "skip", "", "skip-net", "") for p in packages]
    else:
        rows = _online_rows(packages, local, deadline, notes, causes, ctx.root)
    states = {row["state"] for row in rows}
    notes[:0] = [text for state, text in NEXT_STEP.items() if state in states]
    notes.extend(_cause_note(cause, details, params.budget_s) for cause, details in sorted(causes.items()))
    if any(row["pushed"] == "no" for row in rows):
        notes.append("pushed=no: the local tag is not on origin yet; push it (git push origin TAG)")
    notes.extend(composer.unusable_manifests_note(composer.select_errors(found, params.package), ctx.root))
    result: dict[str, Any] = {
        "root": params.root,
        "packages": rows,
        "summary": {
            "in_sync": sum(row["state"] == "in-sync" for row in rows),
            "drift": sum(row["state"] in DRIFT_STATES for row in rows),
            "unknown": sum(row["state"] == "unknown" for row in rows),
        },
        "notes": notes,
    }
    budget.keep_prefix(
        result, "packages", ctx.budget, "packages", f"narrow with {param('package')} or {param('root')}"
    )
    budget.add_floor_note(result, ctx.budget)
    return result


def _online_rows(
    packages: list[composer.Package],
    local: dict[Path, str],
    deadline: float,
    notes: list[str],
    causes: dict[str, list[str]],
    workspace: Path,
) -> list[dict[str, str]]:
    """Rows with origin's and Packagist's answers; each failure's cause and detail go to `causes`
    (a repository's problem once, named by its path relative to `workspace`)."""
    repos = list(dict.fromkeys(p.repo for p in packages if p.repo is not None and local.get(p.repo)))
    names = list(dict.fromkeys(p.name for p in packages if composer.valid_name(p.name)))
    invalid = sorted({p.name for p in packages if p.name and not composer.valid_name(p.name)})
    if invalid:
        notes.append(f"not looked up on Packagist (not a valid Composer package name): {' '.join(invalid)}")
    probes = ThreadPoolExecutor(max_workers=max(1, min(composer.PROBES_AT_ONCE, len(repos))))
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
            answer = _done(pushed_futures.get(package.repo)) if package.repo else None
            pushed, origin_cause = _pushed(tag, package, answer, causes, workspace)
            fetched = _done(fetch_futures.get(package.name))
            packagist = composer.highest_stable(fetched.versions or []) if fetched else ""
            state = _state(package, tag, fetched, packagist)
            packagist_cause = _packagist_cause(state, fetched, p2.base, causes)
            cause = " ".join(dict.fromkeys(c for c in (origin_cause, packagist_cause) if c))
            rows.append(_row(package, tag, pushed, packagist, state, cause))
        return rows
    finally:
        probes.shutdown(wait=False, cancel_futures=True)
        fetches.shutdown(wait=False, cancel_futures=True)
        p2.close()


def _left(deadline: float, wanted: float) -> float:
    return max(0.05, min(wanted, deadline - time.monotonic()))


T = TypeVar("T")


def _done(future: Future[T] | None) -> T | None:
    """The future's result when it finished in time and without raising, else None."""
    if future is None or not future.done() or future.cancelled() or future.exception() is not None:
        return None
    return future.result()


def _pushed(
    tag: str,
    package: composer.Package,
    answer: remote.RemoteTags | None,
    causes: dict[str, list[str]],
    workspace: Path,
) -> tuple[str, str]:
    """`pushed` (`yes`, `no`, `unknown`, `skip`) and, when unknown, its cause."""
    if not tag or package.repo is None:
        return "skip", ""
    if answer is None:
        return "unknown", _record(causes, "budget", "origin")
    if not answer.ok:
        where = paths.shown(package.repo, workspace)
        return "unknown", _record(causes, answer.cause, f"{where}: {answer.detail or answer.error}")
    return ("yes" if tag in answer.tags else "no"), ""


def _packagist_cause(
    state: str, fetched: client.Fetched | None, base: str, causes: dict[str, list[str]]
) -> str:
    if state != "unknown":
        return ""
    if fetched is None or fetched.cause == "budget":
        return _record(causes, "budget", "Packagist")
    cause = fetched.cause or "packagist-network"
    named = cause in ("packagist-dns", "packagist-refused", "packagist-tls")
    return _record(causes, cause, fetched.error if named else f"{fetched.error} from {base}")


def _record(causes: dict[str, list[str]], cause: str, detail: str) -> str:
    """Remember `detail` under `cause` (once) and return the cause."""
    details = causes.setdefault(cause, [])
    if detail not in details:
        details.append(detail)
    return cause


def _cause_note(cause: str, details: list[str], budget_s: int) -> str:
    """`<cause>: <what happened, up to 3 distinct details>; <how to fix it>`."""
    if cause == "budget":
        what = f"budget_s={budget_s} ran out before {' and '.join(sorted(details))} answered"
    else:
        shown = "; ".join(quote(detail) for detail in details[:DETAILS_SHOWN])
        more = f" (+{len(details) - DETAILS_SHOWN} more)" if len(details) > DETAILS_SHOWN else ""
        what = shown + more
    return f"{cause}: {what}; {_fix(cause)}"


def _fix(cause: str) -> str:
    if cause in FIX:
        return FIX[cause]
    status = cause.removeprefix("packagist-http-")
    if status.startswith("5"):
        return FIX["packagist-http-5"]
    return FIX["packagist-http-4"]


def _state(package: composer.Package, tag: str, fetched: client.Fetched | None, packagist: str) -> str:
    if not tag:
        return "no-tags"
    if not composer.valid_name(package.name):
        return "unpublished"
    if fetched is None or fetched.error:
        return "unknown"
    if not fetched.published:
        return "unpublished"
    if not packagist:
        return "needs-update"
    order = composer.compare_versions(packagist, tag)
    return "in-sync" if order == 0 else "needs-update" if order < 0 else "local-stale"


def _local_tag(package: composer.Package, local: dict[Path, str]) -> str:
    return local.get(package.repo, "") if package.repo else ""


def _row(
    package: composer.Package, tag: str, pushed: str, packagist: str, state: str, cause: str
) -> dict[str, str]:
    return {
        "name": package.name,
        "dir": package.dir,
        "local_tag": tag,
        "pushed": pushed,
        "packagist": packagist,
        "state": state,
        "cause": cause,
    }


IMPLEMENTATION = Implementation(params=Params, run=run)
