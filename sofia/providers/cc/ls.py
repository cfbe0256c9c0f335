"""`cc_ls`: one row per main session across all projects, newest first (about 22 tokens a row)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from sofia.providers.contract import Context

from . import mdtext, timefmt
from .common import ProjectFilter, ProjectsDir, Redact, Since, named_paths, result_tail, wants_redaction
from .digest import Digest
from .discovery import Session, list_sessions, parse_since, peek, resolve_root
from .fitting import Shrink, fit
from .loading import Loader, attribute_legacy_agents
from .rules import cut, one_line
from .selector import project_label

TITLE_CHARS = 60


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")

    projects_dir: ProjectsDir = None
    project: ProjectFilter = ""
    since: Since = ""
    limit: Annotated[int, Field(ge=0, description="rows after sorting newest first; 0 = all")] = 30


class CliParams(Params):
    redact: Redact = True


def run(params: Params, ctx: Context) -> dict[str, Any]:
    root = resolve_root(params.projects_dir, ctx)
    window = parse_since(params.since)
    listing = list_sessions(root)
    attribution = attribute_legacy_agents(listing)
    sessions = listing.sessions
    if window is not None:
        threshold = ctx.clock() - window
        sessions = [s for s in sessions if s.file.mtime >= threshold]
    wanted = params.project.strip().lower()
    if wanted:
        sessions = [s for s in sessions if _may_match(s, wanted)]
    loader = Loader(ctx, wants_redaction(params))
    digests = loader.digests(((s.file, None) for s in sessions), "sessions")
    found: list[tuple[dict[str, Any], Session, Digest]] = []
    for session in sessions:
        digest = digests.get(session.file.path)
        if digest is None or (wanted and not _matches(session, digest.cwd, wanted)):
            continue
        agents = len(session.agent_files) + len(attribution.by_session.get(session.full_id, []))
        found.append((_row(session, digest, agents), session, digest))
    found.sort(key=lambda item: item[1].full_id)
    found.sort(key=lambda item: item[0]["updated"], reverse=True)
    notes = []
    unreadable = listing.unreadable + loader.unreadable
    if unreadable:
        notes.append(named_paths(f"{len(unreadable)} unreadable", unreadable))
    if attribution.orphans:
        notes.append(
            named_paths(f"{len(attribution.orphans)} agent files without their session", attribution.orphans)
        )
    stats = {
        "files": len(digests),
        "malformed_lines": sum(digest.malformed_lines for _, _, digest in found),
        "unreadable": len(unreadable),
    }
    matched = len(found)
    shown = min(params.limit, matched) if params.limit else matched

    def build(knobs: dict[str, int]) -> dict[str, Any]:
        rows = found[: knobs["rows"]]
        more = list(notes)
        if shown < matched:
            more.append(f"{matched - shown} older sessions beyond limit={params.limit}; pass limit=0 for all")
        if knobs["rows"] < shown:
            more.append(
                f"{shown - knobs['rows']} sessions omitted to fit the output budget; narrow with project/since"
            )
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
        "updated": timefmt.minutes(digest.end if digest.end is not None else session.file.mtime),
        "messages": digest.messages,
        "prompts": digest.prompts_total,
        "subagents": len(digest.agents) + agents,
        "out_tokens": digest.main.usage[1],
        "cache_read": digest.main.usage[2],
        "branch": digest.branch,
        "prs": len(digest.prs),
    }


def _matches(session: Session, cwd: str, wanted: str) -> bool:
    label = project_label(cwd, session.project_dir)
    return wanted in label.lower() or wanted in session.project_dir.lower() or wanted in cwd.lower()


def _may_match(session: Session, wanted: str) -> bool:
    """A cheap look at the transcript's head; undecided when it names no cwd there."""
    cwd = peek(session.file.path)[0]
    return not cwd or _matches(session, cwd, wanted)


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
