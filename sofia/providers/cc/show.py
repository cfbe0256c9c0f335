"""`cc_show`: what happened in a session, in a few hundred tokens, without reading the transcript."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sofia.errors import tool
from sofia.output.budget import Lower, Shrink, fit, note
from sofia.providers.cc import mdtext, timefmt
from sofia.providers.cc.categories import category
from sofia.providers.cc.notes import (
    BIGGER,
    Cut,
    cut_note,
    kept_prompts_note,
    reading_notes,
    result_tail,
    texts_note,
)
from sofia.providers.cc.opening import Opened, open_session
from sofia.providers.cc.params import SessionCliParams, SessionParams, data_roots, wants_redaction
from sofia.providers.cc.summarise import cut, one_line, relative_to
from sofia.providers.contract import Context, Implementation

PROMPT_CHARS = 200
PROMPTS_HEAD = 10
PROMPTS_TAIL = 5
FILES_SHOWN = 20
FAT_SHOWN = 15
TASKS_SHOWN = 10
TASK_CHARS = 120
LAST_TEXT_CHARS = 600
PROMPTS_HINT = f"{tool('cc_prompts')} returns them verbatim"

LADDER = (
    Lower({"prompt_chars": 100}),
    Shrink("files", 10),
    Shrink("fat", 5),
    Shrink("tasks", 3),
    Lower({"head": 3, "tail": 2}),
    Lower({"last_text": 200}),
)


Params = SessionParams
CliParams = SessionCliParams


def run(params: Params, ctx: Context) -> dict[str, Any]:
    opened = open_session(params.session, params.projects_dir, ctx, wants_redaction(params), subagents=True)
    digest = opened.digest
    view = _View(
        opened=opened,
        files=_file_rows(digest.main.files, digest.cwd),
        tasks=sorted(digest.agents.items(), key=lambda item: (-item[1].output_tokens, item[0])),
        budget=ctx.budget,
        reading=reading_notes(opened.sources),
    )
    knobs = {
        "prompt_chars": PROMPT_CHARS,
        "head": PROMPTS_HEAD,
        "tail": PROMPTS_TAIL,
        "files": min(FILES_SHOWN, len(view.files)),
        "fat": min(FAT_SHOWN, len(digest.fat_results)),
        "tasks": min(TASKS_SHOWN, len(view.tasks)),
        "last_text": LAST_TEXT_CHARS,
    }
    return fit(view.build, knobs, LADDER, ctx.budget)


@dataclass(frozen=True)
class _Shown:
    """What one rung of the ladder shows of each list."""

    prompts: list[tuple[int, str]]
    files: list[tuple[str, list[int]]]
    fat: list[Any]
    tasks: list[tuple[str, Any]]


@dataclass(frozen=True)
class _View:
    """The digest of one session and the lists the budget shortens; `build(knobs)` is one rung."""

    opened: Opened
    files: list[tuple[str, list[int]]]
    tasks: list[tuple[str, Any]]
    budget: int | None
    reading: list[str]

    def build(self, k: dict[str, int]) -> dict[str, Any]:
        digest = self.opened.digest
        shown = _Shown(
            _pick_prompts(digest.prompts, k["head"], k["tail"]),
            self.files[: k["files"]],
            digest.fat_results[: k["fat"]],
            self.tasks[: k["tasks"]],
        )
        omitted = {
            "prompts": digest.prompts_total - len(shown.prompts),
            "files": len(self.files) - len(shown.files),
            "fat_results": digest.fat_total - len(shown.fat),
            "subagents.tasks": len(self.tasks) - len(shown.tasks),
        }
        return {
            "session": _identity(self.opened),
            "tokens": dict(
                zip(("input", "output", "cache_read", "cache_create"), digest.main.usage, strict=True)
            ),
            "prompts_total": digest.prompts_total,
            "prompts": [
                {"i": i, "text": cut(one_line(text), k["prompt_chars"])} for i, text in shown.prompts
            ],
            "injected": digest.injected,
            "tools": _tools(digest.main.tool_calls, digest.main.result_tokens),
            "unattributed_result_tokens": digest.main.unattributed,
            "bash": _categories(digest.main.commands),
            "files": [
                {"path": relative_to(path, digest.cwd), "reads": t[0], "edits": t[1], "writes": t[2]}
                for path, t in shown.files
            ],
            "fat_results": [{"tokens": row[0], "tool": row[1], "brief": row[2]} for row in shown.fat],
            "prs": [{"number": number, "url": url} for number, url in digest.prs],
            "subagents": self._subagents(shown.tasks),
            "last_text": cut(digest.last_text, k["last_text"]),
            **result_tail(digest.redactions_in(*self._texts(shown)), self._notes(k, shown), omitted),
        }

    def _notes(self, k: dict[str, int], shown: _Shown) -> list[str]:
        """The reading notes, then one note per list or text the rung shortened."""
        digest = self.opened.digest
        notes = kept_prompts_note(digest) + self.reading
        if len(shown.prompts) < digest.prompts_total:
            by_budget = len(shown.prompts) < len(_pick_prompts(digest.prompts, PROMPTS_HEAD, PROMPTS_TAIL))
            notes.append(
                note(
                    "prompts",
                    len(shown.prompts),
                    digest.prompts_total,
                    "prompts",
                    self.budget if by_budget else None,
                    PROMPTS_HINT,
                    limit=f"first {k['head']} and last {k['tail']}",
                )
            )
        files, fat, tasks = len(self.files), digest.fat_total, len(self.tasks)
        for listed in (
            Cut("files", "files", files, min(FILES_SHOWN, files), len(shown.files)),
            Cut("fat_results", "results", fat, min(FAT_SHOWN, fat), len(shown.fat)),
            Cut("subagents.tasks", "tasks", tasks, min(TASKS_SHOWN, tasks), len(shown.tasks)),
        ):
            notes += cut_note(listed, self.budget, BIGGER)
        prompts = [one_line(text) for _, text in shown.prompts]
        notes += texts_note("prompts", prompts, k["prompt_chars"], PROMPT_CHARS, self.budget, PROMPTS_HINT)
        notes += texts_note(
            "last_text", [digest.last_text], k["last_text"], LAST_TEXT_CHARS, self.budget, BIGGER
        )
        return notes

    def _subagents(self, tasks: list[tuple[str, Any]]) -> dict[str, Any]:
        digest = self.opened.digest
        return {
            "count": len(self.tasks),
            "tool_calls": sum(digest.sub.tool_calls.values()),
            "output_tokens": digest.sub.usage[1],
            "tasks": [
                {
                    "agent": key,
                    "task": cut(one_line(agent.task), TASK_CHARS),
                    "tool_calls": agent.tool_calls,
                    "output_tokens": agent.output_tokens,
                }
                for key, agent in tasks
            ],
        }

    def _texts(self, shown: _Shown) -> list[str]:
        """Every text the rung shows, where redactions are counted."""
        digest = self.opened.digest
        return [
            digest.cwd,
            digest.branch,
            digest.model,
            digest.version,
            digest.title,
            digest.last_text,
            *(text for _, text in shown.prompts),
            *(path for path, _ in shown.files),
            *(row[2] for row in shown.fat),
            *(url for _, url in digest.prs),
            *(agent.task for _, agent in shown.tasks),
        ]


def _identity(opened: Opened) -> dict[str, Any]:
    digest = opened.digest
    span = (digest.end - digest.start) if digest.start is not None and digest.end is not None else 0.0
    return {
        "id": opened.session.short_id,
        "full_id": opened.session.full_id,
        "project": opened.project,
        "cwd": digest.cwd,
        "branch": digest.branch,
        "model": digest.model,
        "version": digest.version,
        "title": digest.title,
        "start": timefmt.seconds(digest.start),
        "end": timefmt.seconds(digest.end),
        "duration": timefmt.duration(span),
        "messages": digest.messages,
        "size_bytes": opened.session.file.size,
        "api_errors": digest.api_errors,
        "malformed_lines": digest.malformed_lines,
    }


def _pick_prompts(prompts: list[str], head: int, tail: int) -> list[tuple[int, str]]:
    """All prompts, or the first `head` and last `tail`, each with its original number."""
    numbered = list(enumerate(prompts, 1))
    if len(numbered) <= head + tail:
        return numbered
    return numbered[:head] + numbered[len(numbered) - tail :]


def _tools(calls: dict[str, int], tokens: dict[str, int]) -> list[dict[str, Any]]:
    rows = [{"tool": name, "calls": n, "result_tokens": tokens.get(name, 0)} for name, n in calls.items()]
    return sorted(rows, key=lambda row: (-row["calls"], row["tool"]))


def _categories(commands: dict[str, int]) -> list[dict[str, Any]]:
    totals: dict[str, int] = {}
    for command, calls in commands.items():
        name = category(command)
        totals[name] = totals.get(name, 0) + calls
    return [
        {"category": name, "calls": n} for name, n in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def _file_rows(files: dict[str, list[int]], cwd: str) -> list[tuple[str, list[int]]]:
    """(stored path, touches), most touched first, then by the path as shown."""
    return sorted(files.items(), key=lambda item: (-sum(item[1]), relative_to(item[0], cwd)))


def render(result: dict[str, Any], fmt: str) -> str | None:
    """Markdown: `# Session <id> — <project>`, identity bullets, one section per list."""
    if fmt != "md":
        return None
    s = result["session"]
    t = result["tokens"]
    lines = [f"# Session {s['id']} — {s['project']}", ""]
    if s["title"]:
        lines += [f"_{s['title']}_", ""]
    lines += [
        f"- **cwd**: `{s['cwd']}` (branch `{s['branch']}`)",
        f"- **model**: {s['model']} · cli {s['version']}",
        f"- **span**: {s['start']} → {s['end']} ({s['duration']})",
        f"- **messages**: {s['messages']} · {s['size_bytes']} bytes · {s['api_errors']} API errors"
        f" · {s['malformed_lines']} malformed lines",
        f"- **tokens**: in {t['input']} · out {t['output']} · cache read {t['cache_read']}"
        f" · cache create {t['cache_create']}",
        f"- **unattributed result tokens**: {result['unattributed_result_tokens']}",
        "",
    ]
    lines += mdtext.section(
        f"Prompts ({len(result['prompts'])} of {result['prompts_total']})",
        [f"{p['i']}. {mdtext.cell(p['text'])}" for p in result["prompts"]],
    )
    lines += mdtext.section(
        "Messages Claude Code wrote", [f"- {kind} × {count}" for kind, count in result["injected"].items()]
    )
    for title, key in (("Tools", "tools"), ("Bash by category", "bash"), ("Files", "files")):
        lines += mdtext.section(title, mdtext.table(result[key]))
    lines += mdtext.section("Heaviest tool results", mdtext.table(result["fat_results"]))
    lines += mdtext.section("PRs", [f"- #{pr['number']} {pr['url']}" for pr in result["prs"]])
    agents = result["subagents"]
    if agents["count"]:
        head = f"{agents['count']} agents · {agents['tool_calls']} tool calls · {agents['output_tokens']} output tokens"
        lines += mdtext.section("Subagents", [head, "", *mdtext.table(agents["tasks"])])
    lines += mdtext.section("Last assistant text", [result["last_text"]] if result["last_text"] else [])
    lines += mdtext.notes(result)
    return mdtext.join(lines)


IMPLEMENTATION = Implementation(
    params=Params, run=run, cli_params=CliParams, render=render, extra_roots=data_roots
)
