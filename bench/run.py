"""Run the benchmarks (`bench/bench_*.py`, or the names given) one after another and print their
sections; each prints ratios measured side by side in one run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    wanted = set(argv)
    scripts = sorted(HERE.glob("bench_*.py"))
    if wanted:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in wanted or s.stem in wanted]
        if not scripts:
            print(f"no benchmark named {', '.join(sorted(wanted))}", file=sys.stderr)
            return 2
    failed = 0
    for script in scripts:
        done = subprocess.run([sys.executable, str(script)], check=False)
        failed += done.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
