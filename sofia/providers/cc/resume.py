"""`cc_resume`: a restart brief — the goal, the latest ask, what the assistant said last, open todos
and the working set — to continue a session's work in a fresh one."""

from __future__ import annotations

from typing import Any

from sofia.output.budget import Lower, Shrink, fit
from sofia.providers.cc import timefmt
from sofia.providers.cc.digest import Digest
from sofia.providers.cc.notes import (
    BIGGER,
    Cut,
    cut_note,
    kept_prompts_note,
    reading_notes,
    result_tail,
    texts_note,
)
from sofia.providers.cc.opening import open_session
from sofia.providers.cc.params import SessionCliParams, SessionParams, data_roots, wants_redaction
from sofia.providers.cc.summarise import collapse, cut, one_line, relative_to
from sofia.providers.contract import Context, Implementation

ASK_CHARS = 240
NEXT_CHARS = 600
TODOS_SHOWN = 10
TODO_CHARS = 120
FILES_SHOWN = 12

LADDER = (Shrink("files", 6), Shrink("todos", 5), Lower({"next": 300}))


Params = SessionParams
CliParams = SessionCliParams


def run(params: Params, ctx: Context) -> dict[str, Any]:
    opened = open_session(params.session, params.projects_dir, ctx, wants_redaction(params), subagents=False)
    digest = opened.digest
    first, last = _asks(digest)
    goal, now = collapse(first), collapse(last)
    files = sorted(
        digest.main.files.items(),
        key=lambda item: (-(item[1][1] + item[1][2]), -item[1][0], relative_to(item[0], digest.cwd)),
    )
    knobs = {
        "files": min(FILES_SHOWN, len(files)),
        "todos": min(TODOS_SHOWN, len(digest.todos)),
        "next": NEXT_CHARS,
    }
    last_said = collapse(digest.last_text)
    base_notes = kept_prompts_note(digest) + reading_notes(opened.sources)
    if not digest.prompts:
        base_notes.append("no human prompts in this session")

    def build(k: dict[str, int]) -> dict[str, Any]:
        todos = digest.todos[: k["todos"]]
        shown_files = files[: k["files"]]
        notes = base_notes + _cut_notes(
            len(digest.todos), len(todos), len(files), len(shown_files), ctx.budget
        )
        notes += texts_note("next", [last_said], k["next"], NEXT_CHARS, ctx.budget, BIGGER)
        shown_texts = [
            digest.branch,
            first,
            last,
            digest.last_text,
            *(content for _, content in todos),
            *(path for path, _ in shown_files),
        ]
        return {
            "project": opened.project,
            "branch": digest.branch,
            "session": opened.session.short_id,
            "updated": timefmt.seconds(opened.updated),
            "age": timefmt.duration(ctx.clock() - opened.updated),
            "messages": digest.messages,
            "injected": digest.injected,
            "goal": cut(goal, ASK_CHARS),
            "now": cut(now, ASK_CHARS),
            "next": cut(last_said, k["next"]),
            "todos": [
                {"status": status, "content": cut(one_line(content), TODO_CHARS)} for status, content in todos
            ],
            "files": [
                {"path": relative_to(path, digest.cwd), "reads": t[0], "edits": t[1], "writes": t[2]}
                for path, t in shown_files
            ],
            **result_tail(
                digest.redactions_in(*shown_texts),
                notes,
                {"todos": len(digest.todos) - len(todos), "files": len(files) - len(shown_files)},
            ),
        }

    return fit(build, knobs, LADDER, ctx.budget)


def _asks(digest: Digest) -> tuple[str, str]:
    """The first prompt (the goal) and the last one (the latest ask), "" for the last when it
    says what the first does."""
    first = digest.prompts[0] if digest.prompts else ""
    last = digest.prompts[-1] if digest.prompts else ""
    return (first, "") if collapse(last) == collapse(first) else (first, last)


def _cut_notes(todos: int, todos_shown: int, files: int, files_shown: int, budget: int | None) -> list[str]:
    """A note for the todos and for the files not shown, by the per-list limit or the budget."""
    notes: list[str] = []
    for listed in (
        Cut("todos", "todos", todos, min(TODOS_SHOWN, todos), todos_shown),
        Cut("files", "files", files, min(FILES_SHOWN, files), files_shown),
    ):
        notes += cut_note(listed, budget, BIGGER)
    return notes


IMPLEMENTATION = Implementation(params=Params, run=run, cli_params=CliParams, extra_roots=data_roots)
