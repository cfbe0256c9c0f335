"""`cc_candidates`: across sessions, where tool-result tokens go and which commands and reads repeat —
evidence for building or adopting a dedicated deterministic tool. Main and subagent activity both
count: tokens are spent either way."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from sofia.errors import param
from sofia.output.budget import Shrink, fit
from sofia.providers.cc.categories import category
from sofia.providers.cc.digest import Digest, Thread
from sofia.providers.cc.discovery import Session, list_sessions, resolve_root
from sofia.providers.cc.loading import Attribution, Loader, agent_files, attribute_legacy_agents, with_agents
from sofia.providers.cc.notes import Cut, cut_note, label, named_paths, reading_notes, result_tail
from sofia.providers.cc.opening import filter_sessions, project_matches, selecting
from sofia.providers.cc.parallel import Job
from sofia.providers.cc.params import (
    SESSION_PATH,
    ProjectFilter,
    ProjectsDir,
    Redact,
    Since,
    data_roots,
    wants_redaction,
)
from sofia.providers.cc.selector import select
from sofia.providers.cc.summarise import cut, one_line
from sofia.providers.contract import Cli, Context, Implementation
from sofia.providers.params import Input

COMMAND_CHARS = 140
LIMIT_HINT = f"pass {param('limit', 0)} for all"
BUDGET_HINT = f"raise {param('min_count')} or narrow with {param('project')}/{param('since')}"

SUGGESTIONS = {
    "Grep": "sofia grep (hits with enclosing function)",
    "Bash": "see repeated_commands",
    "Read": "sofia code (structure before full reads)",
    "Glob": "sofia code on the directory (files with their symbols)",
}
"""What could replace a heavy tool; tools without an entry get ""."""


class Params(Input):
    session: Annotated[
        str,
        Field(
            description="one session (with its subagents) by id prefix, project, 'last' or path; empty = all"
        ),
        Cli(positional=True, metavar="SESSION"),
        SESSION_PATH,
    ] = ""
    project: ProjectFilter = ""
    since: Since = ""
    min_count: Annotated[int, Field(ge=1, description="threshold of the repeated lists")] = 2
    limit: Annotated[int, Field(ge=0, description="rows per repeated list; 0 = all")] = 20
    projects_dir: ProjectsDir = None


class CliParams(Params):
    redact: Redact = True


def run(params: Params, ctx: Context) -> dict[str, Any]:
    loader = Loader(ctx, wants_redaction(params))
    notes: list[str] = []
    if params.session.strip():
        session, listing = select(params.session, params.projects_dir, ctx, selecting(loader))
        attribution = attribute_legacy_agents(listing) if listing is not None else None
        digests, sources = _load(loader, [session], attribution, listing.root if listing else None)
    else:
        root = resolve_root(params.projects_dir, ctx)
        listing = list_sessions(root)
        sessions = filter_sessions(listing.sessions, params.since, params.project, ctx)
        wanted = params.project.strip().lower()
        attribution = attribute_legacy_agents(listing)
        digests, sources = _load(loader, sessions, attribution, root)
        if wanted:
            digests = [(s, d) for s, d in digests if project_matches(s, d.cwd, wanted)]
            kept = {s.full_id for s, _ in digests}
            sources = [source for source in sources if source[0] in kept]
        if listing.unreadable:
            loader.unreadable += listing.unreadable
    if loader.unreadable:
        notes.append(named_paths(f"{len(loader.unreadable)} unreadable", loader.unreadable))
    notes += reading_notes([(name, digest) for _, name, digest in sources])
    return _report(digests, params, notes, ctx.budget)


def _load(
    loader: Loader, sessions: list[Session], attribution: Attribution | None, root: Path | None
) -> tuple[list[tuple[Session, Digest]], list[tuple[str, str, Digest]]]:
    """Each readable session with its subagent files folded in, and (session id, label, digest) of
    every file read, for the notes."""
    agents = {s.full_id: agent_files(s, attribution) for s in sessions}
    jobs: list[Job] = [(s.file, None) for s in sessions]
    jobs += [(file, agent) for s in sessions for agent, file in agents[s.full_id]]
    digests = loader.digests(jobs, "sessions")
    out = []
    sources = []
    for session in sessions:
        main = digests.get(session.file.path)
        if main is not None:
            out.append((session, with_agents(main, agents[session.full_id], digests)))
            sources.append((session.full_id, label(session.file.path, root), main))
            sources += [
                (session.full_id, label(file.path, root), digests[file.path])
                for _, file in agents[session.full_id]
                if file.path in digests
            ]
    return out, sources


def _report(
    digests: list[tuple[Session, Digest]], params: Params, notes: list[str], budget: int | None
) -> dict[str, Any]:
    tools, commands, reads = _tallies(digests)
    heavy = [
        {"tool": name, "calls": calls, "result_tokens": tokens, "suggestion": SUGGESTIONS.get(name, "")}
        for name, (calls, tokens) in sorted(tools.items(), key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))
    ]
    repeated_commands = _repeated(commands, params.min_count)
    repeated_reads = _repeated(reads, params.min_count)
    limit_commands = _limited(len(repeated_commands), params.limit)
    limit_reads = _limited(len(repeated_reads), params.limit)
    limit = param("limit", params.limit)

    def build(k: dict[str, int]) -> dict[str, Any]:
        n_commands, n_reads = _alternate(limit_commands, limit_reads, k["kept"])
        kept_commands = repeated_commands[:n_commands]
        kept_reads = repeated_reads[:n_reads]
        more = list(notes)
        for listed in (
            Cut(
                "repeated_commands",
                "commands",
                len(repeated_commands),
                limit_commands,
                n_commands,
                limit,
                LIMIT_HINT,
            ),
            Cut("repeated_reads", "reads", len(repeated_reads), limit_reads, n_reads, limit, LIMIT_HINT),
        ):
            more += cut_note(listed, budget, BUDGET_HINT)
        secrets = sum(row[3] for row in kept_commands) + sum(row[3] for row in kept_reads)
        return {
            "scanned_sessions": len(digests),
            "heavy_tools": heavy,
            "repeated_commands": [
                {
                    "count": count,
                    "sessions": sessions,
                    "category": category(text),
                    "command": cut(one_line(text), COMMAND_CHARS),
                }
                for count, sessions, text, _ in kept_commands
            ],
            "repeated_reads": [
                {"reads": count, "sessions": sessions, "path": text}
                for count, sessions, text, _ in kept_reads
            ],
            **result_tail(
                secrets,
                more,
                {
                    "repeated_commands": len(repeated_commands) - n_commands,
                    "repeated_reads": len(repeated_reads) - n_reads,
                },
            ),
        }

    return fit(build, {"kept": limit_commands + limit_reads}, [Shrink("kept")], budget)


Tally = dict[str, tuple[int, set[str], int]]
"""Per command or path: how often, in which sessions, and the secrets its text holds."""


def _tallies(digests: list[tuple[Session, Digest]]) -> tuple[dict[str, list[int]], Tally, Tally]:
    """Over every session and its subagents: (calls, result tokens) per tool, and the tallies
    of the commands run and the files read."""
    tools: dict[str, list[int]] = {}
    commands: Tally = {}
    reads: Tally = {}
    for session, digest in digests:
        for thread in (digest.main, digest.sub):
            _add_tools(tools, thread)
            for command, calls in thread.commands.items():
                count, seen, secrets = commands.get(command, (0, set(), digest.redactions_in(command)))
                seen.add(session.full_id)
                commands[command] = (count + calls, seen, secrets)
            for path, touches in thread.files.items():
                if touches[0]:
                    count, seen, secrets = reads.get(path, (0, set(), digest.redactions_in(path)))
                    seen.add(session.full_id)
                    reads[path] = (count + touches[0], seen, secrets)
    return tools, commands, reads


def _add_tools(tools: dict[str, list[int]], thread: Thread) -> None:
    for name, calls in thread.tool_calls.items():
        entry = tools.setdefault(name, [0, 0])
        entry[0] += calls
    for name, tokens in thread.result_tokens.items():
        entry = tools.setdefault(name, [0, 0])
        entry[1] += tokens


def _repeated(counts: dict[str, tuple[int, set[str], int]], minimum: int) -> list[tuple[int, int, str, int]]:
    """(count, sessions, text, secrets) at or above `minimum`, count desc then text."""
    rows = [
        (count, len(seen), text, secrets)
        for text, (count, seen, secrets) in counts.items()
        if count >= minimum
    ]
    return sorted(rows, key=lambda row: (-row[0], row[2]))


def _limited(count: int, limit: int) -> int:
    return min(count, limit) if limit else count


def _alternate(commands: int, reads: int, kept: int) -> tuple[int, int]:
    """Rows left in each list when `commands + reads - kept` rows are taken from their ends in turn,
    starting with the commands."""
    drop = commands + reads - kept
    from_commands = min(commands, (drop + 1) // 2)
    from_reads = min(reads, drop - from_commands)
    from_commands = drop - from_reads
    return commands - from_commands, reads - from_reads


IMPLEMENTATION = Implementation(params=Params, run=run, cli_params=CliParams, extra_roots=data_roots)
