"""Large, realistic Claude Code transcripts generated on demand (for the memory test and the benchmark).

The line mix follows real sessions: many small lines (prompts, split assistant responses repeating
their usage, short tool results), tool results of a few KB up to 200 KB (Read results also carry
the file again in `toolUseResult`), a rare multi-MB line, edit checkpoints, turn-duration records,
and subagent files beside some sessions. Everything is seeded, so a corpus is reproducible.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import orjson

_WORDS = [
    "func",
    "return",
    "ctx",
    "err",
    "nil",
    "if",
    "else",
    "for",
    "range",
    "select",
    "case",
    "package",
    "import",
    "type",
    "struct",
    "interface",
    "backoff",
    "retry",
    "client",
    "server",
    "handler",
    "request",
    "response",
    "deadline",
    "cancel",
    "timeout",
    "test",
    "assert",
    "want",
    "got",
]
_FOREIGN = ["значение", "ошибка", "контекст", "日本語", "données", "résumé"]
"""Non-ASCII words: a comment in every few dozen lines, as in real code and prompts."""
_TOOLS = ("Read", "Bash", "Grep", "Edit", "Glob", "Write", "TodoWrite")
_COMMANDS = (
    "go test ./...",
    "git status",
    "git diff --stat",
    "npm run build",
    "rg -n backoff internal/",
    "cat go.mod",
    "ls -la internal/http",
    "make lint",
    "docker compose ps",
)


class _Text:
    """A pool of source-like text to slice tool results and prompts from (cheap to produce)."""

    def __init__(self, rng: random.Random) -> None:
        lines = []
        for n in range(4000):
            words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 14)))
            if rng.random() < 0.02:
                words += " // " + rng.choice(_FOREIGN)
            lines.append(f'{n:5d}\t\t{words} := "{rng.randint(0, 99999)}" // {rng.choice(_WORDS)}')
        self.text = "\n".join(lines)

    def take(self, rng: random.Random, size: int) -> str:
        if size >= len(self.text):
            return (self.text * (size // len(self.text) + 1))[:size]
        start = rng.randrange(0, len(self.text) - size)
        return self.text[start : start + size]


def _result_size(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.55:
        return rng.randint(40, 1500)
    if roll < 0.88:
        return rng.randint(1500, 12000)
    if roll < 0.995:
        return rng.randint(12000, 200_000)
    return rng.randint(1_000_000, 3_000_000)


class _Writer:
    def __init__(
        self, handle: Any, rng: random.Random, text: _Text, session_id: str, cwd: str, agent: str
    ) -> None:
        self.handle = handle
        self.rng = rng
        self.text = text
        self.session_id = session_id
        self.cwd = cwd
        self.agent = agent
        self.count = 0
        self.written = 0
        self.clock = 1772000000.0 + rng.randint(0, 3_000_000)
        self.injections = random.Random(session_id)
        """Its own stream, so adding injected messages leaves the rest of a corpus unchanged."""

    def _stamp(self) -> str:
        self.clock += self.rng.uniform(0.2, 20)
        whole = int(self.clock)
        millis = int((self.clock - whole) * 1000)
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{millis:03d}Z"

    def _emit(self, record: dict[str, Any]) -> None:
        data = orjson.dumps(record) + b"\n"
        self.handle.write(data)
        self.written += len(data)

    def _envelope(self, kind: str) -> dict[str, Any]:
        self.count += 1
        record = {
            "parentUuid": f"u{self.count - 1}",
            "isSidechain": bool(self.agent),
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": "2.0.31",
            "gitBranch": "main",
            "type": kind,
        }
        if self.agent:
            record["agentId"] = self.agent
        return record

    def turn(self) -> None:
        rng = self.rng
        if rng.random() < 0.15:
            self._emit(
                {
                    "type": "file-history-snapshot",
                    "messageId": f"u{self.count}",
                    "snapshot": {"trackedFileBackups": {"a.go": {"backupFileName": "x@v1", "version": 1}}},
                    "isSnapshotUpdate": False,
                }
            )
        if rng.random() < 0.06:
            user = self._envelope("user")
            user["message"] = {"role": "user", "content": self.text.take(rng, rng.randint(20, 600))}
            user["uuid"] = f"u{self.count}"
            user["timestamp"] = self._stamp()
            self._emit(user)
        message_id = f"msg_{self.session_id[:8]}{self.count:07d}"
        usage = {
            "input_tokens": rng.randint(1, 20),
            "cache_creation_input_tokens": rng.randint(0, 3000),
            "cache_read_input_tokens": rng.randint(5000, 90000),
            "output_tokens": rng.randint(10, 900),
            "service_tier": "standard",
        }
        calls = []
        blocks: list[dict[str, Any]] = [
            {"type": "thinking", "thinking": self.text.take(rng, rng.randint(50, 800)), "signature": "c2ln"},
            {"type": "text", "text": self.text.take(rng, rng.randint(20, 300))},
        ]
        for n in range(rng.choice((1, 1, 1, 2, 3))):
            tool = rng.choice(_TOOLS)
            tool_id = f"toolu_{self.session_id[:8]}{self.count:07d}{n}"
            path = f"{self.cwd}/internal/pkg{rng.randint(0, 40)}/file{rng.randint(0, 9)}.go"
            tool_input: dict[str, Any] = {"file_path": path}
            if tool == "Bash":
                tool_input = {"command": rng.choice(_COMMANDS), "description": "run it"}
            elif tool in ("Grep", "Glob"):
                tool_input = {"pattern": rng.choice(_WORDS), "path": "internal"}
            elif tool == "TodoWrite":
                tool_input = {"todos": [{"content": "step", "status": "pending", "activeForm": "doing"}]}
            blocks.append({"type": "tool_use", "id": tool_id, "name": tool, "input": tool_input})
            calls.append((tool_id, tool, path))
        request = f"req_{self.session_id[:8]}{self.count:07d}"
        for block in blocks:
            assistant = self._envelope("assistant")
            assistant["message"] = {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5-20250929",
                "content": [block],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": usage,
            }
            assistant["requestId"] = request
            assistant["uuid"] = f"u{self.count}"
            assistant["timestamp"] = self._stamp()
            self._emit(assistant)
        for tool_id, tool, path in calls:
            content = self.text.take(rng, _result_size(rng))
            result = self._envelope("user")
            result["message"] = {
                "role": "user",
                "content": [{"tool_use_id": tool_id, "type": "tool_result", "content": content}],
            }
            result["uuid"] = f"u{self.count}"
            result["timestamp"] = self._stamp()
            if tool == "Read":
                result["toolUseResult"] = {"type": "text", "file": {"filePath": path, "content": content}}
            else:
                result["toolUseResult"] = {"stdout": content[:2000], "stderr": "", "interrupted": False}
            self._emit(result)
        self._inject()
        if rng.random() < 0.1:
            system = self._envelope("system")
            system.update(
                {"subtype": "turn_duration", "durationMs": rng.randint(1000, 90000), "uuid": f"u{self.count}"}
            )
            system["timestamp"] = self._stamp()
            self._emit(system)

    def _inject(self) -> None:
        """Now and then a message Claude Code writes itself, shaped as 2.1 writes it."""
        roll = self.injections.random()
        if roll >= 0.08:
            return
        record = self._envelope("user")
        record["uuid"] = f"u{self.count}"
        record["timestamp"] = self._stamp()
        if roll < 0.03:
            task = f"b{self.injections.getrandbits(28):07x}"
            output = f"/tmp/claude-1000/{self.cwd.replace('/', '-')}/tasks/{task}.output"
            content: Any = (
                f"<task-notification>\n<task-id>{task}</task-id>\n<output-file>{output}</output-file>\n"
                f"<status>completed</status>\n<summary>Background command completed (exit code 0)</summary>\n"
                f"</task-notification>\nRead the output file to retrieve the result: {output}"
            )
        elif roll < 0.05:
            record["isMeta"] = True
            content = [
                {
                    "type": "text",
                    "text": "<system-reminder>\nThe TodoWrite tool hasn't been used recently.\n</system-reminder>",
                }
            ]
        elif roll < 0.06:
            content = "<command-name>/context</command-name>\n<command-message>context</command-message>\n<command-args></command-args>"
        elif roll < 0.07:
            content = [{"type": "text", "text": "[Request interrupted by user for tool use]"}]
        else:
            content = "Stop hook feedback:\n[~/.claude/hooks/lint.sh]: lint is not clean yet."
        record["message"] = {"role": "user", "content": content}
        self._emit(record)


def write_session(
    path: Path, size: int, seed: int, session_id: str, cwd: str, agent: str = "", text: _Text | None = None
) -> int:
    """Write a transcript of at least `size` bytes to `path`; returns the bytes written."""
    rng = random.Random(seed)
    pool = text or _Text(random.Random(seed ^ 0x5EED))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb", buffering=1 << 20) as handle:
        writer = _Writer(handle, rng, pool, session_id, cwd, agent)
        while writer.written < size:
            writer.turn()
        return writer.written


def write_corpus(root: Path, sessions: int = 300, total: int = 250 * 1024 * 1024, seed: int = 7) -> int:
    """`sessions` sessions across a dozen projects, about `total` bytes, a fifth with subagent files."""
    rng = random.Random(seed)
    text = _Text(random.Random(seed))
    weights = [rng.lognormvariate(0, 1.1) for _ in range(sessions)]
    scale = total / sum(weights)
    written = 0
    for n, weight in enumerate(weights):
        project = f"-home-dev-src-project{n % 12:02d}"
        session_id = f"{rng.getrandbits(32):08x}-{n:04x}-4000-8000-{rng.getrandbits(48):012x}"
        cwd = f"/home/dev/src/project{n % 12:02d}"
        size = max(4096, int(weight * scale))
        main = root / project / f"{session_id}.jsonl"
        if rng.random() < 0.2:
            agent_size = size // 5
            size -= agent_size
            agent = f"{rng.getrandbits(32):08x}"
            written += write_session(
                root / project / session_id / "subagents" / f"agent-{agent}.jsonl",
                agent_size,
                rng.getrandbits(31),
                session_id,
                cwd,
                agent,
                text,
            )
        written += write_session(main, size, rng.getrandbits(31), session_id, cwd, "", text)
        stamp = 1772000000 + n * 600
        os.utime(main, (stamp, stamp))
    return written
