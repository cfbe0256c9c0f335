"""The per-transcript aggregate one pass of the reader produces, and how aggregates combine.

Everything here is already redacted (unless the caller asked otherwise) and plain data, so it can be
cached as JSON and merged across a session's subagent files without looking at the transcript again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Thread:
    """Activity of one bucket (the main thread, or all subagents together)."""

    tool_calls: dict[str, int] = field(default_factory=dict)
    result_tokens: dict[str, int] = field(default_factory=dict)
    usage: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """De-duplicated input, output, cache-read and cache-creation tokens."""
    commands: dict[str, int] = field(default_factory=dict)
    """Bash command text -> calls."""
    files: dict[str, list[int]] = field(default_factory=dict)
    """Path -> [reads, edits, writes]."""
    unattributed: int = 0
    """Result tokens whose tool call is not in the transcript (compaction, truncated files)."""

    def merge(self, other: Thread) -> None:
        for name, calls in other.tool_calls.items():
            self.tool_calls[name] = self.tool_calls.get(name, 0) + calls
        for name, tokens in other.result_tokens.items():
            self.result_tokens[name] = self.result_tokens.get(name, 0) + tokens
        self.usage = [a + b for a, b in zip(self.usage, other.usage, strict=True)]
        for command, calls in other.commands.items():
            self.commands[command] = self.commands.get(command, 0) + calls
        for path, touches in other.files.items():
            mine = self.files.setdefault(path, [0, 0, 0])
            for i in range(3):
                mine[i] += touches[i]
        self.unattributed += other.unattributed

    def to_json(self) -> dict[str, Any]:
        return {
            "tool_calls": self.tool_calls,
            "result_tokens": self.result_tokens,
            "usage": self.usage,
            "commands": self.commands,
            "files": self.files,
            "unattributed": self.unattributed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Thread:
        return cls(
            tool_calls=data["tool_calls"],
            result_tokens=data["result_tokens"],
            usage=data["usage"],
            commands=data["commands"],
            files=data["files"],
            unattributed=data["unattributed"],
        )


@dataclass
class Agent:
    """One subagent: a subagent file, or the inline sidechain records sharing an `agentId`."""

    task: str = ""
    tool_calls: int = 0
    output_tokens: int = 0

    def merge(self, other: Agent) -> None:
        self.task = self.task or other.task
        self.tool_calls += other.tool_calls
        self.output_tokens += other.output_tokens


@dataclass
class Digest:
    """What one transcript file contributes to every cc tool."""

    session_id: str = ""
    """The first `sessionId` in the file: the parent of a top-level agent file."""
    cwd: str = ""
    branch: str = ""
    version: str = ""
    model: str = ""
    title: str = ""
    start: float | None = None
    end: float | None = None
    malformed_lines: int = 0
    api_errors: int = 0
    messages: int = 0
    prompts_total: int = 0
    prompts: list[str] = field(default_factory=list)
    last_text: str = ""
    todos: list[list[str]] = field(default_factory=list)
    """[status, content] of the last TodoWrite call's items that are not completed."""
    prs: list[list[Any]] = field(default_factory=list)
    """[number, url], first-seen order."""
    fat_results: list[list[Any]] = field(default_factory=list)
    """[tokens, tool, brief], heaviest first, ties in order of appearance."""
    fat_total: int = 0
    main: Thread = field(default_factory=Thread)
    sub: Thread = field(default_factory=Thread)
    agents: dict[str, Agent] = field(default_factory=dict)
    redacted: dict[str, int] = field(default_factory=dict)
    """Stored string -> secrets replaced in it, for every string that had any."""
    injected: dict[str, int] = field(default_factory=dict)
    """Main-thread messages Claude Code wrote itself, by kind (see `classify`)."""
    malformed_at: list[int] = field(default_factory=list)
    """Line numbers of the first malformed lines (`malformed_lines` counts them all)."""
    unknown_types: dict[str, list[int]] = field(default_factory=dict)
    """Record type sofia does not read -> [records, first line]."""
    unknown_markup: dict[str, list[int]] = field(default_factory=dict)
    """Element name of user messages in markup sofia does not know -> [messages, first line]."""

    def absorb_agent_file(self, other: Digest) -> None:
        """Add a subagent file of this session: it only ever reaches the subagent bucket."""
        self.sub.merge(other.sub)
        for key, agent in other.agents.items():
            if key in self.agents:
                self.agents[key].merge(agent)
            else:
                self.agents[key] = Agent(agent.task, agent.tool_calls, agent.output_tokens)
        for text, count in other.redacted.items():
            self.redacted[text] = max(count, self.redacted.get(text, 0))

    def redactions_in(self, *texts: str) -> int:
        """Secrets replaced in the given stored strings (each occurrence counts)."""
        table = self.redacted
        if not table:
            return 0
        return sum(table.get(text, 0) for text in texts)

    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in _PLAIN}
        data["main"] = self.main.to_json()
        data["sub"] = self.sub.to_json()
        data["agents"] = {k: [a.task, a.tool_calls, a.output_tokens] for k, a in self.agents.items()}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Digest:
        digest = cls(**{name: data[name] for name in _PLAIN})
        digest.main = Thread.from_json(data["main"])
        digest.sub = Thread.from_json(data["sub"])
        digest.agents = {k: Agent(v[0], v[1], v[2]) for k, v in data["agents"].items()}
        return digest


_PLAIN = (
    "session_id",
    "cwd",
    "branch",
    "version",
    "model",
    "title",
    "start",
    "end",
    "malformed_lines",
    "api_errors",
    "messages",
    "prompts_total",
    "prompts",
    "last_text",
    "todos",
    "prs",
    "fat_results",
    "fat_total",
    "redacted",
    "injected",
    "malformed_at",
    "unknown_types",
    "unknown_markup",
)
