"""The reader streams: a 500 MB transcript is digested in bounded memory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from tests.cc.corpus import write_session

SIZE = 500 * 1024 * 1024
LIMIT_MB = 150

SCRIPT = """
import sys
from pathlib import Path
import orjson
from sofia.providers.cc import show
from sofia.providers.contract import Context
result = show.run(show.Params(session=sys.argv[1]), Context(root=Path("/"), budget=20000))
# VmHWM is this process's own high-water mark; ru_maxrss would include the parent's at fork time
peak = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) // 1024
print(orjson.dumps({"peak_mb": peak, "messages": result["session"]["messages"],
                    "malformed": result["session"]["malformed_lines"], "size": result["session"]["size_bytes"]}).decode())
"""


def test_a_500_mb_transcript_stays_under_150_mb(tmp_path: Path) -> None:
    path = tmp_path / "-home-dev-big" / "b16b16b1-0000-4000-8000-000000000000.jsonl"
    written = write_session(path, SIZE, 11, path.stem, "/home/dev/big")
    try:
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(path)],
            capture_output=True,
            text=True,
            timeout=600,
            env={"SOFIA_CC_CACHE": "off", "PATH": "/usr/bin:/bin"},
        )
        assert done.returncode == 0, done.stderr
        report = orjson.loads(done.stdout)
        assert report["size"] == written >= SIZE
        assert report["malformed"] == 0
        assert report["messages"] > 10_000
        assert report["peak_mb"] < LIMIT_MB, report
    finally:
        path.unlink()
