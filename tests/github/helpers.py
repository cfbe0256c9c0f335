"""Fixtures shared by the GitHub tests: repositories with a GitHub remote and gh-shaped run lists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sofia.providers.contract import Context
from sofia.providers.github import branches, pr
from tests.github.fakegh import RUN_FIELDS, FakeGh, go_json
from tests.helpers import Repo

NOW_2026_06_14 = 1781395200.0
"""2026-06-14T00:00:00Z as epoch seconds: the clock of the branch fixture."""


def github_repo(path: Path, name: str = "acme/api") -> Repo:
    """A real git repository whose origin is a GitHub URL, with one commit."""
    repo = Repo(path)
    repo.git("remote", "add", "origin", f"https://github.com/{name}.git")
    repo.write("README.md", f"# {name}\n")
    repo.commit("initial")
    return repo


VIEWER = ["api", "user", "--jq", ".login"]
"""How the tools ask gh who the user is."""


def branches_query(refs: int = 50, login: str = "dev") -> list[str]:
    """The GraphQL call of `github_branches` for `login`'s repositories."""
    return [
        "api",
        "graphql",
        "-f",
        f"query={branches.QUERY}",
        "-f",
        f"login={login}",
        "-F",
        f"refLimit={refs}",
    ]


def prs_query(limit: int = 30, login: str = "dev") -> list[str]:
    """The GraphQL call of `github_pr`: one search per role of `login`."""
    args = ["api", "graphql", "-f", f"query={pr.QUERY}", "-F", f"limit={limit}"]
    for alias, _role, search in pr.SEARCHES:
        args += ["-f", f"{alias}={search.format(login=login)}"]
    return args


def context(root: Path, budget: int | None = None, **kwargs: Any) -> Context:
    return Context(root=root, budget=budget, **kwargs)


def run_list_args(limit: int) -> list[str]:
    return ["run", "list", "--limit", str(limit), "--json", RUN_FIELDS]


def gh_run(
    run_id: int,
    conclusion: str = "failure",
    status: str = "completed",
    workflow: str = "CI",
    branch: str = "main",
    created: str = "2026-05-31T06:00:00Z",
    title: str = "Change",
    repo: str = "acme/api",
) -> dict[str, Any]:
    """One `gh run list --json` item, with exactly the keys gh exports for RUN_FIELDS."""
    return {
        "conclusion": conclusion,
        "createdAt": created,
        "databaseId": run_id,
        "displayTitle": title,
        "event": "push",
        "headBranch": branch,
        "status": status,
        "url": f"https://github.com/{repo}/actions/runs/{run_id}",
        "workflowName": workflow,
    }


def gh_jobs(job: str, step: str) -> str:
    """A `gh run view --json jobs` document with one failed job and step."""
    steps = [
        {"conclusion": "success", "name": "Set up job", "number": 1, "status": "completed"},
        {"conclusion": "failure", "name": step, "number": 2, "status": "completed"},
    ]
    return go_json(
        {
            "jobs": [
                {
                    "completedAt": "2026-05-31T06:02:00Z",
                    "conclusion": "failure",
                    "databaseId": 1,
                    "name": job,
                    "startedAt": "2026-05-31T06:00:00Z",
                    "status": "completed",
                    "steps": steps,
                    "url": "https://github.com/acme/api/actions/runs/1/job/1",
                }
            ]
        }
    )


def record_api_repo(fake: FakeGh, repo: Path, limit: int = 5) -> None:
    """The acme/api recordings: five runs (fail, running, fixed, ok, ok), jobs and log of the failure."""
    fake.add(run_list_args(limit), cwd=repo, stdout_file="run_list_api.json")
    fake.add(["run", "view", "9123", "--json", "jobs"], cwd=repo, stdout_file="run_view_jobs_9123.json")
    fake.add(["run", "view", "9123", "--log-failed"], cwd=repo, stdout_file="run_view_log_failed_9123.txt")
