"""Start-up: `sf --help` and `sf changed` against a bare interpreter, side by side in one run.

Target: `sf --help` within 4× of `python -c pass`.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from harness import median_seconds, ratio, section, sf_command, table


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        (repo / "a.py").write_text("def f():\n    return 1\n")
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
        subprocess.run(
            ["git", "-C", str(repo), "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "one"],
            check=True,
        )
        (repo / "a.py").write_text("def f():\n    return 2\n")

        def timed(args: list[str]) -> float:
            return median_seconds(
                lambda: subprocess.run(args, cwd=repo, capture_output=True, stdin=subprocess.DEVNULL),
                repeat=21,
            )

        bare = timed([sys.executable, "-c", "pass"])
        rows = []
        for label, args in (
            ("sf --help", sf_command("--help")),
            ("sf --version", sf_command("--version")),
            ("sf changed (1 modified file)", sf_command("changed")),
            ("sf changed --json", sf_command("changed", "--json")),
            ("git diff (same repo)", ["git", "diff"]),
        ):
            seconds = timed(args)
            rows.append((label, f"{seconds * 1000:.1f} ms", ratio(seconds, bare)))
        rows.insert(0, ("python -c pass", f"{bare * 1000:.1f} ms", "1.00×"))
    section(
        "Start-up",
        table(("command", "median wall (21 runs)", "vs python -c pass"), rows)
        + "\n\nTarget: `sf --help` within 4× of bare interpreter start-up.",
        "python bench/run.py startup",
    )


if __name__ == "__main__":
    main()
