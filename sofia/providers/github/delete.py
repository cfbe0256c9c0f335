"""`sf github branches --delete` (CLI only): delete the branches the report calls merged (and closed,
unless `--merged-only`), never the default branch, protected or moved branches, names matching a
keep pattern, or names starting with `-`. Asks first unless `--yes`; the result lists what happened."""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Annotated, Any
from urllib.parse import quote

from pydantic import Field

from sofia.providers.contract import Cli, Context, Implementation, Outcome, ProviderError
from sofia.providers.github import branches, gh
from sofia.providers.github.branches import Branch


class Params(branches.Params):
    """`sf github branches --delete`: the report's parameters plus what to delete and whether to ask."""

    delete: Annotated[
        bool,
        Field(
            default=False,
            description="Delete merged and closed branches (never default, protected or moved ones) after confirmation.",
        ),
    ]
    merged_only: Annotated[
        bool,
        Field(default=False, description="With --delete: delete merged branches only, keep closed ones."),
    ]
    keep: Annotated[
        list[str],
        Field(
            default_factory=lambda: ["wt/*"],
            description="With --delete: never delete branches matching PATTERN.",
        ),
        Cli(metavar="PATTERN"),
    ]
    yes: Annotated[
        bool, Field(default=False, description="With --delete: do not ask (required without a terminal).")
    ]


def run(params: Params, ctx: Context) -> Outcome:
    """The report first, exactly as `github_branches` makes it, then the deletions it allows."""
    owner, found, notes = branches.report(params, ctx)
    result = branches.fitted(branches.assemble(owner, found, notes), ctx.budget)
    return delete(result, found, params, ctx)


def keep_reason(branch: Branch, params: Params) -> str:
    """Why a merged or closed branch stays, or "" when it may go."""
    if branch.verdict == "closed" and params.merged_only:
        return "closed, --merged-only"
    if branch.protected:
        return "protected"
    if branch.moved:
        return "moved since its pull request"
    if branch.branch.startswith("-"):
        return "name starts with -"
    for pattern in params.keep:
        if fnmatchcase(branch.branch, pattern):
            return f"matches {pattern}"
    return ""


def ref_path(repo: str, branch: str) -> str:
    """`repos/OWNER/REPO/git/refs/heads/BRANCH` with every path segment URL-encoded."""
    segments = [*repo.split("/"), "git", "refs", "heads", *branch.split("/")]
    return "/".join(quote(segment, safe="") for segment in ["repos", *segments])


def delete(result: dict[str, Any], found: list[Branch], params: Params, ctx: Context) -> Outcome:
    planned: list[Branch] = []
    kept: list[dict[str, str]] = []
    for branch in found:
        if branch.verdict not in ("merged", "closed"):
            continue
        reason = keep_reason(branch, params)
        if reason:
            kept.append({"repo": branch.repo, "branch": branch.branch, "reason": reason})
        else:
            planned.append(branch)
    deleted: list[dict[str, str]] = []
    failed: list[dict[str, str]] = []
    notes = list(result["notes"])
    exit_code = 0
    if planned and not params.yes and not ctx.confirm(plan_question(planned)):
        kept.extend({"repo": b.repo, "branch": b.branch, "reason": "not confirmed"} for b in planned)
        notes.append(
            f"nothing deleted: {len(planned)} deletions were not confirmed (without a terminal pass --yes)"
        )
        planned, exit_code = [], 1
    for done, branch in enumerate(planned, 1):
        try:
            gh.run(
                ["api", "-X", "DELETE", ref_path(branch.repo, branch.branch)],
                ctx,
                subcommand="api DELETE",
                timeout=15,
            )
        except ProviderError as exc:
            failed.append({"repo": branch.repo, "branch": branch.branch, "error": exc.message})
        else:
            deleted.append({"repo": branch.repo, "branch": branch.branch})
        ctx.progress(done, len(planned), f"{branch.repo} {branch.branch}")
    if failed:
        notes.append(f"{len(failed)} of {len(planned)} deletions failed; see deletion.failed")
        exit_code = 1
    document = {
        "owner": result["owner"],
        "branches": result["branches"],
        "summary": result["summary"],
        "deletion": {"deleted": deleted, "kept": kept, "failed": failed},
        "notes": notes,
    }
    if "omitted" in result:
        document["omitted"] = result["omitted"]
    return Outcome(document, exit_code)


def plan_question(planned: list[Branch]) -> str:
    lines = [f"  {b.repo} {b.branch} ({b.verdict} #{b.pr}, {b.age_days} days)" for b in planned]
    noun = "branch" if len(planned) == 1 else "branches"
    return "\n".join(["Branches to delete:", *lines, f"Delete {len(planned)} {noun}?"])


IMPLEMENTATION = Implementation(params=Params, run=run)
