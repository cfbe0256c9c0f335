"""Where transcripts are: the projects root, its sessions and their subagent files, and `since`.

A session is a top-level `<uuid>.jsonl` of a project directory. Subagent transcripts live in the
session's sidecar directory (`<uuid>/subagents/*.jsonl`) or, in older versions, at the project level
as `agent-*.jsonl` whose records carry the parent's `sessionId`. Discovery only stats files.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from sofia.errors import ArgumentError, param
from sofia.providers.cc.location import projects_root
from sofia.providers.contract import Context, ProviderError

AGENT_PREFIX = "agent-"
SUFFIX = ".jsonl"

_SINCE = re.compile(r"(\d+)([mhdw])")
_UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


@dataclass(frozen=True)
class TranscriptFile:
    """A transcript on disk as it was when listed (the cache keys on size and mtime_ns)."""

    path: str
    size: int
    mtime_ns: int

    @property
    def mtime(self) -> float:
        return self.mtime_ns / 1e9


@dataclass
class Session:
    """A main session file and the subagent files found for it."""

    full_id: str
    project_dir: str
    file: TranscriptFile
    agent_files: list[tuple[str, TranscriptFile]] = field(default_factory=list)
    """(agent id, file) pairs, sorted by agent id."""

    @property
    def short_id(self) -> str:
        return self.full_id[:8]


@dataclass
class Listing:
    """Every session under the root, newest first (mtime desc, then full id)."""

    root: Path
    sessions: list[Session]
    legacy_agents: list[tuple[str, str, TranscriptFile]]
    """(project dir, agent id, file) of project-level agent files, parent not yet known."""
    orphan_sidecars: list[str]
    """Sidecar subagent files whose session file is absent."""
    unreadable: list[str]


def resolve_root(projects_dir: str | None, ctx: Context) -> Path:
    """The projects root (`location.projects_root`, relative forms from the workspace); it must be a
    directory."""
    root = projects_root(projects_dir, ctx.root)
    if not root.is_dir():
        raise ProviderError(
            f"projects directory not found: {root}", f"set {param('projects_dir')} or $CC_PROJECTS_DIR"
        )
    return root


def parse_since(value: str) -> float | None:
    """Seconds of a `since` value such as `30m`, `24h`, `7d`, `2w` or `1h30m`; None when empty."""
    text = value.strip()
    if not text:
        return None
    groups = _SINCE.findall(text)
    if not groups or "".join(n + u for n, u in groups) != text:
        raise ArgumentError(f'invalid {param("since")} "{value}": use e.g. 30m, 24h, 7d')
    return float(sum(int(n) * _UNIT_SECONDS[u] for n, u in groups))


def stat_file(path: str) -> TranscriptFile:
    info = os.stat(path)
    return TranscriptFile(path, info.st_size, info.st_mtime_ns)


def list_sessions(root: Path) -> Listing:
    """Stat every transcript under `root` (project directories are not followed through symlinks)."""
    sessions: dict[str, Session] = {}
    legacy: list[tuple[str, str, TranscriptFile]] = []
    sidecars: list[tuple[str, str, str, TranscriptFile]] = []
    unreadable: list[str] = []
    try:
        projects = [e for e in os.scandir(root) if e.is_dir(follow_symlinks=False)]
    except OSError:
        projects = []
        unreadable.append(str(root))
    for project in sorted(projects, key=lambda e: e.name):
        try:
            entries = sorted(os.scandir(project.path), key=lambda e: e.name)
        except OSError:
            unreadable.append(project.path)
            continue
        for entry in entries:
            if entry.name.endswith(SUFFIX):
                found = _stat_transcript(entry.path, unreadable)
                if found is None:
                    continue
                stem = entry.name[: -len(SUFFIX)]
                if stem.startswith(AGENT_PREFIX):
                    legacy.append((project.name, stem[len(AGENT_PREFIX) :], found))
                else:
                    sessions[entry.path] = Session(stem, project.name, found)
            elif entry.is_dir(follow_symlinks=False):
                sidecars.extend(
                    (project.name, entry.name, agent, file)
                    for agent, file in _subagent_files(Path(entry.path) / "subagents", unreadable)
                )
    by_id = {(s.project_dir, s.full_id): s for s in sessions.values()}
    orphans: list[str] = []
    for project_dir, stem, agent, file in sidecars:
        parent = by_id.get((project_dir, stem))
        if parent is None:
            orphans.append(file.path)
        else:
            parent.agent_files.append((agent, file))
    for session in sessions.values():
        session.agent_files.sort(key=lambda pair: (pair[0], pair[1].path))
    ordered = sorted(sessions.values(), key=lambda s: (-s.file.mtime_ns, s.full_id, s.file.path))
    return Listing(root, ordered, legacy, orphans, unreadable)


def session_from_path(path: Path) -> Session:
    """A session named by its file path: its subagents are looked up beside it."""
    found = stat_file(str(path))
    stem = path.name[: -len(SUFFIX)] if path.name.endswith(SUFFIX) else path.name
    session = Session(stem, path.parent.name, found)
    session.agent_files = _subagent_files(path.parent / stem / "subagents", [])
    return session


def legacy_agents_in(directory: Path) -> list[tuple[str, TranscriptFile]]:
    """(agent id, file) of the project-level agent files in `directory`."""
    out: list[tuple[str, TranscriptFile]] = []
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return out
    for entry in entries:
        if entry.name.startswith(AGENT_PREFIX) and entry.name.endswith(SUFFIX):
            found = _stat_transcript(entry.path, [])
            if found is not None:
                out.append((entry.name[len(AGENT_PREFIX) : -len(SUFFIX)], found))
    return out


def _subagent_files(directory: Path, unreadable: list[str]) -> list[tuple[str, TranscriptFile]]:
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except FileNotFoundError:
        return []
    except OSError:
        unreadable.append(str(directory))
        return []
    out = []
    for entry in entries:
        if entry.name.endswith(SUFFIX):
            found = _stat_transcript(entry.path, unreadable)
            if found is not None:
                stem = entry.name[: -len(SUFFIX)]
                out.append((stem.removeprefix(AGENT_PREFIX), found))
    return out


def _stat_transcript(path: str, unreadable: list[str]) -> TranscriptFile | None:
    """The file's stat, None for directories; a file that cannot be stat'ed is unreadable."""
    try:
        info = os.stat(path)
    except OSError:
        unreadable.append(path)
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return TranscriptFile(path, info.st_size, info.st_mtime_ns)


def peek(path: str, max_lines: int = 64) -> tuple[str, str]:
    """(first cwd, first sessionId) from the head of a transcript, without reading it all."""
    import orjson

    cwd = session_id = ""
    try:
        with open(path, "rb") as handle:
            for _ in range(max_lines):
                line = handle.readline()
                if not line:
                    break
                try:
                    record = orjson.loads(line.removeprefix(b"\xef\xbb\xbf"))
                except orjson.JSONDecodeError:
                    continue
                if type(record) is not dict:
                    continue
                if not cwd and type(record.get("cwd")) is str:
                    cwd = record["cwd"]
                if not session_id and type(record.get("sessionId")) is str:
                    session_id = record["sessionId"]
                if cwd and session_id:
                    break
    except OSError:
        pass
    return cwd, session_id
