"""`github_pr`: every open pull request the user authored, was asked to review, or that sits on the
user's own public repositories, with CI and review rollup and the action it needs, in two gh calls."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import Field

from sofia.errors import param
from sofia.output import budget
from sofia.output.redact import Redactor
from sofia.providers.contract import Context, Implementation
from sofia.providers.github import gh
from sofia.providers.params import Input

QUERY = """\
query($limit: Int!, $authored: String!, $review: String!, $owned: String!) {
  authored: search(query: $authored, type: ISSUE, first: $limit) { issueCount nodes { ...pr } }
  review: search(query: $review, type: ISSUE, first: $limit) { issueCount nodes { ...pr } }
  owned: search(query: $owned, type: ISSUE, first: $limit) { issueCount nodes { ...pr } }
}
fragment pr on PullRequest {
  number title url isDraft reviewDecision updatedAt
  repository { nameWithOwner isFork }
  commits(last: 1) { nodes { commit { statusCheckRollup { state } } } }
}"""

SEARCHES = (
    ("authored", "author", "is:open is:pr author:@me archived:false"),
    ("review", "reviewer", "is:open is:pr review-requested:@me archived:false"),
    ("owned", "owner", "is:open is:pr is:public archived:false user:{login}"),
)
"""(GraphQL alias, role, search) in precedence order: a PR keeps the first role that found it."""

REVIEW = {"APPROVED": "approved", "CHANGES_REQUESTED": "changes", "REVIEW_REQUIRED": "required"}
CI_STATES = ("success", "failure", "error", "pending", "expected")
ACTION_ORDER = {"fix-ci": 0, "address-review": 0, "review": 0, "merge": 1, "wait": 2, "none": 3}


class Params(Input):
    """Input of `github_pr`."""

    limit: Annotated[
        int,
        Field(
            default=30,
            ge=1,
            le=100,
            description="Results per search (authored, review-requested, on your own public repositories).",
        ),
    ]


def run(params: Params, ctx: Context) -> dict[str, Any]:
    login = gh.viewer_login(ctx)
    args = ["api", "graphql", "-f", f"query={QUERY}", "-F", f"limit={params.limit}"]
    for alias, _role, search in SEARCHES:
        args += ["-f", f"{alias}={search.format(login=login)}"]
    doc = gh.run_json(args, ctx, subcommand="api graphql", timeout=30)
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, dict):
        raise gh.unexpected("api graphql", str(doc))
    redactor = Redactor()
    rows: dict[str, dict[str, Any]] = {}
    notes: list[str] = []
    for alias, role, _search in SEARCHES:
        connection = data.get(alias)
        if not isinstance(connection, dict):
            raise gh.unexpected("api graphql", f"no {alias} search in the response")
        total = gh.integer(connection.get("issueCount"))
        if total > params.limit:
            notes.append(
                f"{alias}: {total} open PRs, the first {params.limit} shown; raise {param('limit')} to see more"
            )
        for node in connection.get("nodes") or []:
            row = pr_row(node, role, redactor)
            if row is not None:
                rows.setdefault(f"{row['repo']}#{row['number']}", row)
    prs = sorted(rows.values(), key=lambda r: (ACTION_ORDER[r["action"]], r["repo"], r["number"]))
    summary = {"total": len(prs), "action_needed": sum(ACTION_ORDER[r["action"]] == 0 for r in prs)}
    pattern, odd = url_pattern(prs)
    if odd:
        shown = " ".join(odd[:3]) + (f" (+{len(odd) - 3} more)" if len(odd) > 3 else "")
        notes.append(f"PR URLs not of the form pr_url gives: {shown}")
    for row in prs:
        del row["url"]
    result = {"viewer": login, "pr_url": pattern, "prs": prs, "summary": summary, "notes": notes}
    budget.keep_prefix(result, "prs", ctx.budget, "pull requests", f"lower {param('limit')}")
    budget.add_floor_note(result, ctx.budget)
    return result


def url_pattern(prs: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """The URL every row's PR has (`https://github.com/{repo}/pull/{number}`, the host taken from
    the rows, so GitHub Enterprise hosts work too) and the URLs that do not follow it.

    Written once instead of once per row: it is a third of a row's tokens and says nothing the
    repository and number do not.
    """
    host = "https://github.com"
    for row in prs:
        parts = urlsplit(row["url"])
        if parts.scheme and parts.netloc:
            host = f"{parts.scheme}://{parts.netloc}"
            break
    odd = [row["url"] for row in prs if row["url"] != f"{host}/{row['repo']}/pull/{row['number']}"]
    return host + "/{repo}/pull/{number}", odd


def pr_row(node: Any, role: str, redactor: Redactor) -> dict[str, Any] | None:
    """One PR row; None for search hits that are not pull requests and forks in the owned set."""
    if not isinstance(node, dict):
        return None
    repository = node.get("repository")
    if not isinstance(repository, dict) or not gh.text(repository.get("nameWithOwner")):
        return None
    if role == "owner" and repository.get("isFork") is True:
        return None
    ci = rollup(node)
    review = REVIEW.get(gh.text(node.get("reviewDecision")), "none")
    draft = node.get("isDraft") is True
    return {
        "repo": gh.text(repository.get("nameWithOwner")),
        "number": gh.integer(node.get("number")),
        "title": redactor(gh.text(node.get("title"))),
        "role": role,
        "draft": draft,
        "ci": ci,
        "review": review,
        "action": action(role, draft, ci, review),
        "updated": gh.minutes(gh.text(node.get("updatedAt"))),
        "url": gh.text(node.get("url")),
    }


def rollup(node: dict[str, Any]) -> str:
    """The head commit's combined check state, lower-cased; `none` without commits or checks."""
    commits = node.get("commits")
    nodes = commits.get("nodes") if isinstance(commits, dict) else None
    if not isinstance(nodes, list) or not nodes or not isinstance(nodes[-1], dict):
        return "none"
    commit = nodes[-1].get("commit")
    checks = commit.get("statusCheckRollup") if isinstance(commit, dict) else None
    state = gh.text(checks.get("state")).lower() if isinstance(checks, dict) else ""
    return state if state in CI_STATES else "none"


def action(role: str, draft: bool, ci: str, review: str) -> str:
    """What the PR needs from the user, by the first rule that applies."""
    if ci in ("failure", "error") and role in ("author", "owner"):
        return "fix-ci"
    if review == "changes" and role == "author":
        return "address-review"
    if role == "reviewer":
        return "review"
    if not draft and ci in ("success", "none") and review in ("approved", "none"):
        return "merge"
    if ci in ("pending", "expected"):
        return "wait"
    return "none"


IMPLEMENTATION = Implementation(params=Params, run=run)
