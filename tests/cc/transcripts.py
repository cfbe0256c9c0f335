"""Claude Code transcript fixtures, written the way Claude Code writes them.

`write_ab(root)` writes sessions A (acme-api, 30 lines exercising every rule) and B (web, 4 lines);
`write_extras(root)` adds session C (ops-tools) with the newer layout and the odd cases: a BOM, a CRLF
line, a non-object line, custom and AI titles, IDE-prefixed and pasted-HTML prompts, every kind of
secret in prompts and commands, TodoWrite, NotebookEdit and MultiEdit, a `subagents/` sidecar file,
a top-level agent file with C's session id and an orphaned agent file.

Run as a script to write both into a directory: `python -m tests.cc.transcripts <projects_dir>`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

SID_A = "3f2a9c1e-7b4d-4e8a-9c1f-2d5e6a7b8c9d"
SID_B = "9d8c7b6a-1111-4222-8333-944455556666"
SID_C = "c0ffee00-5a5a-4b4b-8c8c-0d0d0e0e0f0f"
CWD_A = "/home/dev/src/acme-api"
CWD_B = "/home/dev/src/web"
CWD_C = "/home/dev/src/ops-tools"
DIR_A = "-home-dev-src-acme-api"
DIR_B = "-home-dev-src-web"
DIR_C = "-home-dev-src-ops-tools"
SONNET = "claude-sonnet-4-5-20250929"
HAIKU = "claude-haiku-4-5-20251001"
OPUS = "claude-opus-4-1-20250805"

MTIME_A = 1772442750  # 2026-03-02T09:12:30Z
TRUNCATED_A = f"{DIR_A}/{SID_A}.jsonl:30"
"""Where A's truncated last line is (named in the notes of every tool that reads A)."""
NOT_OBJECT_C = f"{DIR_C}/{SID_C}.jsonl:33"
"""Where C's non-object line is."""
MALFORMED_A = f"1 transcript line not followed (not a JSON object): {TRUNCATED_A}"
MTIME_B = 1772377230  # 2026-03-01T15:00:30Z
MTIME_C = 1772460000  # 2026-03-02T14:00:00Z

SECRETS = {
    "anthropic": "sk-ant-api03-FAKEkeyFORtests0123456789abcdefXYZ",
    "openai": "sk-proj-FAKEopenaiKEY0123456789abcdef",
    "github": "ghp_FAKE0123456789abcdefFAKE0123456789ab",
    "github-pat": "github_pat_11FAKE0123456789abcdefFAKE0123",
    "gitlab": "glpat-FAKE0123456789abcdefgh",
    "slack": "xoxb-1234567890-FAKEslackTOKEN",
    "aws-id": "AKIAFAKE0123456789AB",
    "aws-secret": "wJalrXUtnFEMIK7MDENGbPxRfiCYFAKEKEY0123456",
    "google": "AIzaFAKE0123456789abcdefFAKE0123456789a",
    "stripe": "sk_live_FAKE0123456789abcdef",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.FAKEsignature0123456789",
    "bearer": "FAKEbearerVALUE0123456789",
    "pem-body": "MIIEowIBAAKCAQEAfakeFAKEfakeFAKE",
    "url-password": "FAKEurlPASS99",
    "db-password": "FAKEdbPass42",
    "token-flag": "FAKEflagTOKEN77",
    "sshpass": "FAKEsshPASS11",
    "mysql": "FAKEmysqlPW33",
    "json-password": "FAKEjsonPW55",
}
"""Made-up secret values planted in session C; none may ever appear in an output."""


def usage(inp: int, create: int, read: int, out: int) -> dict[str, Any]:
    return {
        "input_tokens": inp,
        "cache_creation_input_tokens": create,
        "cache_read_input_tokens": read,
        "output_tokens": out,
        "service_tier": "standard",
    }


def tool_use(tool_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def tool_result(tool_id: str, content: Any, is_error: bool | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"tool_use_id": tool_id, "type": "tool_result", "content": content}
    if is_error is not None:
        block["is_error"] = is_error
    return block


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


class Transcript:
    """Records of one transcript file, serialised like Claude Code (compact JSON, one per line)."""

    def __init__(self, session_id: str, cwd: str, version: str) -> None:
        self.session_id = session_id
        self.cwd = cwd
        self.version = version
        self.lines: list[str] = []

    def _envelope(self, kind: str, branch: str, parent: str | None, sidechain: bool) -> dict[str, Any]:
        return {
            "parentUuid": parent,
            "isSidechain": sidechain,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": self.version,
            "gitBranch": branch,
            "type": kind,
        }

    def raw(self, line: str) -> None:
        self.lines.append(line)

    def record(self, record: dict[str, Any]) -> None:
        self.lines.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False))

    def user(
        self,
        uuid: str,
        parent: str | None,
        stamp: str,
        content: Any,
        branch: str = "main",
        sidechain: bool = False,
        **extra: Any,
    ) -> None:
        record = self._envelope("user", branch, parent, sidechain)
        record["message"] = {"role": "user", "content": content}
        record["uuid"] = uuid
        record["timestamp"] = stamp
        record.update(extra)
        self.record(record)

    def assistant(
        self,
        uuid: str,
        parent: str | None,
        stamp: str,
        message_id: str,
        content: list[dict[str, Any]],
        use: dict[str, Any],
        model: str = SONNET,
        branch: str = "main",
        stop: str | None = None,
        sidechain: bool = False,
        **extra: Any,
    ) -> None:
        record = self._envelope("assistant", branch, parent, sidechain)
        record["message"] = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": use,
        }
        record["requestId"] = "req_" + message_id[4:]
        record["uuid"] = uuid
        record["timestamp"] = stamp
        record.update(extra)
        self.record(record)

    def system(self, uuid: str, parent: str | None, stamp: str, branch: str, **extra: Any) -> None:
        record = self._envelope("system", branch, parent, False)
        record["uuid"] = uuid
        record["timestamp"] = stamp
        record.update(extra)
        self.record(record)

    def data(self, newline: str = "\n") -> bytes:
        return (newline.join(self.lines) + newline).encode("utf-8")


def session_a() -> bytes:
    """30 lines: split responses repeating usage, results as string and blocks, an error, isMeta,
    an interrupt, a synthetic API error, compaction, an inline sidechain prompt, title, PR, truncation."""
    s = Transcript(SID_A, CWD_A, "2.0.31")
    day = "2026-03-02T"
    branch = "fix/retry-ctx"
    test_file = CWD_A + "/internal/http/client_test.go"
    source_file = CWD_A + "/internal/http/client.go"
    grep_hits = "internal/http/client.go:17:  backoff := 100 * time.Millisecond // retry backoff\n" * 80
    s.record(
        {
            "type": "file-history-snapshot",
            "messageId": "u01",
            "snapshot": {"messageId": "u01", "trackedFileBackups": {}, "timestamp": day + "09:00:05.000Z"},
            "isSnapshotUpdate": False,
        }
    )
    s.user("u01", None, day + "09:00:05.000Z", "Fix the flaky TestRetry in internal/http and make CI green.")
    s.user(
        "u02",
        "u01",
        day + "09:00:05.500Z",
        [text("<system-reminder>CLAUDE.md: run gofmt before committing.</system-reminder>")],
        isMeta=True,
    )
    thinking = {"type": "thinking", "thinking": "Read the test first.", "signature": "c2ln"}
    s.assistant(
        "a01",
        "u02",
        day + "09:00:08.000Z",
        "msg_01",
        [thinking, text("Let me read the test first.")],
        usage(3, 2000, 10000, 12),
    )
    s.assistant(
        "a02",
        "a01",
        day + "09:00:08.400Z",
        "msg_01",
        [tool_use("toolu_01", "Read", {"file_path": test_file})],
        usage(3, 2000, 10000, 12),
        stop="tool_use",
    )
    s.user(
        "u03",
        "a02",
        day + "09:00:08.600Z",
        [tool_result("toolu_01", "     1\tpackage http\n     2\t\n     3\tfunc TestRetry(t *testing.T) {")],
        toolUseResult={
            "type": "text",
            "file": {
                "filePath": test_file,
                "content": "package http\n\nfunc TestRetry(t *testing.T) {",
                "numLines": 3,
                "startLine": 1,
                "totalLines": 3,
            },
        },
    )
    s.assistant(
        "a03",
        "u03",
        day + "09:00:15.000Z",
        "msg_02",
        [
            tool_use(
                "toolu_02",
                "Bash",
                {
                    "command": "go test ./internal/http/ -run TestRetry -count=5",
                    "description": "Run the flaky test 5 times",
                },
            )
        ],
        usage(5, 500, 12000, 80),
        stop="tool_use",
    )
    failure = "--- FAIL: TestRetry (0.21s)\n    client_test.go:42: context deadline exceeded\nFAIL"
    s.user(
        "u04",
        "a03",
        day + "09:00:30.000Z",
        [tool_result("toolu_02", [text(failure)], True)],
        toolUseResult="Error: Exit code 1",
    )
    s.assistant(
        "a04",
        "u04",
        day + "09:00:40.000Z",
        "msg_03",
        [
            tool_use(
                "toolu_03", "Grep", {"pattern": "backoff", "path": "internal/http", "output_mode": "content"}
            ),
            tool_use(
                "toolu_04", "Bash", {"command": "git status", "description": "Show working tree status"}
            ),
        ],
        usage(4, 300, 12500, 60),
        stop="tool_use",
    )
    s.user(
        "u05",
        "a04",
        day + "09:00:41.000Z",
        [
            tool_result("toolu_03", grep_hits),
            tool_result("toolu_04", "On branch main\nnothing to commit, working tree clean"),
            tool_result("toolu_77", "(result of a call made before the last compaction)"),
        ],
    )
    s.assistant(
        "a05",
        "u05",
        day + "09:01:10.000Z",
        "msg_04",
        [
            text("The retry loop ignores ctx cancellation; fixing it."),
            tool_use(
                "toolu_05",
                "Edit",
                {
                    "file_path": source_file,
                    "old_string": "time.Sleep(d)",
                    "new_string": "select {\ncase <-ctx.Done():\n\treturn ctx.Err()\ncase <-time.After(d):\n}",
                },
            ),
        ],
        usage(6, 800, 13000, 400),
        stop="tool_use",
    )
    s.user(
        "u06",
        "a05",
        day + "09:01:11.000Z",
        [tool_result("toolu_05", f"The file {source_file} has been updated.")],
    )
    s.user("u07", "u06", day + "09:01:20.000Z", [text("[Request interrupted by user]")])
    s.user(
        "u08",
        "u07",
        day + "09:02:00.000Z",
        [text("Also run the whole package and commit.\nUse a conventional commit message.")],
    )
    overloaded = 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'
    s.assistant(
        "a06",
        "u08",
        day + "09:02:01.000Z",
        "msg_05",
        [text(overloaded)],
        usage(0, 0, 0, 0),
        model="<synthetic>",
        stop="stop_sequence",
        isApiErrorMessage=True,
    )
    s.system(
        "s01",
        "a06",
        day + "09:02:02.000Z",
        "main",
        subtype="turn_duration",
        durationMs=117000,
        messageCount=14,
        isMeta=False,
    )
    s.system(
        "s02",
        None,
        day + "09:10:00.000Z",
        branch,
        subtype="compact_boundary",
        content="Conversation compacted",
        isMeta=False,
        level="info",
        logicalParentUuid="s01",
        compactMetadata={"trigger": "auto", "preTokens": 160000},
    )
    s.user(
        "u09",
        "s02",
        day + "09:10:01.000Z",
        "This session is being continued from a previous conversation that ran out of context. "
        "The conversation is summarized below:\nAnalysis: the user asked to fix TestRetry ...",
        branch=branch,
        isCompactSummary=True,
        isVisibleInTranscriptOnly=True,
    )
    s.user(
        "u10",
        "u09",
        day + "09:10:05.000Z",
        "Find every caller of doWithRetry and report file:line.",
        branch=branch,
        sidechain=True,
    )
    s.assistant(
        "a07",
        "u10",
        day + "09:10:20.000Z",
        "msg_06",
        [
            tool_use("toolu_06", "Read", {"file_path": test_file, "offset": 30, "limit": 20}),
            tool_use("toolu_07", "Bash", {"command": "git status"}),
        ],
        usage(2, 100, 14000, 40),
        branch=branch,
        stop="tool_use",
    )
    s.user(
        "u11",
        "a07",
        day + "09:10:21.000Z",
        [
            tool_result("toolu_06", "    42\t\tif err != nil {"),
            tool_result(
                "toolu_07",
                "On branch fix/retry-ctx\nChanges not staged for commit:\n\tmodified:   internal/http/client.go",
            ),
        ],
        branch=branch,
    )
    s.assistant(
        "a08",
        "u11",
        day + "09:10:30.000Z",
        "msg_07",
        [
            tool_use(
                "toolu_08",
                "Bash",
                {
                    "command": 'go test ./internal/http/... && git commit -am "fix(http): honour ctx in retry backoff"'
                },
            )
        ],
        usage(2, 150, 14100, 150),
        branch=branch,
        stop="tool_use",
    )
    s.user(
        "u12",
        "a08",
        day + "09:10:45.000Z",
        [
            tool_result(
                "toolu_08",
                "ok  \tacme/internal/http\t0.412s\n[fix/retry-ctx 1a2b3c4] fix(http): honour ctx in retry backoff\n"
                " 1 file changed, 4 insertions(+), 1 deletion(-)",
            )
        ],
        branch=branch,
    )
    s.assistant(
        "a09",
        "u12",
        day + "09:10:50.000Z",
        "msg_08",
        [text("Committed 1a2b3c4 on fix/retry-ctx. Next: push the branch and open a PR.")],
        usage(1, 0, 14300, 30),
        branch=branch,
        stop="end_turn",
    )
    s.system(
        "s03",
        "a09",
        day + "09:10:51.000Z",
        branch,
        subtype="turn_duration",
        durationMs=50000,
        messageCount=24,
        isMeta=False,
    )
    s.record({"type": "ai-title", "sessionId": SID_A, "aiTitle": "Fix flaky TestRetry ctx handling"})
    for stamp in ("09:12:00.000Z", "09:12:30.000Z"):
        s.record(
            {
                "type": "pr-link",
                "prNumber": 128,
                "prUrl": "https://github.com/acme/api/pull/128",
                "prRepository": "acme/api",
                "sessionId": SID_A,
                "timestamp": day + stamp,
            }
        )
    s.record({"type": "summary", "summary": "Fix flaky retry test", "leafUuid": "a09"})
    s.raw('{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"trunc')
    return s.data()


def session_b() -> bytes:
    s = Transcript(SID_B, CWD_B, "2.0.30")
    s.user("b-u1", None, "2026-03-01T15:00:00.000Z", "Bump vite to 5.4 and rebuild.")
    s.assistant(
        "b-a1",
        "b-u1",
        "2026-03-01T15:00:05.000Z",
        "msg_b1",
        [
            tool_use("toolu_b1", "Bash", {"command": "git status"}),
            tool_use("toolu_b2", "Read", {"file_path": CWD_B + "/package.json"}),
        ],
        usage(10, 1000, 0, 50),
        model=HAIKU,
        stop="tool_use",
    )
    s.user(
        "b-u2",
        "b-a1",
        "2026-03-01T15:00:06.000Z",
        [
            tool_result("toolu_b1", "On branch main\nnothing to commit"),
            tool_result("toolu_b2", '{\n  "name": "web"\n}'),
        ],
    )
    s.assistant(
        "b-a2",
        "b-u2",
        "2026-03-01T15:00:30.000Z",
        "msg_b2",
        [text("Bumped vite; run `npm run build` next.")],
        usage(2, 0, 1050, 20),
        model=HAIKU,
        stop="end_turn",
    )
    return s.data()


SECRET_PROMPTS = (
    f"Deploy with ANTHROPIC_API_KEY={SECRETS['anthropic']} and OPENAI_API_KEY={SECRETS['openai']} please",
    f"The CI token is {SECRETS['github']} and the fine-grained one {SECRETS['github-pat']}",
    f"GitLab {SECRETS['gitlab']} / Slack {SECRETS['slack']} / AWS {SECRETS['aws-id']}",
    f"aws_secret_access_key={SECRETS['aws-secret']} and maps key {SECRETS['google']}",
    f"Stripe {SECRETS['stripe']} then call with Authorization: Bearer {SECRETS['bearer']}",
    f"The session cookie is {SECRETS['jwt']} — decode it",
    f'Config: {{"db_password": "{SECRETS["json-password"]}", "host": "db"}}',
    f"Key:\n-----BEGIN RSA PRIVATE KEY-----\n{SECRETS['pem-body']}\n-----END RSA PRIVATE KEY-----\nuse it",
)
"""Human turns of C carrying every secret kind (one secret each, except where two are named)."""

SECRET_COMMANDS = (
    f"git clone https://deploy:{SECRETS['url-password']}@git.example.com/ops/tools.git",
    f"psql --password={SECRETS['db-password']} -h db ops",
    f"gh api user --token {SECRETS['token-flag']}",
    f"sshpass -p {SECRETS['sshpass']} ssh ops@bastion uptime",
    f"mysql -u root -p{SECRETS['mysql']} ops -e 'select 1'",
    f"GITHUB_TOKEN={SECRETS['github']} gh pr list",
)
"""Bash commands of C carrying secrets (the last one twice, to show grouping after redaction)."""


def session_c() -> bytes:
    """The newer layout and the odd cases (see the module docstring)."""
    s = Transcript(SID_C, CWD_C, "2.1.3")
    day = "2026-03-02T"
    branch = "ops/rotate"
    s.record({"type": "custom-title", "customTitle": "Rotate ops credentials", "sessionId": SID_C})
    s.user(
        "c-u01",
        None,
        day + "13:00:00.000Z",
        [
            text(
                "<ide_opened_file>The user opened the file /home/dev/src/ops-tools/deploy.sh in the IDE. "
                "This may or may not be related to the current task.</ide_opened_file>"
            ),
            text("Rotate the deploy credentials in deploy.sh and the CI config."),
        ],
        branch=branch,
    )
    s.user(
        "c-u02",
        "c-u01",
        day + "13:00:01.000Z",
        "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>",
        branch=branch,
    )
    s.user(
        "c-u03",
        "c-u02",
        day + "13:00:02.000Z",
        "<local-command-stdout>Set model to opus</local-command-stdout>",
        branch=branch,
    )
    s.record({"type": "ai-title", "sessionId": SID_C, "aiTitle": "Credential rotation for ops tools"})
    s.user(
        "c-u04",
        "c-u03",
        day + "13:01:00.000Z",
        '<div class="banner"><span>Deploy</span></div> why is this banner misaligned?',
        branch=branch,
    )
    for n, prompt in enumerate(SECRET_PROMPTS, 5):
        s.user(
            f"c-u{n:02d}",
            None,
            f"{day}13:02:{n:02d}.000Z",
            [text(prompt), {"type": "image", "source": {}}],
            branch=branch,
        )
    s.assistant(
        "c-a01",
        None,
        day + "13:03:00.000Z",
        "msg_c01",
        [{"type": "thinking", "thinking": "Plan the rotation.", "signature": "c2ln"}],
        usage(7, 3000, 5000, 20),
        model=OPUS,
        branch=branch,
    )
    s.assistant(
        "c-a02",
        None,
        day + "13:03:01.000Z",
        "msg_c01",
        [
            tool_use(
                "toolu_c01",
                "TodoWrite",
                {
                    "todos": [
                        {
                            "content": "Inventory credentials",
                            "status": "completed",
                            "activeForm": "Inventorying",
                        },
                        {"content": "Rotate deploy key", "status": "in_progress", "activeForm": "Rotating"},
                        {"content": "Update CI secrets", "status": "pending", "activeForm": "Updating"},
                    ]
                },
            )
        ],
        usage(7, 3000, 5000, 35),
        model=OPUS,
        branch=branch,
    )
    s.user(
        "c-u20",
        None,
        day + "13:03:02.000Z",
        [tool_result("toolu_c01", "Todos have been modified successfully.")],
        branch=branch,
    )
    calls = [*SECRET_COMMANDS, SECRET_COMMANDS[-1]]
    for n, command in enumerate(calls, 1):
        s.assistant(
            f"c-a1{n}",
            None,
            f"{day}13:04:{n:02d}.000Z",
            f"msg_c1{n}",
            [tool_use(f"toolu_c1{n}", "Bash", {"command": command})],
            usage(1, 10, 8000, 15),
            model=OPUS,
            branch=branch,
        )
        s.user(
            f"c-u3{n}",
            None,
            f"{day}13:04:{n:02d}.500Z",
            [tool_result(f"toolu_c1{n}", [text("done"), text(f"exit {n % 2}")], n % 2 == 1)],
            branch=branch,
        )
    s.assistant(
        "c-a30",
        None,
        day + "13:05:00.000Z",
        "msg_c30",
        [
            tool_use(
                "toolu_c30",
                "NotebookEdit",
                {"notebook_path": CWD_C + "/notes/rotation.ipynb", "new_source": "x"},
            ),
            tool_use("toolu_c31", "MultiEdit", {"file_path": CWD_C + "/deploy.sh", "edits": []}),
            tool_use(
                "toolu_c32", "Task", {"description": "Audit CI secrets", "prompt": "Audit the CI secrets."}
            ),
            tool_use(
                "toolu_c33", "WebFetch", {"url": "https://docs.example.com/rotate", "prompt": "summarise"}
            ),
        ],
        usage(3, 200, 9000, 120),
        model=OPUS,
        branch=branch,
    )
    s.raw('["not", "an", "object"]')
    s.user(
        "c-u40",
        None,
        day + "13:05:01.000Z",
        [
            tool_result("toolu_c30", "Updated cell 1"),
            tool_result("toolu_c31", "Applied 2 edits"),
            tool_result("toolu_c32", [text("Found 3 secrets in .github/workflows/deploy.yml")]),
            tool_result("toolu_c33", "Rotation guide: ..."),
        ],
        branch=branch,
    )
    s.user(
        "c-u41",
        None,
        "2026-03-02 13:06:00",
        "A prompt whose timestamp has no zone: it still counts, its time does not.",
        branch=branch,
    )
    s.user(
        "c-u42",
        None,
        day + "13:06:30.000Z",
        [text("<task-notification>Agent finished</task-notification>")],
        branch=branch,
    )
    s.assistant(
        "c-a40",
        None,
        day + "13:07:00.000Z",
        "msg_c40",
        [text(f"Rotated. The new deploy key is in the vault; old token {SECRETS['github']} is revoked.")],
        usage(2, 0, 9500, 60),
        model=OPUS,
        branch=branch,
        stop="end_turn",
    )
    crlf = s.data().decode().splitlines()
    head = crlf[:2]
    tail = crlf[2:]
    return b"\xef\xbb\xbf" + ("\r\n".join(head) + "\r\n" + "\n".join(tail) + "\n").encode()


def subagent_c() -> bytes:
    """The sidecar subagent of C (newer layout): everything here belongs to the subagent bucket."""
    s = Transcript(SID_C, CWD_C, "2.1.3")
    day = "2026-03-02T"
    branch = "ops/rotate"
    s.user(
        "c-s01",
        None,
        day + "13:05:02.000Z",
        "Audit the CI secrets.",
        branch=branch,
        sidechain=True,
        agentId="a1b2c3d4",
    )
    for n in (1, 2):
        s.assistant(
            f"c-s1{n}",
            None,
            f"{day}13:05:0{2 + n}.000Z",
            f"msg_cs{n}",
            [
                tool_use(f"toolu_cs{n}a", "Read", {"file_path": CWD_C + "/.github/workflows/deploy.yml"}),
                tool_use(f"toolu_cs{n}b", "Bash", {"command": "grep -rn secrets .github/"}),
            ],
            usage(4, 100, 2000, 25),
            model=HAIKU,
            branch=branch,
            sidechain=True,
            agentId="a1b2c3d4",
        )
        s.user(
            f"c-s2{n}",
            None,
            f"{day}13:05:0{2 + n}.500Z",
            [
                tool_result(f"toolu_cs{n}a", "name: deploy\non: push"),
                tool_result(f"toolu_cs{n}b", "deploy.yml:9: secrets.X"),
            ],
            branch=branch,
            sidechain=True,
            agentId="a1b2c3d4",
        )
    return s.data()


def legacy_agent_c() -> bytes:
    """An older-layout agent file at the project level, attributed to C through its sessionId."""
    s = Transcript(SID_C, CWD_C, "2.0.10")
    s.user(
        "c-l01",
        None,
        "2026-03-02T13:08:00.000Z",
        "List the deploy hosts.",
        branch="ops/rotate",
        sidechain=True,
    )
    s.assistant(
        "c-l02",
        None,
        "2026-03-02T13:08:01.000Z",
        "msg_cl1",
        [tool_use("toolu_cl1", "Bash", {"command": "cat hosts.txt"})],
        usage(1, 0, 1000, 9),
        model=HAIKU,
        branch="ops/rotate",
        sidechain=True,
    )
    return s.data()


def orphan_agent() -> bytes:
    s = Transcript("deadbeef-0000-4000-8000-000000000000", "/home/dev/src/gone", "2.0.10")
    s.user("o-01", None, "2026-02-01T10:00:00.000Z", "Old task of a deleted session.", sidechain=True)
    return s.data()


# --- Messages Claude Code writes itself, shaped as 2.1.x writes them -------------------------------
#
# Each shape adds the record(s) of one kind to a transcript and returns the kind the classifier must
# give them (None when the records are bookkeeping, not a message). The order and nesting of fields
# follow real 2.1 transcripts: string content for command markup and notifications, text blocks for
# interrupts and IDE context, `isMeta` on caveats, reminders and command expansions,
# `isCompactSummary` on compaction summaries, `attachment` records for queued commands and hook
# context, `system`/`local_command` for commands run without the model.

SID_D = "d1a2b3c4-2121-4a4a-8b8b-0c0c0d0d0e0e"
CWD_D = "/home/dev/src/billing"
DIR_D = "-home-dev-src-billing"
MTIME_D = 1772463600  # 2026-03-02T15:00:00Z
VERSION_D = "2.1.14"
TASK_OUTPUT = "/tmp/claude-1000/-home-dev-src-billing/tasks/{task}.output"
TASK_TRAILER = "Read the output file to retrieve the result: " + TASK_OUTPUT
CAVEAT_TEXT = (
    "Caveat: The messages below were generated by the user while running local commands. DO NOT respond "
    "to these messages or otherwise consider them in your response unless the user explicitly asks you to."
)
DENIAL_TEXT = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a "
    "file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the "
    "user to tell you how to proceed."
)


def task_notification_xml(task: str, tool_id: str, summary: str, status: str = "completed") -> str:
    return (
        f"<task-notification>\n<task-id>{task}</task-id>\n<tool-use-id>{tool_id}</tool-use-id>\n"
        f"<output-file>{TASK_OUTPUT.format(task=task)}</output-file>\n<status>{status}</status>\n"
        f"<summary>{summary}</summary>\n</task-notification>"
    )


def task_notification(
    t: Transcript, uuid: str, stamp: str, task: str = "b1a2c3d", shape: str = "string"
) -> str:
    """A background task's completion, with Claude Code's sentence after the element; `shape` is
    `string` (user record, string content), `blocks` (the same as a text block), `origin` (newer
    versions: `origin.kind` says who wrote it) or `queued` (delivered mid-turn as an attachment)."""
    body = task_notification_xml(
        task, f"toolu_{task}", 'Background command "make test-slow" completed (exit code 0)'
    )
    full = body + "\n" + TASK_TRAILER.format(task=task)
    if shape == "queued":
        attachment = {"type": "queued_command", "prompt": full, "commandMode": "task-notification"}
        t.record(_attachment(t, uuid, stamp, attachment))
    elif shape == "blocks":
        t.user(uuid, None, stamp, [text(full)])
    elif shape == "origin":
        t.user(uuid, None, stamp, full, origin={"kind": "task-notification"}, promptId=f"p-{uuid}")
    else:
        t.user(uuid, None, stamp, full)
    return "task_notification"


def _attachment(t: Transcript, uuid: str, stamp: str, attachment: dict[str, Any]) -> dict[str, Any]:
    return {
        "parentUuid": None,
        "isSidechain": False,
        "attachment": {**attachment, "timestamp": stamp},
        "type": "attachment",
        "uuid": uuid,
        "timestamp": stamp,
        "userType": "external",
        "cwd": t.cwd,
        "sessionId": t.session_id,
        "version": t.version,
        "gitBranch": "main",
    }


def slash_command(t: Transcript, uuid: str, stamp: str, name: str = "model", args: str = "") -> str:
    t.user(
        uuid,
        None,
        stamp,
        f"<command-name>/{name}</command-name>\n            <command-message>{name}</command-message>\n"
        f"            <command-args>{args}</command-args>",
    )
    return "slash_command"


def custom_command(t: Transcript, uuid: str, stamp: str) -> list[str]:
    """A custom command: the invocation (message first, as 2.1 writes it), then its expanded body."""
    t.user(
        uuid,
        None,
        stamp,
        "<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n"
        "<command-args>billing sync</command-args>",
    )
    t.user(
        uuid + "-body",
        uuid,
        stamp,
        [text("# Review\n\nReview the pending changes in ARGUMENTS: billing sync. List risks first.")],
        isMeta=True,
    )
    return ["slash_command", "expansion"]


def command_output(t: Transcript, uuid: str, stamp: str, stream: str = "stdout") -> str:
    t.user(
        uuid,
        None,
        stamp,
        f"<local-command-{stream}>Set model to opus (claude-opus-4-1)</local-command-{stream}>",
    )
    return "command_output"


def caveat(t: Transcript, uuid: str, stamp: str, wrapped: bool = True) -> str:
    content = f"<local-command-caveat>{CAVEAT_TEXT}</local-command-caveat>" if wrapped else CAVEAT_TEXT
    t.user(uuid, None, stamp, content, isMeta=True)
    return "caveat"


def local_command(t: Transcript, uuid: str, stamp: str) -> list[str]:
    """A command run without the model, as newer versions record it: two `system` records."""
    t.system(
        uuid,
        None,
        stamp,
        "main",
        subtype="local_command",
        content="<command-name>/cost</command-name>\n            <command-message>cost</command-message>\n"
        "            <command-args></command-args>",
        level="info",
        isMeta=False,
    )
    t.system(
        uuid + "-out",
        uuid,
        stamp,
        "main",
        subtype="local_command",
        content="<local-command-stdout>Total cost: $0.42</local-command-stdout>",
        level="info",
        isMeta=False,
    )
    return ["slash_command", "command_output"]


def stop_hook(t: Transcript, uuid: str, stamp: str, meta: bool = True) -> str:
    extra = {"isMeta": True} if meta else {}
    t.user(
        uuid,
        None,
        stamp,
        "Stop hook feedback:\n[~/.claude/hooks/check-clean.sh]: There are uncommitted changes. Commit them before stopping.",
        **extra,
    )
    return "stop_hook"


def hook_context(t: Transcript, uuid: str, stamp: str) -> str:
    attachment = {
        "type": "hook_additional_context",
        "content": ["Billing runs on Python 3.12; use the sandbox account."],
        "hookName": "SessionStart:startup",
        "toolUseID": "SessionStart",
        "hookEvent": "SessionStart",
    }
    t.record(_attachment(t, uuid, stamp, attachment))
    return "hook_feedback"


def hook_bookkeeping(t: Transcript, uuid: str, stamp: str) -> None:
    attachment = {"type": "hook_success", "content": "", "hookName": "PostToolUse:Edit", "exitCode": 0}
    t.record(_attachment(t, uuid, stamp, attachment))


def interrupt(t: Transcript, uuid: str, stamp: str, for_tool: bool = False) -> str:
    suffix = " for tool use" if for_tool else ""
    t.user(uuid, None, stamp, [text(f"[Request interrupted by user{suffix}]")])
    return "interrupt"


def denial(t: Transcript, uuid: str, stamp: str, tool_id: str) -> str:
    t.assistant(
        uuid + "-call",
        None,
        stamp,
        "msg_" + uuid,
        [tool_use(tool_id, "Bash", {"command": "git push --force"})],
        usage(1, 0, 100, 5),
    )
    t.user(uuid, uuid + "-call", stamp, [tool_result(tool_id, DENIAL_TEXT, True)])
    return "permission_denial"


def compaction(t: Transcript, uuid: str, stamp: str) -> str:
    t.system(
        uuid + "-boundary",
        None,
        stamp,
        "main",
        subtype="compact_boundary",
        content="Conversation compacted",
        isMeta=False,
        level="info",
        compactMetadata={"trigger": "manual", "preTokens": 91000},
    )
    t.user(
        uuid,
        uuid + "-boundary",
        stamp,
        "This session is being continued from a previous conversation that ran out of context. The "
        "conversation is summarized below:\nAnalysis: the user asked for retries in the billing sync job.",
        isCompactSummary=True,
        isVisibleInTranscriptOnly=True,
    )
    return "compact_summary"


def reminder(t: Transcript, uuid: str, stamp: str) -> str:
    t.user(
        uuid,
        None,
        stamp,
        [text("<system-reminder>\nThe TodoWrite tool hasn't been used recently.\n</system-reminder>")],
        isMeta=True,
    )
    return "system_reminder"


def bash_mode(t: Transcript, uuid: str, stamp: str) -> list[str]:
    t.user(uuid, None, stamp, "<bash-input>git log --oneline -3</bash-input>")
    t.user(
        uuid + "-out",
        uuid,
        stamp,
        "<bash-stdout>a1b2c3d fix(billing): retry sync\n</bash-stdout><bash-stderr></bash-stderr>",
    )
    return ["bash_mode", "bash_mode"]


def memory_input(t: Transcript, uuid: str, stamp: str) -> str:
    t.user(uuid, None, stamp, "<user-memory-input>always run make lint before committing</user-memory-input>")
    return "memory_input"


def teammate(t: Transcript, uuid: str, stamp: str) -> str:
    t.user(
        uuid,
        None,
        stamp,
        '<teammate-message teammate_id="researcher" color="blue" summary="found the helper">'
        "The retry helper lives in billing/sync.py.</teammate-message>",
    )
    return "teammate_message"


def queued_prompt(t: Transcript, uuid: str, stamp: str, words: str, removed: bool = True) -> None:
    """A person's message typed while Claude worked: queue bookkeeping, then the delivery."""
    t.record(
        {
            "type": "queue-operation",
            "operation": "enqueue",
            "timestamp": stamp,
            "sessionId": t.session_id,
            "content": words,
        }
    )
    if removed:
        t.record(
            {
                "type": "queue-operation",
                "operation": "remove",
                "timestamp": stamp,
                "sessionId": t.session_id,
                "content": words,
            }
        )
    attachment = {
        "type": "queued_command",
        "prompt": words,
        "commandMode": "prompt",
        "origin": {"kind": "human"},
    }
    t.record(_attachment(t, uuid, stamp, attachment))


def legacy_steering(t: Transcript, stamp: str, words: str) -> None:
    """Older versions: a message delivered mid-turn is only the queue's `remove` record."""
    t.record(
        {
            "type": "queue-operation",
            "operation": "enqueue",
            "timestamp": stamp,
            "sessionId": t.session_id,
            "content": words,
        }
    )
    t.record(
        {
            "type": "queue-operation",
            "operation": "remove",
            "timestamp": stamp,
            "sessionId": t.session_id,
            "content": words,
        }
    )


IMAGE = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}

PROMPTS_D = (
    "Add retries to the billing sync job and run the slow tests in the background.",
    "also log each retry attempt",
    "Now update the changelog.",
    "[image]",
    "[Image #1] why is the chart empty?",
    "Why does this loop never exit?",
    "Ship it: open the PR.",
)
"""Session D's human turns, in order (the second was typed while Claude worked)."""

INJECTED_D = {
    "task_notification": 4,
    "slash_command": 3,
    "command_output": 2,
    "bash_mode": 2,
    "caveat": 2,
    "compact_summary": 1,
    "expansion": 1,
    "hook_feedback": 1,
    "interrupt": 1,
    "memory_input": 1,
    "permission_denial": 1,
    "stop_hook": 1,
    "system_reminder": 1,
    "teammate_message": 1,
}
"""What session D's injected messages count, by kind."""


def session_d() -> bytes:
    """Every kind of message Claude Code 2.1 writes as a user record, among seven human turns; the
    last record is a task notification with its trailing sentence (the latest ask is still a person's)."""
    s = Transcript(SID_D, CWD_D, VERSION_D)
    day = "2026-03-02T14:"
    s.record(
        {
            "type": "queue-operation",
            "operation": "dequeue",
            "timestamp": day + "00:00.000Z",
            "sessionId": SID_D,
        }
    )
    hook_context(s, "d-h01", day + "00:00.100Z")
    s.user("d-u01", None, day + "00:01.000Z", PROMPTS_D[0])
    s.assistant(
        "d-a01",
        "d-u01",
        day + "00:05.000Z",
        "msg_d01",
        [tool_use("toolu_d01", "Bash", {"command": "make test-slow", "run_in_background": True})],
        usage(3, 900, 4000, 40),
    )
    s.user(
        "d-u02",
        "d-a01",
        day + "00:05.500Z",
        [tool_result("toolu_d01", "Command running in background with ID: b1a2c3d")],
        toolUseResult={"stdout": "", "stderr": "", "interrupted": False, "backgroundTaskId": "b1a2c3d"},
    )
    hook_bookkeeping(s, "d-h02", day + "00:05.600Z")
    queued_prompt(s, "d-q01", day + "00:06.000Z", PROMPTS_D[1])
    reminder(s, "d-u03", day + "00:07.000Z")
    caveat(s, "d-u04", day + "01:00.000Z")
    slash_command(s, "d-u05", day + "01:00.100Z")
    command_output(s, "d-u06", day + "01:00.200Z")
    local_command(s, "d-s01", day + "01:30.000Z")
    task_notification(s, "d-u07", day + "02:00.000Z", "b1a2c3d", "string")
    task_notification(s, "d-q02", day + "02:10.000Z", "b2b3c4d", "queued")
    s.user(
        "d-u08",
        None,
        day + "03:00.000Z",
        [
            text(PROMPTS_D[2]),
            text("<user-prompt-submit-hook>Changelog entries go under Unreleased.</user-prompt-submit-hook>"),
        ],
    )
    denial(s, "d-u09", day + "03:30.000Z", "toolu_d09")
    interrupt(s, "d-u10", day + "03:30.500Z", for_tool=True)
    custom_command(s, "d-u11", day + "04:00.000Z")
    compaction(s, "d-u12", day + "05:00.000Z")
    s.user("d-u13", None, day + "06:00.000Z", [IMAGE])
    s.user("d-u14", None, day + "06:30.000Z", [text(PROMPTS_D[4]), IMAGE])
    caveat(s, "d-u15", day + "07:00.000Z", wrapped=False)
    bash_mode(s, "d-u16", day + "07:00.100Z")
    memory_input(s, "d-u17", day + "07:30.000Z")
    teammate(s, "d-u18", day + "08:00.000Z")
    s.user(
        "d-u19",
        None,
        day + "08:30.000Z",
        [
            text(
                "<ide_selection>The user selected the lines 3 to 9 from /home/dev/src/billing/sync.py:\n"
                "while not done:\n    retry()\n\nThis may or may not be related to the current task.</ide_selection>"
            ),
            text(PROMPTS_D[5]),
        ],
    )
    stop_hook(s, "d-u20", day + "09:00.000Z")
    task_notification(s, "d-u21", day + "09:30.000Z", "b3c4d5e", "blocks")
    s.user("d-u22", None, day + "10:00.000Z", PROMPTS_D[6])
    s.assistant(
        "d-a22", "d-u22", day + "10:05.000Z", "msg_d22", [text("Opened PR #212.")], usage(2, 0, 5000, 30)
    )
    s.record({"type": "last-prompt", "lastPrompt": PROMPTS_D[6], "sessionId": SID_D})
    task_notification(s, "d-u23", day + "11:00.000Z", "b4d5e6f", "origin")
    return s.data()


def write_injected(root: Path) -> Path:
    """Session D (every injected kind) under `root`."""
    return _write(root, f"{DIR_D}/{SID_D}.jsonl", session_d(), MTIME_D)


def _write(root: Path, rel: str, data: bytes, mtime: int) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.utime(path, (mtime, mtime))
    return path


def write_ab(root: Path) -> dict[str, Path]:
    """Sessions A and B under `root`; A is the newer."""
    return {
        "A": _write(root, f"{DIR_A}/{SID_A}.jsonl", session_a(), MTIME_A),
        "B": _write(root, f"{DIR_B}/{SID_B}.jsonl", session_b(), MTIME_B),
    }


def write_extras(root: Path) -> dict[str, Path]:
    """Session C with its sidecar and legacy agent files, and an orphaned agent file."""
    return {
        "C": _write(root, f"{DIR_C}/{SID_C}.jsonl", session_c(), MTIME_C),
        "C-sub": _write(root, f"{DIR_C}/{SID_C}/subagents/agent-a1b2c3d4.jsonl", subagent_c(), MTIME_C - 60),
        "C-legacy": _write(root, f"{DIR_C}/agent-5e3a1b2c.jsonl", legacy_agent_c(), MTIME_C - 30),
        "orphan": _write(root, f"{DIR_C}/agent-0rphan00.jsonl", orphan_agent(), MTIME_C - 86400),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.cc.transcripts <projects_dir>", file=sys.stderr)
        return 2
    root = Path(argv[0])
    write_ab(root)
    write_extras(root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
