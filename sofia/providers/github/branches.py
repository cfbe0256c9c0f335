"""`github_branches`: non-default branches across the user's own repositories with age, newest pull
request and a verdict (merged, closed, stale, no-pr, open), so finished branches can be cleaned up.
It only reports; `sf github branches --delete` (`delete.py`, CLI only) acts on the report."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from sofia.errors import param
from sofia.output import budget
from sofia.providers.contract import Cli, Context, Implementation, ProviderError
from sofia.providers.github import gh
from sofia.providers.params import Input

QUERY = """\
query($login: String!, $refLimit: Int!) {
  repositoryOwner(login: $login) {
    login
    repositories(first: 100, ownerAffiliations: OWNER, isFork: false, orderBy: {field: NAME, direction: ASC}) {
      pageInfo { hasNextPage }
      nodes {
        nameWithOwner
        isArchived
        defaultBranchRef { name }
        refs(refPrefix: "refs/heads/", first: $refLimit) {
          totalCount
          nodes {
            name
            branchProtectionRule { pattern }
            target { oid ... on Commit { committedDate } }
            associatedPullRequests(first: 1, orderBy: {field: UPDATED_AT, direction: DESC}) {
              nodes { number state headRefOid }
            }
          }
        }
      }
    }
  }
}"""

VERDICT_ORDER = {"merged": 0, "closed": 1, "stale": 2, "no-pr": 3, "open": 4}
_LOGIN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")
DAY = 86_400


class Params(Input):
    """Input of `github_branches`."""

    refs: Annotated[int, Field(default=50, ge=1, le=100, description="Branches inspected per repository.")]
    stale_days: Annotated[
        int,
        Field(
            default=90, ge=1, description="Age in days from which a branch without a pull request is stale."
        ),
    ]
    owner: Annotated[
        str,
        Field(default="", description="GitHub user or organisation whose repositories to scan; empty = you."),
        Cli(metavar="LOGIN"),
    ]


@dataclass(frozen=True)
class Branch:
    repo: str
    branch: str
    verdict: str
    pr: int
    age_days: int
    moved: bool
    protected: bool

    def row(self) -> dict[str, Any]:
        return {
            "repo": self.repo,
            "branch": self.branch,
            "verdict": self.verdict,
            "pr": self.pr,
            "age_days": self.age_days,
            "moved": self.moved,
            "protected": self.protected,
        }


def run(params: Params, ctx: Context) -> dict[str, Any]:
    owner, branches, notes = report(params, ctx)
    return fitted(assemble(owner, branches, notes), ctx.budget)


def fitted(result: dict[str, Any], limit: int | None) -> dict[str, Any]:
    """`result` with trailing branch rows (open ones first, as they sort last) left out to fit."""
    budget.keep_prefix(
        result, "branches", limit, "branches", f"pass {param('owner')} or lower {param('refs')}"
    )
    budget.add_floor_note(result, limit)
    return result


def report(params: Params, ctx: Context) -> tuple[str, list[Branch], list[str]]:
    """The owner's login, every non-default branch with its verdict, and notes on what was not fetched."""
    owner = params.owner
    if owner and not _LOGIN.match(owner):
        raise ProviderError(
            f"invalid owner {owner!r}", "pass a GitHub login: letters, digits and inner hyphens"
        )
    login = owner or gh.viewer_login(ctx)
    doc = gh.run_json(
        ["api", "graphql", "-f", f"query={QUERY}", "-f", f"login={login}", "-F", f"refLimit={params.refs}"],
        ctx,
        subcommand="api graphql",
        timeout=60,
    )
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, dict):
        raise gh.unexpected("api graphql", str(doc))
    holder = data.get("repositoryOwner")
    if not isinstance(holder, dict):
        raise ProviderError(f"no GitHub user or organisation named {login!r}", "check the owner's spelling")
    repositories = holder.get("repositories")
    if not isinstance(repositories, dict):
        raise gh.unexpected("api graphql", "no repositories in the response")
    now = ctx.clock()
    notes: list[str] = []
    if gh.obj(repositories.get("pageInfo")).get("hasNextPage") is True:
        notes.append(f"{login} has more than 100 repositories: only the first 100 by name were inspected")
    branches: list[Branch] = []
    crowded: list[str] = []
    for repo in repositories.get("nodes") or []:
        if not isinstance(repo, dict) or repo.get("isArchived") is True:
            continue
        default = repo.get("defaultBranchRef")
        if not isinstance(default, dict):
            continue
        name = gh.text(repo.get("nameWithOwner"))
        refs = gh.obj(repo.get("refs"))
        nodes = [n for n in refs.get("nodes") or [] if isinstance(n, dict)]
        if gh.integer(refs.get("totalCount")) > len(nodes):
            crowded.append(f"{name} ({gh.integer(refs.get('totalCount'))})")
        for ref in nodes:
            if gh.text(ref.get("name")) != gh.text(default.get("name")):
                branches.append(branch(name, ref, now, params.stale_days))
    if crowded:
        notes.append(
            f"more branches than {param('refs', params.refs)} in {', '.join(crowded)}; "
            f"raise {param('refs')} to inspect them"
        )
    branches.sort(key=lambda b: (VERDICT_ORDER[b.verdict], b.repo, b.branch))
    return login, branches, notes


def branch(repo: str, ref: dict[str, Any], now: float, stale_days: int) -> Branch:
    target = gh.obj(ref.get("target"))
    committed = gh.parse_time(gh.text(target.get("committedDate")))
    age = int((now - committed.timestamp()) // DAY) if committed else -1
    pulls = gh.obj(ref.get("associatedPullRequests"))
    nodes = [n for n in pulls.get("nodes") or [] if isinstance(n, dict)]
    pr = nodes[0] if nodes else {}
    state = gh.text(pr.get("state")).lower()
    if state in ("merged", "closed", "open"):
        verdict = state
    else:
        verdict = "stale" if age >= stale_days else "no-pr"
    head = gh.text(target.get("oid"))
    pr_head = gh.text(pr.get("headRefOid"))
    return Branch(
        repo=repo,
        branch=gh.text(ref.get("name")),
        verdict=verdict,
        pr=gh.integer(pr.get("number")),
        age_days=age,
        moved=bool(head and pr_head and head != pr_head),
        protected=isinstance(ref.get("branchProtectionRule"), dict),
    )


def assemble(owner: str, branches: list[Branch], notes: list[str]) -> dict[str, Any]:
    counts = {"merged": 0, "closed": 0, "stale": 0, "no_pr": 0, "open": 0}
    for b in branches:
        counts[b.verdict.replace("-", "_")] += 1
    return {
        "owner": owner,
        "branches": [b.row() for b in branches],
        "summary": counts,
        "notes": notes,
    }


IMPLEMENTATION = Implementation(params=Params, run=run)
