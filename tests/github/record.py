"""Refresh the fake gh's recordings from the real gh (run by hand; GitHub must be reachable).

    python tests/github/record.py --repo ~/src/api --run 9123 --scrub my-org=acme --scrub me=dev

runs every gh command sofia uses (docs/github.md, "The gh commands") (the run list and run view vectors in `--repo`, the
viewer login, and the two GraphQL documents) with the argument vectors sofia builds, replaces each
`--scrub OLD=NEW` text, and writes the files the tests replay into tests/github/recordings/ (or
`--out`). Review the diff for secrets and personal data before committing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sofia.providers.github import branches, ci, pr


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repo", type=Path, required=True, help="a clone of a GitHub repository with runs")
    parser.add_argument("--run", required=True, help="id of a failed run in that repository")
    parser.add_argument("--scrub", action="append", default=[], metavar="OLD=NEW")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "recordings")
    args = parser.parse_args(argv)
    scrubs = [tuple(item.split("=", 1)) for item in args.scrub]
    login = gh(["api", "user", "--jq", ".login"], None).strip()
    searches = [f"{alias}={search.format(login=login)}" for alias, _role, search in pr.SEARCHES]
    wanted = {
        "run_list_api.json": (["run", "list", "--limit", "5", "--json", ci.RUN_FIELDS], args.repo),
        f"run_view_jobs_{args.run}.json": (["run", "view", args.run, "--json", "jobs"], args.repo),
        f"run_view_log_failed_{args.run}.txt": (["run", "view", args.run, "--log-failed"], args.repo),
        "graphql_prs.json": (
            ["api", "graphql", "-f", f"query={pr.QUERY}", "-F", "limit=30"]
            + [part for search in searches for part in ("-f", search)],
            None,
        ),
        "graphql_branches.json": (
            ["api", "graphql", "-f", f"query={branches.QUERY}", "-f", f"login={login}", "-F", "refLimit=50"],
            None,
        ),
    }
    for name, (vector, cwd) in wanted.items():
        text = gh(vector, cwd)
        for old, new in scrubs:
            text = text.replace(old, new)
        (args.out / name).write_text(text, encoding="utf-8")
        print(f"wrote {args.out / name}")
    return 0


def gh(vector: list[str], cwd: Path | None) -> str:
    done = subprocess.run(["gh", *vector], cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SystemExit(f"gh {' '.join(vector[:3])} failed: {done.stderr.strip()}")
    return done.stdout


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
