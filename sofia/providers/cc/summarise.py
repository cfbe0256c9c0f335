"""How the cc tools summarise what a session did: a tool call in a few words, which tool touches
which file, and the text forms of the outputs (what a human turn is lives in `classify`)."""

from __future__ import annotations

MAX_PROMPTS = 2000
"""Human turns stored per session; `prompts_total` still counts all of them."""

BRIEF_INPUT = {
    "Bash": "command",
    "Read": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "Write": "file_path",
    "NotebookEdit": "notebook_path",
    "Grep": "pattern",
    "Glob": "pattern",
    "Task": "description",
    "Agent": "description",
    "WebFetch": "url",
}
"""The input field that tells what a call was about."""

FILE_TOUCH = {"Read": 0, "Edit": 1, "MultiEdit": 1, "Write": 2, "NotebookEdit": 2}
"""Tool -> index into [reads, edits, writes]."""

BRIEF_CHARS = 100


def one_line(text: str) -> str:
    return text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def cut(text: str, limit: int) -> str:
    """At most `limit` characters: the first limit-1 and `…` when longer."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"


def brief(tool: str, source: str) -> str:
    """What a call was about in at most 100 characters (the tool name when the input says nothing)."""
    return cut(one_line(source), BRIEF_CHARS) if source else tool


def collapse(text: str) -> str:
    """Runs of whitespace as single spaces."""
    return " ".join(text.split())


def relative_to(path: str, cwd: str) -> str:
    """`path` relative to `cwd` when it lies inside it (lexically), else unchanged."""
    if not cwd or not path.startswith("/"):
        return path
    base = cwd.rstrip("/") + "/"
    return path[len(base) :] if path.startswith(base) and len(path) > len(base) else path
