"""Driving the fake `gh` from tests: record cases, put it first on PATH, read back the calls."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FAKE_DIR = HERE / "fake"
RECORDINGS = HERE / "recordings"

RUN_FIELDS = "databaseId,workflowName,status,conclusion,headBranch,event,displayTitle,createdAt,url"
AUTH_STDERR = (RECORDINGS / "auth_required.stderr").read_text()


def recording(name: str) -> Path:
    return RECORDINGS / name


def go_json(value: Any) -> str:
    """JSON the way gh's exporter prints it to a pipe: compact, keys sorted, no HTML escaping."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n"


class FakeGh:
    """The case table of one test, and the calls the fake received."""

    def __init__(self, workdir: Path, session_log: Path | None = None) -> None:
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.cases_path = workdir / "cases.json"
        self.log_path = workdir / "calls.jsonl"
        self.session_log = session_log
        self.cases: list[dict[str, Any]] = []
        self._save()

    def add(
        self,
        args: list[str],
        *responses: dict[str, Any],
        cwd: Path | None = None,
        stdout: str | None = None,
        stdout_file: str | Path | None = None,
        stderr: str = "",
        exit: int = 0,
        sleep: float = 0,
    ) -> None:
        """Record the answer to `gh <args>` (in `cwd`, if given); several `responses` play in turn."""
        if not responses:
            response: dict[str, Any] = {"stderr": stderr, "exit": exit, "sleep": sleep}
            if stdout_file is not None:
                path = Path(stdout_file)
                response["stdout_file"] = str(path if path.is_absolute() else RECORDINGS / path)
            else:
                response["stdout"] = stdout or ""
            responses = (response,)
        self.cases.append({"args": args, "cwd": str(cwd) if cwd else None, "responses": list(responses)})
        self._save()

    def _save(self) -> None:
        self.cases_path.write_text(json.dumps(self.cases))

    def env(self) -> dict[str, str]:
        """Environment for a subprocess (`sf`) that should meet this fake first on PATH."""
        return {
            "PATH": f"{FAKE_DIR}{os.pathsep}{os.environ.get('PATH', '')}",
            "FAKE_GH_CASES": str(self.cases_path),
            "FAKE_GH_LOG": str(self.log_path),
        }

    def calls(self) -> list[dict[str, Any]]:
        if not self.log_path.exists():
            return []
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line.strip()]

    def argvs(self) -> list[list[str]]:
        return [call["args"] for call in self.calls()]

    def flush_to_session(self) -> None:
        """Append this test's calls to the suite-wide log the argument test reads."""
        if self.session_log is not None and self.log_path.exists():
            with self.session_log.open("a", encoding="utf-8") as out:
                out.write(self.log_path.read_text())


def response(
    stdout: str = "", stdout_file: str | None = None, stderr: str = "", exit: int = 0, sleep: float = 0
) -> dict[str, Any]:
    """One response of a multi-response case."""
    out: dict[str, Any] = {"stderr": stderr, "exit": exit, "sleep": sleep}
    if stdout_file is not None:
        out["stdout_file"] = str(RECORDINGS / stdout_file)
    else:
        out["stdout"] = stdout
    return out
