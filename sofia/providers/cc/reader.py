"""The streaming transcript reader: one pass over a JSONL file, constant memory whatever its size.

Lines are read in binary and decoded one at a time with orjson, then dropped once the aggregates
are updated; edit-checkpoint lines are skipped without decoding. Memory is bounded by the
aggregates (counters, capped lists, the usage keys, tool ids awaiting their result).
Redaction happens once per distinct string at the end, before anything is grouped or cut.
"""

from __future__ import annotations

import heapq
from typing import Any

import orjson

from sofia.output.redact import Redactor
from sofia.output.tokens import estimate
from sofia.providers.cc import classify, timefmt
from sofia.providers.cc.digest import Agent, Digest, Thread
from sofia.providers.cc.summarise import BRIEF_INPUT, FILE_TOUCH, MAX_PROMPTS, brief

PARSER_VERSION = 2
"""Bumped whenever a digest could change for the same file: caches key on it."""

KNOWN_TYPES = frozenset(
    (
        "user",
        "assistant",
        "system",
        "summary",
        "custom-title",
        "ai-title",
        "pr-link",
        "attachment",
        "queue-operation",
        "file-history-snapshot",
        "last-prompt",
        "progress",
        "mode",
        "permission-mode",
        "worktree-state",
        "agent-name",
        "agent-color",
        "agent_metadata",
        "tag",
        "atis-latch",
        "cost-state",
        "saved_hook_context",
    )
)
"""Record types Claude Code writes that the reader knows (most are bookkeeping it rightly skips);
any other type is counted and named in notes."""
HOOK_ATTACHMENTS = frozenset(("hook_additional_context", "hook_blocking_error"))
"""Attachments that put a hook's output in front of the model."""
LOCAL_COMMAND_KINDS = frozenset(
    (classify.SLASH_COMMAND, classify.COMMAND_OUTPUT, classify.CAVEAT, classify.BASH_MODE)
)
"""What a `system`/`local_command` record (a command run without the model) is counted as."""
PAIRING_LINES = 8
"""A queue `remove` and the attachment delivering the same text lie at most this many lines apart."""
NAMED_KEPT = 20
"""Distinct unknown record types / markup names remembered per file (the rest pooled)."""
NAME_CHARS = 80
SHOWN_LINES = 10
"""Malformed line numbers remembered per file (all are counted)."""

FAT_TOKENS = 1500
FAT_KEPT = 15
TODOS_KEPT = 50
INLINE_AGENT = "inline"
SYNTHETIC = "<synthetic>"

_SNAPSHOT = b'{"type":"file-history-snapshot"'
_TOOL_USE_RESULT = b',"toolUseResult":'
_READ_KEYS = tuple(
    (key, f'"{key}":'.encode())
    for key in (
        "type",
        "message",
        "timestamp",
        "cwd",
        "gitBranch",
        "version",
        "sessionId",
        "isSidechain",
        "isMeta",
        "isCompactSummary",
        "agentId",
        "requestId",
    )
)
"""Top-level fields the rules read on user and assistant records."""
_BUFFER = 1 << 16
_loads = orjson.loads
_DecodeError = orjson.JSONDecodeError
_BOM = b"\xef\xbb\xbf"
_USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def read_transcript(path: str, agent: str | None = None, redact: bool = True) -> Digest:
    """The digest of one transcript; `agent` names the subagent when the whole file is one.

    Raises OSError when the file cannot be read.
    """
    acc = _Accumulator(agent)
    add = acc.add
    with open(path, "rb", buffering=_BUFFER) as handle:
        first = handle.readline()
        if first.startswith(_BOM):
            first = first[len(_BOM) :]
        _take(first, acc)
        for number, line in enumerate(handle, 2):
            if line.startswith(_SNAPSHOT):
                continue
            try:
                record = _decode(line)
            except _DecodeError:
                if line.strip():
                    acc.bad(number)
                continue
            if type(record) is dict:
                add(record, number)
            else:
                acc.bad(number)
    return acc.finish(Redactor() if redact else None)


def _take(line: bytes, acc: _Accumulator) -> None:
    """One line outside the hot loop (the first, after its BOM)."""
    if not line or line.startswith(_SNAPSHOT):
        return
    try:
        record = _decode(line)
    except _DecodeError:
        if line.strip():
            acc.bad(1)
        return
    if type(record) is dict:
        acc.add(record, 1)
    else:
        acc.bad(1)


def _decode(line: bytes) -> Any:
    """The record, without decoding a trailing `toolUseResult` (a second copy of the tool output)
    when no field the rules read comes after it; anything unusual takes the full decode."""
    cut = line.find(_TOOL_USE_RESULT)
    if cut > 0:
        try:
            head = _loads(line[:cut] + b"}")
        except _DecodeError:
            head = None
        if type(head) is dict and not any(
            key not in head and line.find(pattern, cut) >= 0 for key, pattern in _READ_KEYS
        ):
            return head
    return _loads(line)


def result_tokens(content: Any) -> int:
    """Estimated tokens of a tool result: its string content, or its text blocks each ending a line."""
    if type(content) is str:
        return estimate(content)
    if type(content) is not list:
        return 0
    texts = [
        text
        for block in content
        if type(block) is dict and block.get("type") == "text" and type(text := block.get("text")) is str
    ]
    return estimate("\n".join(texts) + "\n") if texts else 0


def _int(value: Any) -> int:
    return value if type(value) is int else 0


class _Accumulator:
    """Running aggregates of one file; `add` takes one decoded record."""

    def __init__(self, agent: str | None) -> None:
        self.agent_file = agent
        self.malformed = 0
        self.session_id = ""
        self.cwd = ""
        self.branch = ""
        self.version = ""
        self.model = ""
        self.titles = {"custom-title": "", "ai-title": "", "summary": ""}
        self.start: float | None = None
        self.end: float | None = None
        self.api_errors = 0
        self.user_messages = 0
        self.unkeyed_responses = 0
        self.prompts_total = 0
        self.prompts: list[str] = []
        self.last_text = ""
        self.todos: list[Any] = []
        self.prs: dict[int, str] = {}
        self.main = Thread()
        self.sub = Thread()
        self.agents: dict[str, Agent] = {}
        self.responses: dict[str, list[int]] = {}
        """Main-thread usage per `message.id` + `requestId`: element-wise maximum."""
        self.sub_responses: dict[str, tuple[str, list[int]]] = {}
        """Subagent usage per key, with the agent it belongs to."""
        self.pending: dict[str, tuple[str, str, bool]] = {}
        """Tool id -> (tool, brief source, subagent?) until its result arrives."""
        self.seen_tools: set[str] = set()
        self.fat: list[tuple[int, int, str, str]] = []
        self.fat_total = 0
        self.sequence = 0
        self.injected: dict[str, int] = {}
        self.malformed_at: list[int] = []
        self.unknown_types: dict[str, list[int]] = {}
        self.unknown_markup: dict[str, list[int]] = {}
        self.removed: list[list[Any]] = []
        """Queue `remove` records holding a person's text: [line, turns before it, raw, turn, paired]."""
        self.deliveries: list[tuple[int, str]] = []
        """Recent queued-command deliveries not yet paired with a `remove`: (line, raw text)."""
        self.steering_overflow = 0

    def bad(self, line: int) -> None:
        self.malformed += 1
        if len(self.malformed_at) < SHOWN_LINES:
            self.malformed_at.append(line)

    def add(self, record: dict[str, Any], line: int) -> None:
        kind = record.get("type")
        stamp = record.get("timestamp")
        if type(stamp) is str:
            self._time(stamp)
        if type(kind) is not str:
            _name(self.unknown_types, "(no type)", line)
        elif kind == "assistant":
            self._assistant(record)
        elif kind == "user":
            self._user(record, line)
        elif kind == "attachment":
            self._attachment(record, line)
        elif kind == "queue-operation":
            self._queue(record, line)
        elif kind == "system":
            self._system(record)
        elif kind in self.titles:
            title = record.get(
                "customTitle" if kind == "custom-title" else "aiTitle" if kind == "ai-title" else "summary"
            )
            if type(title) is str and title.strip():
                self.titles[kind] = title.strip()
        elif kind == "pr-link":
            number = record.get("prNumber")
            url = record.get("prUrl")
            if type(number) is int and number > 0 and number not in self.prs:
                self.prs[number] = url if type(url) is str else ""
        elif kind not in KNOWN_TYPES:
            _name(self.unknown_types, kind, line)
        cwd = record.get("cwd")
        if not self.cwd and type(cwd) is str:
            self.cwd = cwd
        branch = record.get("gitBranch")
        if type(branch) is str and branch:
            self.branch = branch
        version = record.get("version")
        if type(version) is str and version:
            self.version = version
        if not self.session_id:
            session = record.get("sessionId")
            if type(session) is str:
                self.session_id = session

    def _time(self, stamp: str) -> None:
        moment = timefmt.parse(stamp)
        if moment is None:
            return
        if self.start is None or moment < self.start:
            self.start = moment
        if self.end is None or moment > self.end:
            self.end = moment

    def _agent(self, record: dict[str, Any]) -> tuple[str, Agent]:
        key = self.agent_file
        if key is None:
            agent_id = record.get("agentId")
            key = agent_id if type(agent_id) is str and agent_id else INLINE_AGENT
        agent = self.agents.get(key)
        if agent is None:
            agent = self.agents[key] = Agent()
        return key, agent

    def _assistant(self, record: dict[str, Any]) -> None:
        message = record.get("message")
        if type(message) is not dict:
            return
        side = self.agent_file is not None or record.get("isSidechain") is True
        model = message.get("model")
        synthetic = model == SYNTHETIC
        message_id = message.get("id")
        request_id = record.get("requestId")
        key = None
        if type(message_id) is str:
            key = message_id + "\x00" + (request_id if type(request_id) is str else "")
        agent = self._agent(record) if side else None
        if synthetic:
            if not side:
                self.api_errors += 1
                if key is not None:
                    self.responses.setdefault(key, [0, 0, 0, 0])
                else:
                    self.unkeyed_responses += 1
        else:
            if not side and type(model) is str and model:
                self.model = model
            usage = message.get("usage")
            counters = [0, 0, 0, 0]
            if type(usage) is dict:
                counters = [_int(usage.get(name)) for name in _USAGE_FIELDS]
            if agent is not None:
                self._sub_usage(key, agent[0], counters)
            else:
                self._main_usage(key, counters)
        content = message.get("content")
        thread = self.sub if side else self.main
        if type(content) is list:
            for block in content:
                if type(block) is not dict:
                    continue
                block_type = block.get("type")
                if block_type == "tool_use":
                    self._tool_use(block, thread, agent)
                elif block_type == "text" and agent is None and not synthetic:
                    text = block.get("text")
                    if type(text) is str and text.strip():
                        self.last_text = text
        elif type(content) is str and agent is None and not synthetic and content.strip():
            self.last_text = content

    def _main_usage(self, key: str | None, counters: list[int]) -> None:
        if key is None:
            self.unkeyed_responses += 1
            self.main.usage = [a + b for a, b in zip(self.main.usage, counters, strict=True)]
            return
        known = self.responses.get(key)
        if known is None:
            self.responses[key] = counters
        elif known != counters:
            self.responses[key] = [max(a, b) for a, b in zip(known, counters, strict=True)]

    def _sub_usage(self, key: str | None, agent: str, counters: list[int]) -> None:
        if key is None:
            self.sub.usage = [a + b for a, b in zip(self.sub.usage, counters, strict=True)]
            self.agents[agent].output_tokens += counters[1]
            return
        known = self.sub_responses.get(key)
        if known is None:
            self.sub_responses[key] = (agent, counters)
        elif known[1] != counters:
            self.sub_responses[key] = (known[0], [max(a, b) for a, b in zip(known[1], counters, strict=True)])

    def _tool_use(self, block: dict[str, Any], thread: Thread, agent: tuple[str, Agent] | None) -> None:
        tool_id = block.get("id")
        if type(tool_id) is str:
            if tool_id in self.seen_tools:
                return
            self.seen_tools.add(tool_id)
        name = block.get("name")
        if type(name) is not str or not name:
            name = "?"
        tool_input = block.get("input")
        if type(tool_input) is not dict:
            tool_input = {}
        thread.tool_calls[name] = thread.tool_calls.get(name, 0) + 1
        if agent is not None:
            agent[1].tool_calls += 1
        field = BRIEF_INPUT.get(name)
        source = tool_input.get(field) if field else None
        if type(source) is not str:
            source = ""
        if type(tool_id) is str:
            self.pending[tool_id] = (name, source, agent is not None)
        if not source:
            if name == "TodoWrite" and agent is None:
                todos = tool_input.get("todos")
                if type(todos) is list:
                    self.todos = todos
            return
        if name == "Bash":
            thread.commands[source] = thread.commands.get(source, 0) + 1
            return
        slot = FILE_TOUCH.get(name)
        if slot is not None:
            touches = thread.files.get(source)
            if touches is None:
                touches = thread.files[source] = [0, 0, 0]
            touches[slot] += 1

    def _user(self, record: dict[str, Any], line: int) -> None:
        side = self.agent_file is not None or record.get("isSidechain") is True
        meta = record.get("isMeta") is True
        if not side and not meta:
            self.user_messages += 1
        message = record.get("message")
        if type(message) is not dict:
            return
        content = message.get("content")
        images = 0
        if type(content) is str:
            text = content
        elif type(content) is list:
            texts = []
            had_result = False
            for block in content:
                if type(block) is not dict:
                    continue
                block_type = block.get("type")
                if block_type == "tool_result":
                    had_result = True
                    self._tool_result(block, side)
                elif block_type == "text":
                    piece = block.get("text")
                    if type(piece) is str:
                        texts.append(piece)
                elif block_type == "image":
                    images += 1
            if had_result:
                return
            text = "\n".join(texts)
        else:
            return
        kind, detail = classify.user_message(record, text, images)
        if side:
            if kind == classify.HUMAN:
                agent = self._agent(record)[1]
                if not agent.task:
                    agent.task = detail
            return
        self._judged(kind, detail, line)

    def _judged(self, kind: str, detail: str, line: int) -> None:
        """Account one main-thread message the classifier judged."""
        if kind == classify.HUMAN:
            self.prompts_total += 1
            if len(self.prompts) < MAX_PROMPTS:
                self.prompts.append(detail)
        elif kind == classify.UNKNOWN_MARKUP:
            _name(self.unknown_markup, detail, line)
        elif kind != classify.EMPTY:
            self.injected[kind] = self.injected.get(kind, 0) + 1

    def _attachment(self, record: dict[str, Any], line: int) -> None:
        if self.agent_file is not None or record.get("isSidechain") is True:
            return
        attachment = record.get("attachment")
        if type(attachment) is not dict:
            return
        kind = attachment.get("type")
        if kind == "queued_command":
            judged, detail, raw = classify.queued_command(attachment)
            self._delivered(raw, line)
            self._judged(judged, detail, line)
        elif kind in HOOK_ATTACHMENTS:
            self.injected[classify.HOOK_FEEDBACK] = self.injected.get(classify.HOOK_FEEDBACK, 0) + 1

    def _queue(self, record: dict[str, Any], line: int) -> None:
        """Queue bookkeeping. Only a `remove` holding a person's text matters: older versions wrote
        nothing else for a message delivered mid-turn; newer ones also write a queued-command
        attachment beside it, which is then the delivery counted."""
        if self.agent_file is not None or record.get("operation") != "remove":
            return
        raw = record.get("content")
        if type(raw) is not str or not raw.strip():
            return
        for n in range(len(self.deliveries) - 1, -1, -1):
            if self.deliveries[n][1] == raw and self.deliveries[n][0] >= line - PAIRING_LINES:
                del self.deliveries[n]
                return
        kind, detail = classify.judge(raw)
        if kind != classify.HUMAN:
            return
        if len(self.removed) < MAX_PROMPTS:
            self.removed.append([line, self.prompts_total, raw, detail, False])
        else:
            self.steering_overflow += 1

    def _delivered(self, raw: str, line: int) -> None:
        """Pair a queued-command delivery with the `remove` of the same text next to it."""
        for entry in reversed(self.removed):
            if entry[0] < line - PAIRING_LINES:
                break
            if not entry[4] and entry[2] == raw:
                entry[4] = True
                return
        self.deliveries = [d for d in self.deliveries if d[0] >= line - PAIRING_LINES]
        self.deliveries.append((line, raw))

    def _system(self, record: dict[str, Any]) -> None:
        if self.agent_file is not None or record.get("subtype") != "local_command":
            return
        content = record.get("content")
        if type(content) is str:
            kind, _ = classify.judge(content)
            if kind in LOCAL_COMMAND_KINDS:
                self.injected[kind] = self.injected.get(kind, 0) + 1

    def _steering(self) -> None:
        """Put the turns only a queue `remove` recorded in their place among the prompts."""
        extra = [(entry[1], entry[3]) for entry in self.removed if not entry[4]]
        self.prompts_total += len(extra) + self.steering_overflow
        if not extra:
            return
        merged: list[str] = []
        stored = self.prompts
        j = 0
        for index in range(len(stored) + 1):
            while j < len(extra) and extra[j][0] <= index:
                merged.append(extra[j][1])
                j += 1
            if index < len(stored):
                merged.append(stored[index])
        self.prompts = merged[:MAX_PROMPTS]

    def _tool_result(self, block: dict[str, Any], side: bool) -> None:
        content = block.get("content")
        if not side and block.get("is_error") is True and classify.is_denial(content):
            self.injected[classify.PERMISSION_DENIAL] = self.injected.get(classify.PERMISSION_DENIAL, 0) + 1
        tokens = result_tokens(content)
        tool_id = block.get("tool_use_id")
        call = self.pending.pop(tool_id, None) if type(tool_id) is str else None
        if call is None:
            (self.sub if side else self.main).unattributed += tokens
            return
        name, source, by_agent = call
        thread = self.sub if by_agent else self.main
        thread.result_tokens[name] = thread.result_tokens.get(name, 0) + tokens
        if tokens >= FAT_TOKENS and not by_agent:
            self.fat_total += 1
            self.sequence += 1
            entry = (tokens, -self.sequence, name, source)
            if len(self.fat) < FAT_KEPT:
                heapq.heappush(self.fat, entry)
            else:
                heapq.heappushpop(self.fat, entry)

    def finish(self, redactor: Redactor | None) -> Digest:
        """The digest, every string redacted once (and merged when redaction makes two equal)."""
        table: dict[str, int] = {}
        self._steering()

        def clean(text: str) -> str:
            if redactor is None or not text:
                return text
            result, count = redactor.redact(text)
            if count:
                table[result] = max(count, table.get(result, 0))
            return result

        digest = Digest(
            session_id=self.session_id,
            cwd=clean(self.cwd),
            branch=clean(self.branch),
            version=clean(self.version),
            model=clean(self.model),
            title=clean(self.titles["custom-title"] or self.titles["ai-title"] or self.titles["summary"]),
            start=self.start,
            end=self.end,
            malformed_lines=self.malformed,
            api_errors=self.api_errors,
            prompts_total=self.prompts_total,
            prompts=[clean(text) for text in self.prompts],
            last_text=clean(self.last_text.strip()),
            prs=[[number, clean(url)] for number, url in self.prs.items()],
            fat_total=self.fat_total,
            injected=dict(sorted(self.injected.items(), key=lambda kv: (-kv[1], kv[0]))),
            malformed_at=self.malformed_at,
            unknown_types={clean(k): v for k, v in self.unknown_types.items()},
            unknown_markup={clean(k): v for k, v in self.unknown_markup.items()},
        )
        mids = {key.partition("\x00")[0] for key in self.responses}
        digest.messages = self.user_messages + len(mids) + self.unkeyed_responses
        main_usage = self.main.usage
        for counters in self.responses.values():
            main_usage = [a + b for a, b in zip(main_usage, counters, strict=True)]
        self.main.usage = main_usage
        sub_usage = self.sub.usage
        for agent_key, counters in self.sub_responses.values():
            sub_usage = [a + b for a, b in zip(sub_usage, counters, strict=True)]
            self.agents[agent_key].output_tokens += counters[1]
        self.sub.usage = sub_usage
        digest.main = _clean_thread(self.main, clean)
        digest.sub = _clean_thread(self.sub, clean)
        digest.agents = {
            key: Agent(clean(agent.task), agent.tool_calls, agent.output_tokens)
            for key, agent in sorted(self.agents.items())
        }
        digest.fat_results = [
            [tokens, clean(name), clean(brief(name, source))]
            for tokens, _, name, source in sorted(self.fat, key=lambda e: (-e[0], -e[1]))
        ]
        digest.todos = _open_todos(self.todos, clean)
        digest.redacted = table
        return digest


def _name(table: dict[str, list[int]], name: str, line: int) -> None:
    """Count one occurrence of `name` (first line kept), pooling names beyond the kept number."""
    name = name[:NAME_CHARS]
    entry = table.get(name)
    if entry is None:
        if len(table) >= NAMED_KEPT:
            name = "(others)"
            entry = table.get(name)
        if entry is None:
            table[name] = [1, line]
            return
    entry[0] += 1


def _clean_thread(thread: Thread, clean: Any) -> Thread:
    """The thread with every string redacted; entries that become equal are merged."""
    out = Thread(usage=thread.usage, unattributed=thread.unattributed)
    for name, calls in thread.tool_calls.items():
        key = clean(name)
        out.tool_calls[key] = out.tool_calls.get(key, 0) + calls
    for name, tokens in thread.result_tokens.items():
        key = clean(name)
        out.result_tokens[key] = out.result_tokens.get(key, 0) + tokens
    for command, calls in thread.commands.items():
        key = clean(command)
        out.commands[key] = out.commands.get(key, 0) + calls
    for path, touches in thread.files.items():
        key = clean(path)
        mine = out.files.setdefault(key, [0, 0, 0])
        for i in range(3):
            mine[i] += touches[i]
    return out


def _open_todos(todos: list[Any], clean: Any) -> list[list[str]]:
    """[status, content] of the items not completed, in their order."""
    out: list[list[str]] = []
    for item in todos:
        if type(item) is not dict:
            continue
        status = item.get("status")
        content = item.get("content")
        if type(content) is not str or status == "completed":
            continue
        out.append([status if type(status) is str else "", clean(content)])
        if len(out) >= TODOS_KEPT:
            break
    return out
