"""`cc_bash`: every shell command of a session, grouped by exact (redacted) text with counts and
categories, so hot loops — the same test run twelve times — stand out."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from sofia.errors import param
from sofia.output.budget import Shrink, fit
from sofia.providers.cc.categories import category as category_of
from sofia.providers.cc.notes import Cut, cut_note, reading_notes, result_tail
from sofia.providers.cc.opening import open_session
from sofia.providers.cc.params import ProjectsDir, Redact, SessionSelector, data_roots, wants_redaction
from sofia.providers.cc.summarise import cut, one_line
from sofia.providers.contract import Context, Implementation
from sofia.providers.params import Input

COMMAND_CHARS = 120
LIMIT_HINT = f"pass {param('limit', 0)} for all"

Category = Literal["", "test", "db", "git", "build", "search", "read", "fs", "other"]


class Params(Input):
    session: SessionSelector = ""
    category: Annotated[Category, Field(description="only commands of this category; empty = all")] = ""
    min_count: Annotated[int, Field(ge=1, description="only commands run at least this often")] = 1
    limit: Annotated[int, Field(ge=0, description="command rows; 0 = all")] = 30
    full: Annotated[
        bool, Field(description="untruncated commands (else one line of at most 120 characters)")
    ] = False
    subagents: Annotated[bool, Field(description="include commands run by subagents")] = True
    projects_dir: ProjectsDir = None


class CliParams(Params):
    redact: Redact = True


def run(params: Params, ctx: Context) -> dict[str, Any]:
    opened = open_session(params.session, params.projects_dir, ctx, wants_redaction(params), params.subagents)
    digest = opened.digest
    commands = dict(digest.main.commands)
    if params.subagents:
        for command, calls in digest.sub.commands.items():
            commands[command] = commands.get(command, 0) + calls
    grouped = [(calls, category_of(command), command) for command, calls in commands.items()]
    summary: dict[str, list[int]] = {}
    for calls, name, _ in grouped:
        entry = summary.setdefault(name, [0, 0])
        entry[0] += calls
        entry[1] += 1
    rows = sorted(
        (
            row
            for row in grouped
            if row[0] >= params.min_count and (not params.category or row[1] == params.category)
        ),
        key=lambda row: (-row[0], row[2]),
    )
    shown = min(params.limit, len(rows)) if params.limit else len(rows)
    reading = reading_notes(opened.sources)

    def build(k: dict[str, int]) -> dict[str, Any]:
        kept = rows[: k["rows"]]
        listed = Cut(
            "commands", "commands", len(rows), shown, k["rows"], param("limit", params.limit), LIMIT_HINT
        )
        notes = reading + cut_note(
            listed, ctx.budget, f"filter with {param('category')}/{param('min_count')}"
        )
        return {
            "id": opened.session.short_id,
            "project": opened.project,
            "summary": [
                {"category": name, "calls": calls, "unique": unique}
                for name, (calls, unique) in sorted(summary.items(), key=lambda kv: (-kv[1][0], kv[0]))
            ],
            "commands": [
                {
                    "count": calls,
                    "category": name,
                    "command": command if params.full else cut(one_line(command), COMMAND_CHARS),
                }
                for calls, name, command in kept
            ],
            "unique_total": len(grouped),
            **result_tail(
                digest.redactions_in(*(command for _, _, command in kept)),
                notes,
                {"commands": len(rows) - k["rows"]},
            ),
        }

    return fit(build, {"rows": shown}, [Shrink("rows")], ctx.budget)


IMPLEMENTATION = Implementation(params=Params, run=run, cli_params=CliParams, extra_roots=data_roots)
