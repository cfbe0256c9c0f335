"""The GitHub tools (docs/github.md)."""

from __future__ import annotations

from typing import Any

from sofia.providers.shapes.common import NOTES, OMITTED

CI: dict[str, Any] = {
    "mode": "str",
    "repo_dir": "str",
    "runs": [
        {
            "package": "str",
            "id": "int",
            "workflow": "str",
            "state": "str",
            "status": "str",
            "conclusion": "str",
            "branch": "str",
            "event": "str",
            "title": "str",
            "created": "str",
            "url": "str",
        }
    ],
    "failures": [{"run_id": "int", "job": "str", "step": "str", "log_tail": "str"}],
    "summary": {"fail": "int", "fixed": "int", "running": "int", "ok": "int", "error": "int"},
    "redactions": "int",
    "notes": NOTES,
    "omitted?": OMITTED,
}
BRANCHES: dict[str, Any] = {
    "owner": "str",
    "branches": [
        {
            "repo": "str",
            "branch": "str",
            "verdict": "str",
            "pr": "int",
            "age_days": "int",
            "moved": "bool",
            "protected": "bool",
        }
    ],
    "summary": {"merged": "int", "closed": "int", "stale": "int", "no_pr": "int", "open": "int"},
    "notes": NOTES,
    "omitted?": OMITTED,
}
_BRANCH = {"repo": "str", "branch": "str"}

SHAPES = {
    "github_ci": CI,
    "github_ci_watch": CI,
    "github_pr": {
        "viewer": "str",
        "pr_url": "str",
        "prs": [
            {
                "repo": "str",
                "number": "int",
                "title": "str",
                "role": "str",
                "draft": "bool",
                "ci": "str",
                "review": "str",
                "action": "str",
                "updated": "str",
            }
        ],
        "summary": {"total": "int", "action_needed": "int"},
        "notes": NOTES,
        "omitted?": OMITTED,
    },
    "github_branches": BRANCHES,
    "github_branches_delete": {
        **BRANCHES,
        "deletion": {
            "deleted": [_BRANCH],
            "kept": [{**_BRANCH, "reason": "str"}],
            "failed": [{**_BRANCH, "error": "str"}],
        },
    },
}
