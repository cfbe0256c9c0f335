"""The Claude Code session tools (docs/cc.md): every answer ends with the redactions made and notes."""

from __future__ import annotations

from typing import Any

from sofia.providers.shapes.common import NOTES, OMITTED

TAIL: dict[str, Any] = {"redactions": "int", "notes": NOTES, "omitted?": OMITTED}
"""How many secrets were replaced by `[REDACTED:kind]`, the notes, what was left out."""
FILES = [{"path": "str", "reads": "int", "edits": "int", "writes": "int"}]
PROMPTS = [{"i": "int", "text": "str"}]
INJECTED = {"*": "int"}
"""Text the harness put in the transcript as if typed (compaction summaries, reminders), by kind."""

SHAPES = {
    "cc_ls": {
        "sessions": [
            {
                "id": "str",
                "project": "str",
                "title": "str",
                "updated": "str",
                "messages": "int",
                "prompts": "int",
                "subagents": "int",
                "out_tokens": "int",
                "cache_read": "int",
                "branch": "str",
                "prs": "int",
            }
        ],
        "matched": "int",
        "stats": {"files": "int", "malformed_lines": "int", "unreadable": "int"},
        **TAIL,
    },
    "cc_show": {
        "session": {
            "id": "str",
            "full_id": "str",
            "project": "str",
            "cwd": "str",
            "branch": "str",
            "model": "str",
            "version": "str",
            "title": "str",
            "start": "str",
            "end": "str",
            "duration": "str",
            "messages": "int",
            "size_bytes": "int",
            "api_errors": "int",
            "malformed_lines": "int",
        },
        "tokens": {"input": "int", "output": "int", "cache_read": "int", "cache_create": "int"},
        "prompts_total": "int",
        "prompts": PROMPTS,
        "injected": INJECTED,
        "tools": [{"tool": "str", "calls": "int", "result_tokens": "int"}],
        "unattributed_result_tokens": "int",
        "bash": [{"category": "str", "calls": "int"}],
        "files": FILES,
        "fat_results": [{"tokens": "int", "tool": "str", "brief": "str"}],
        "prs": [{"number": "int", "url": "str"}],
        "subagents": {
            "count": "int",
            "tool_calls": "int",
            "output_tokens": "int",
            "tasks": [{"agent": "str", "task": "str", "tool_calls": "int", "output_tokens": "int"}],
        },
        "last_text": "str",
        **TAIL,
    },
    "cc_resume": {
        "project": "str",
        "branch": "str",
        "session": "str",
        "updated": "str",
        "age": "str",
        "messages": "int",
        "injected": INJECTED,
        "goal": "str",
        "now": "str",
        "next": "str",
        "todos": [{"status": "str", "content": "str"}],
        "files": FILES,
        **TAIL,
    },
    "cc_prompts": {
        "id": "str",
        "project": "str",
        "total": "int",
        "offset": "int",
        "prompts": PROMPTS,
        **TAIL,
    },
    "cc_bash": {
        "id": "str",
        "project": "str",
        "summary": [{"category": "str", "calls": "int", "unique": "int"}],
        "commands": [{"count": "int", "category": "str", "command": "str"}],
        "unique_total": "int",
        **TAIL,
    },
    "cc_candidates": {
        "scanned_sessions": "int",
        "heavy_tools": [{"tool": "str", "calls": "int", "result_tokens": "int", "suggestion": "str"}],
        "repeated_commands": [{"count": "int", "sessions": "int", "category": "str", "command": "str"}],
        "repeated_reads": [{"reads": "int", "sessions": "int", "path": "str"}],
        **TAIL,
    },
}
