"""`cc_ls`: one row per main session across all projects, newest first by `latest.newest_first`
(about 22 tokens a row)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from sofia.errors import param
from sofia.output.budget import Shrink, fit
from sofia.output.notes import plural
from sofia.providers.cc import mdtext, timefmt
from sofia.providers.cc.digest import Digest
from sofia.providers.cc.discovery import Session, list_sessions, resolve_root
from sofia.providers.cc.latest import newest_first, updated
from sofia.providers.cc.loading import Loader, attribute_legacy_agents
from sofia.providers.cc.notes import Cut, cut_note, label, named_paths, reading_notes, result_tail
from sofia.providers.cc.opening import filter_sessions, project_matches
from sofia.providers.cc.params import ProjectFilter, ProjectsDir, Redact, Since, data_roots, wants_redaction
from sofia.providers.cc.selector import project_label
from sofia.providers.cc.summarise import cut, one_line
from sofia.providers.contract import Context, Implementation
from sofia.providers.params import Input

TITLE_CHARS = 60


class Params(Input):
    projects_dir: ProjectsDir = None
    project: ProjectFilter = ""
    since: Since = ""
    limit: Annotated[int, Field(ge=0, description="rows after sorting newest first; 0 = all")] = 30


class CliParams(Params):
    redact: Redact = True


def run(params: Params, ctx: Context) -> dict[str, Any]:
    root = resolve_root(params.projects_dir, ctx)
    listing = list_sessions(root)
    attribution = attribute_legacy_agents(listing)
    sessions = filter_sessions(listing.sessions, params.since, params.project, ctx)
    wanted = params.project.strip().lower()
    loader = Loader(ctx, wants_redaction(params))
    digests = loader.digests(((s.file, None) for s in sessions), "sessions")
    found: list[tuple[dict[str, Any], Session, Digest]] = []
    for session in sessions:
        digest = digests.get(session.file.path)
        if digest is None or (wanted and not project_matches(session, digest.cwd, wanted)):
            continue
        agents = len(session.agent_files) + len(attribution.by_session.get(session.full_id, []))
        found.append((_row(session, digest, agents), session, digest))
    found.sort(key=lambda item: newest_first(item[1], item[2]))
    notes = []
    unreadable = listing.unreadable + loader.unreadable
    if unreadable:
        notes.append(named_paths(f"{len(unreadable)} unreadable", unreadable))
    if attribution.orphans:
        notes.append(
            named_paths(
                f"{len(attribution.orphans)} {plural('agent files', len(attribution.orphans))} without a session",
                attribution.orphans,
            )
        )
    notes += reading_notes([(label(s.file.path, root), d) for _, s, d in found])
    stats = {
        "files": len(digests),
        "malformed_lines": sum(digest.malformed_lines for _, _, digest in found),
        "unreadable": len(unreadable),
    }
    matched = len(found)
    shown = min(params.limit, matched) if params.limit else matched

    def build(knobs: dict[str, int]) -> dict[str, Any]:
        rows = found[: knobs["rows"]]
        listed = Cut(
            "sessions",
            "sessions",
            matched,
            shown,
            knobs["rows"],
            param("limit", params.limit),
            f"pass {param('limit', 0)} for all",
        )
        more = notes + cut_note(listed, ctx.budget, f"narrow with {param('project')}/{param('since')}")
        redactions = sum(d.redactions_in(d.title, d.branch) for _, _, d in rows)
        return {
            "sessions": [row for row, _, _ in rows],
            "matched": matched,
            "stats": stats,
            **result_tail(redactions, more, {"sessions": matched - knobs["rows"]}),
        }

    return fit(build, {"rows": shown}, [Shrink("rows")], ctx.budget)


def _row(session: Session, digest: Digest, agents: int) -> dict[str, Any]:
    return {
        "id": session.short_id,
        "project": project_label(digest.cwd, session.project_dir),
        "title": cut(one_line(digest.title), TITLE_CHARS),
        "updated": timefmt.minutes(updated(session, digest)),
        "messages": digest.messages,
        "prompts": digest.prompts_total,
        "subagents": len(digest.agents) + agents,
        "out_tokens": digest.main.usage[1],
        "cache_read": digest.main.usage[2],
        "branch": digest.branch,
        "prs": len(digest.prs),
    }


def render(result: dict[str, Any], fmt: str) -> str | None:
    """Markdown: `# Sessions (n of matched)` and one table; other formats use the generic renderers."""
    if fmt != "md":
        return None
    rows = result["sessions"]
    lines = [f"# Sessions ({len(rows)} of {result['matched']})", ""]
    lines += mdtext.table(rows) or ["No sessions."]
    lines.append("")
    lines += mdtext.notes(result)
    return mdtext.join(lines)


IMPLEMENTATION = Implementation(
    params=Params, run=run, cli_params=CliParams, render=render, extra_roots=data_roots
)
