"""`cc_prompts`: the human turns of a session, verbatim and in order (main thread only)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from sofia.errors import param
from sofia.output.budget import Lower, Shrink, fit, note
from sofia.providers.cc.notes import BIGGER, kept_prompts_note, reading_notes, result_tail, texts_note
from sofia.providers.cc.opening import open_session
from sofia.providers.cc.params import ProjectsDir, Redact, SessionSelector, data_roots, wants_redaction
from sofia.providers.cc.summarise import cut
from sofia.providers.contract import Context, Implementation
from sofia.providers.params import Input

TEXT_CHARS = 2000


class Params(Input):
    session: SessionSelector = ""
    offset: Annotated[
        int, Field(ge=0, description="skip the first N prompts (to continue a shortened list)")
    ] = 0
    projects_dir: ProjectsDir = None


class CliParams(Params):
    redact: Redact = True


def run(params: Params, ctx: Context) -> dict[str, Any]:
    opened = open_session(params.session, params.projects_dir, ctx, wants_redaction(params), subagents=False)
    digest = opened.digest
    available = list(enumerate(digest.prompts, 1))[params.offset :]
    longest = max((len(text) for _, text in available), default=0)
    knobs = {"chars": max(longest, TEXT_CHARS), "rows": len(available)}
    reading = reading_notes(opened.sources)

    def build(k: dict[str, int]) -> dict[str, Any]:
        rows = available[: k["rows"]]
        notes = kept_prompts_note(digest) + reading
        notes += texts_note("prompts", [text for _, text in rows], k["chars"], longest, ctx.budget, BIGGER)
        if len(rows) < len(available):
            first_left_out = rows[-1][0] + 1 if rows else params.offset + 1
            hint = f"prompts {first_left_out}–{available[-1][0]} follow; call again with {param('offset', first_left_out - 1)}"
            notes.append(note("prompts", len(rows), len(available), "prompts", ctx.budget, hint))
        return {
            "id": opened.session.short_id,
            "project": opened.project,
            "total": digest.prompts_total,
            "offset": params.offset,
            "prompts": [{"i": i, "text": cut(text, k["chars"])} for i, text in rows],
            **result_tail(
                digest.redactions_in(*(text for _, text in rows)),
                notes,
                {"prompts": len(available) - len(rows)},
            ),
        }

    return fit(build, knobs, (Lower({"chars": TEXT_CHARS}), Shrink("rows")), ctx.budget)


IMPLEMENTATION = Implementation(params=Params, run=run, cli_params=CliParams, extra_roots=data_roots)
