"""Messages Claude Code writes as `user` records: never a prompt, a goal or a latest ask; counted by kind."""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sofia.providers.cc import classify, prompts, resume, show
from sofia.providers.cc.reader import read_transcript
from tests.cc import transcripts
from tests.cc.conftest import Call
from tests.cc.transcripts import Transcript, text


def _write(root: Path, t: Transcript, name: str = "-home-dev-src-billing") -> Path:
    path = root / name / f"{t.session_id}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(t.data())
    return path


def _transcript() -> Transcript:
    return Transcript("e1e1e1e1-0000-4000-8000-000000000000", "/home/dev/src/billing", "2.1.14")


@pytest.fixture
def d_root(tmp_path: Path) -> Path:
    root = tmp_path / "projects"
    transcripts.write_injected(root)
    return root


def test_a_task_notification_with_its_trailing_sentence_is_not_the_latest_ask(
    call: Call, tmp_path: Path
) -> None:
    t = _transcript()
    t.user("u1", None, "2026-03-02T10:00:00.000Z", "Run the slow tests in the background.")
    transcripts.task_notification(t, "u2", "2026-03-02T10:05:00.000Z", "b9f8e7d")
    path = _write(tmp_path, t)
    listed = call(prompts, session=str(path))
    assert [p["text"] for p in listed["prompts"]] == ["Run the slow tests in the background."]
    brief = call(resume, session=str(path))
    assert brief["goal"] == "Run the slow tests in the background."
    assert brief["now"] == ""
    assert brief["injected"] == {"task_notification": 1}


def test_session_d_prompts_are_the_persons_only(call: Call, d_root: Path) -> None:
    result = call(prompts, projects_dir=str(d_root))
    assert [p["text"] for p in result["prompts"]] == list(transcripts.PROMPTS_D)
    assert result["total"] == len(transcripts.PROMPTS_D)


def test_show_counts_injected_messages_by_kind(call: Call, d_root: Path) -> None:
    result = call(show, projects_dir=str(d_root))
    assert result["injected"] == transcripts.INJECTED_D
    counts = list(result["injected"].items())
    assert counts == sorted(counts, key=lambda kv: (-kv[1], kv[0]))
    assert result["prompts_total"] == len(transcripts.PROMPTS_D)
    assert [p["text"] for p in result["prompts"]] == list(transcripts.PROMPTS_D)
    assert result["tools"] == [{"tool": "Bash", "calls": 2, "result_tokens": 68}]
    assert result["last_text"] == "Opened PR #212."


def test_resume_goal_and_latest_ask_are_human(call: Call, d_root: Path) -> None:
    result = call(resume, projects_dir=str(d_root))
    assert result["goal"] == transcripts.PROMPTS_D[0]
    assert result["now"] == transcripts.PROMPTS_D[-1]
    assert result["injected"] == transcripts.INJECTED_D


def test_a_person_message_queued_mid_turn_counts_once(tmp_path: Path) -> None:
    modern = _transcript()
    modern.user("u1", None, "2026-03-02T10:00:00.000Z", "Start the migration.")
    transcripts.queued_prompt(modern, "q1", "2026-03-02T10:00:05.000Z", "and keep a backup")
    modern.user("u2", None, "2026-03-02T10:01:00.000Z", "Done?")
    legacy = _transcript()
    legacy.user("u1", None, "2026-03-02T10:00:00.000Z", "Start the migration.")
    transcripts.legacy_steering(legacy, "2026-03-02T10:00:05.000Z", "and keep a backup")
    legacy.user("u2", None, "2026-03-02T10:01:00.000Z", "Done?")
    reversed_order = _transcript()
    reversed_order.user("u1", None, "2026-03-02T10:00:00.000Z", "Start the migration.")
    transcripts.queued_prompt(
        reversed_order, "q1", "2026-03-02T10:00:05.000Z", "and keep a backup", removed=False
    )
    reversed_order.record(
        {
            "type": "queue-operation",
            "operation": "remove",
            "timestamp": "2026-03-02T10:00:06.000Z",
            "sessionId": reversed_order.session_id,
            "content": "and keep a backup",
        }
    )
    reversed_order.user("u2", None, "2026-03-02T10:01:00.000Z", "Done?")
    for name, t in (("modern", modern), ("legacy", legacy), ("reversed", reversed_order)):
        digest = read_transcript(str(_write(tmp_path / name, t)))
        assert digest.prompts == ["Start the migration.", "and keep a backup", "Done?"], name
        assert digest.prompts_total == 3, name


def test_queued_notifications_and_other_origins_are_not_people(tmp_path: Path) -> None:
    t = _transcript()
    t.user("u1", None, "2026-03-02T10:00:00.000Z", "Deploy.")
    for n, attachment in enumerate(
        (
            {
                "type": "queued_command",
                "prompt": "continue",
                "commandMode": "prompt",
                "origin": {"kind": "auto-continuation"},
            },
            {
                "type": "queued_command",
                "prompt": "[SYSTEM NOTIFICATION - NOT USER INPUT]\nmonitor event",
                "commandMode": "prompt",
            },
            {"type": "queued_command", "prompt": "ls -la", "commandMode": "bash"},
            {"type": "queued_command", "prompt": "ping", "origin": {"kind": "Remote Trigger"}},
        )
    ):
        t.record(transcripts._attachment(t, f"q{n}", "2026-03-02T10:00:01.000Z", attachment))
    t.user("u2", None, "2026-03-02T10:00:02.000Z", "hello", origin={"kind": "peer", "from": "unknown"})
    digest = read_transcript(str(_write(tmp_path, t)))
    assert digest.prompts == ["Deploy."]
    assert digest.injected == {
        "auto_continuation": 1,
        "system_notification": 1,
        "bash_mode": 1,
        "origin_remote_trigger": 1,
        "peer_message": 1,
    }


def test_unknown_markup_types_and_lines_are_named_in_notes(call: Call, tmp_path: Path) -> None:
    t = _transcript()
    t.user("u1", None, "2026-03-02T10:00:00.000Z", "Fix the sync.")
    t.user(
        "u2",
        None,
        "2026-03-02T10:00:01.000Z",
        "<session-digest>three files changed</session-digest>\nsee above",
    )
    t.record({"type": "future-record", "timestamp": "2026-03-02T10:00:02.000Z", "sessionId": t.session_id})
    t.raw('{"type":"user","message":')
    t.record({"type": "future-record", "timestamp": "2026-03-02T10:00:03.000Z"})
    t.user("u3", None, "2026-03-02T10:00:04.000Z", "<div>pasted</div> is this valid?")
    path = _write(tmp_path, t)
    result = call(show, session=str(path))
    assert [p["text"] for p in result["prompts"]] == ["Fix the sync.", "<div>pasted</div> is this valid?"]
    label = str(path)
    assert result["notes"] == [
        f"1 transcript line not followed (not a JSON object): {label}:4",
        f"2 records not followed (a record type sofia does not know): {label}:3 future-record (+1 more)",
        "1 user message not followed (markup sofia does not know; not counted as prompts): "
        f"{label}:2 session-digest",
    ]
    assert result["session"]["malformed_lines"] == 1


def test_notes_name_lines_relative_to_the_projects_root(call: Call, ab_root: Path) -> None:
    result = call(show, session="3f2a", projects_dir=str(ab_root))
    assert result["notes"] == [
        f"1 transcript line not followed (not a JSON object): {transcripts.DIR_A}/{transcripts.SID_A}.jsonl:30"
    ]


@pytest.mark.parametrize(
    ("words", "kind", "detail"),
    [
        ("  do the thing  ", classify.HUMAN, "do the thing"),
        ("<ide_opened_file>The user opened x.go</ide_opened_file>\nreal ask", classify.HUMAN, "real ask"),
        ('<div class="x">pasted</div> why?', classify.HUMAN, '<div class="x">pasted</div> why?'),
        ("x <= y, why?", classify.HUMAN, "x <= y, why?"),
        ("what does <system-reminder> mean", classify.HUMAN, "what does <system-reminder> mean"),
        (
            "API Error: 500 from the billing API\nwhy does it fail?",
            classify.HUMAN,
            "API Error: 500 from the billing API\nwhy does it fail?",
        ),
        ("Caveat: this is a draft", classify.HUMAN, "Caveat: this is a draft"),
        ("<system-reminder>x</system-reminder>", classify.SYSTEM_REMINDER, ""),
        ("<system-reminder>unterminated", classify.SYSTEM_REMINDER, ""),
        ("<ide_selection>lines</ide_selection>", classify.IDE_CONTEXT, ""),
        (
            "<command-name>/clear</command-name><command-message>clear</command-message><command-args></command-args>",
            classify.SLASH_COMMAND,
            "",
        ),
        (
            f"<local-command-caveat>{transcripts.CAVEAT_TEXT}</local-command-caveat>\n<command-name>/compact</command-name>",
            classify.SLASH_COMMAND,
            "",
        ),
        (f"<local-command-caveat>{transcripts.CAVEAT_TEXT}</local-command-caveat>", classify.CAVEAT, ""),
        (
            "<bash-input>ls</bash-input><bash-stdout>a</bash-stdout><bash-stderr></bash-stderr>",
            classify.BASH_MODE,
            "",
        ),
        (
            "<task-notification>\n<task-id>a</task-id>\n</task-notification>\nRead the output file to retrieve the result: /tmp/a.output",
            classify.TASK_NOTIFICATION,
            "",
        ),
        ("<task-notification><task-id>cut short", classify.TASK_NOTIFICATION, ""),
        (
            "Read the output file to retrieve the result: /tmp/claude/tasks/a.output",
            classify.TASK_NOTIFICATION,
            "",
        ),
        (transcripts.CAVEAT_TEXT, classify.CAVEAT, ""),
        ("[Request interrupted by user for tool use]", classify.INTERRUPT, ""),
        ("API Error: 529 Overloaded", classify.API_ERROR, ""),
        (
            "This session is being continued from a previous conversation that ran out of context.",
            classify.COMPACT_SUMMARY,
            "",
        ),
        ("Stop hook feedback:\n[hook]: not yet", classify.STOP_HOOK, ""),
        ("SubagentStop hook feedback:\nmore", classify.STOP_HOOK, ""),
        ('<teammate-message teammate_id="r">hi</teammate-message>', classify.TEAMMATE, ""),
        ("<new-thing>x</new-thing> and words", classify.UNKNOWN_MARKUP, "new-thing"),
        ("   ", classify.EMPTY, ""),
    ],
)
def test_judge(words: str, kind: str, detail: str) -> None:
    assert classify.judge(words) == (kind, detail)


def test_meta_compaction_images_and_denials() -> None:
    assert classify.user_message({"isMeta": True}, "# Review\nplease", 0) == (classify.EXPANSION, "")
    assert classify.user_message({"isMeta": True}, "<system-reminder>r</system-reminder>", 0) == (
        classify.SYSTEM_REMINDER,
        "",
    )
    assert classify.user_message({"isCompactSummary": True}, "anything", 0) == (classify.COMPACT_SUMMARY, "")
    assert classify.user_message({}, "", 1) == (classify.HUMAN, classify.IMAGE_TURN)
    assert classify.user_message({}, "", 0) == (classify.EMPTY, "")
    assert classify.is_denial(transcripts.DENIAL_TEXT)
    assert classify.is_denial(
        [{"type": "text", "text": "Permission to use Bash with command rm -rf x has been denied."}]
    )
    assert not classify.is_denial("exit code 1")


# --- the property: whatever Claude Code injects, the prompts are exactly what the person typed ----

_PLAIN = st.sampled_from(["Fix", "Run", "Why", "Please", "ok", "Deploy", "Check", "Добавь", "日本"])
_TRICKY = st.sampled_from(
    [
        "the",
        "tests",
        "<div>",
        "</div>",
        "<",
        ">",
        "[Request",
        "API",
        "Error",
        "Caveat:",
        "<task-notification>",
        "<system-reminder>",
        "Read",
        "output",
        "file",
        "$HOME",
        "x<=y",
        "`code`",
        "\u00e9t\u00e9",
        "42",
    ]
)
_HUMAN_TEXT = st.builds(
    lambda first, rest, seps: first + "".join(sep + word for sep, word in zip(seps, rest, strict=False)),
    _PLAIN,
    st.lists(_TRICKY, max_size=8),
    st.lists(st.sampled_from([" ", "\n", "  ", "\n\n"]), min_size=8, max_size=8),
)

HumanShape = Callable[[Transcript, str, str, str], None]


def _plain(t: Transcript, uuid: str, stamp: str, words: str) -> None:
    t.user(uuid, None, stamp, words)


def _blocks(t: Transcript, uuid: str, stamp: str, words: str) -> None:
    t.user(uuid, None, stamp, [text(words)])


def _ide_first(t: Transcript, uuid: str, stamp: str, words: str) -> None:
    t.user(
        uuid,
        None,
        stamp,
        [text("<ide_opened_file>The user opened /x/y.py in the IDE.</ide_opened_file>"), text(words)],
    )


def _reminder_after(t: Transcript, uuid: str, stamp: str, words: str) -> None:
    t.user(
        uuid,
        None,
        stamp,
        [text(words), text("<system-reminder>\nToday's date is 2026-03-02.\n</system-reminder>")],
    )


def _hook_after(t: Transcript, uuid: str, stamp: str, words: str) -> None:
    t.user(uuid, None, stamp, words + "\n<user-prompt-submit-hook>lint passed</user-prompt-submit-hook>")


def _queued(t: Transcript, uuid: str, stamp: str, words: str) -> None:
    transcripts.queued_prompt(t, uuid, stamp, words)


def _legacy(t: Transcript, uuid: str, stamp: str, words: str) -> None:
    transcripts.legacy_steering(t, stamp, words)


HUMAN_SHAPES: dict[str, HumanShape] = {
    "plain": _plain,
    "blocks": _blocks,
    "ide_first": _ide_first,
    "reminder_after": _reminder_after,
    "hook_after": _hook_after,
    "queued": _queued,
    "legacy": _legacy,
}

InjectedShape = Callable[[Transcript, str, str], Any]

INJECTED_SHAPES: dict[str, InjectedShape] = {
    "task_string": lambda t, u, s: transcripts.task_notification(t, u, s, "t" + u, "string"),
    "task_blocks": lambda t, u, s: transcripts.task_notification(t, u, s, "t" + u, "blocks"),
    "task_origin": lambda t, u, s: transcripts.task_notification(t, u, s, "t" + u, "origin"),
    "task_queued": lambda t, u, s: transcripts.task_notification(t, u, s, "t" + u, "queued"),
    "slash": transcripts.slash_command,
    "custom": transcripts.custom_command,
    "output": transcripts.command_output,
    "stderr": lambda t, u, s: transcripts.command_output(t, u, s, "stderr"),
    "caveat": transcripts.caveat,
    "caveat_plain": lambda t, u, s: transcripts.caveat(t, u, s, wrapped=False),
    "local": transcripts.local_command,
    "stop": transcripts.stop_hook,
    "stop_plain": lambda t, u, s: transcripts.stop_hook(t, u, s, meta=False),
    "hook": transcripts.hook_context,
    "hook_success": transcripts.hook_bookkeeping,
    "interrupt": transcripts.interrupt,
    "interrupt_tool": lambda t, u, s: transcripts.interrupt(t, u, s, for_tool=True),
    "denial": lambda t, u, s: transcripts.denial(t, u, s, "toolu_" + u),
    "compaction": transcripts.compaction,
    "reminder": transcripts.reminder,
    "bash": transcripts.bash_mode,
    "memory": transcripts.memory_input,
    "teammate": transcripts.teammate,
}

KNOWN_TAGS = tuple(classify.CONTEXT_TAGS) + tuple(classify.MESSAGE_TAGS)

_STEP = st.one_of(
    st.tuples(st.just("human"), st.sampled_from(sorted(HUMAN_SHAPES)), _HUMAN_TEXT),
    st.tuples(st.just("injected"), st.sampled_from(sorted(INJECTED_SHAPES)), st.just("")),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_STEP, max_size=14))
def test_no_prompt_ever_comes_from_an_injected_element(steps: list[tuple[str, str, str]]) -> None:
    t = _transcript()
    expected: list[str] = []
    kinds: Counter[str] = Counter()
    for n, (what, shape, words) in enumerate(steps):
        uuid, stamp = f"s{n:02d}", f"2026-03-02T10:{n:02d}:00.000Z"
        if what == "human":
            HUMAN_SHAPES[shape](t, uuid, stamp, words)
            expected.append(words.strip())
        else:
            made = INJECTED_SHAPES[shape](t, uuid, stamp)
            kinds.update([made] if isinstance(made, str) else made or [])
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "t.jsonl"
        path.write_bytes(t.data())
        digest = read_transcript(str(path))
    assert digest.prompts == expected
    assert digest.injected == dict(kinds)
    for prompt in digest.prompts:
        assert not prompt.startswith(tuple("<" + tag for tag in KNOWN_TAGS))
        assert not prompt.startswith(tuple(prefix for prefix, _ in classify.PREFIXES))
        assert "retrieve the result" not in prompt
        assert "lint passed" not in prompt and "Today's date" not in prompt and "in the IDE" not in prompt


def test_markdown_lists_the_injected_kinds(d_root: Path) -> None:
    from tests.cc.conftest import context

    text_md = show.render(show.run(show.Params(projects_dir=str(d_root)), context()), "md")
    assert text_md is not None
    assert "## Messages Claude Code wrote\n\n- task_notification × 4\n- slash_command × 3\n" in text_md


def test_a_note_counts_places_it_does_not_name() -> None:
    from sofia.output.notes import Place, not_followed

    assert not_followed("lines", [Place("a.jsonl", 3)], "not JSON", total=57) == (
        "57 lines not followed (not JSON): a.jsonl:3 (+56 more)"
    )
    many = [Place("a.jsonl", n) for n in range(1, 13)]
    assert not_followed("lines", many).endswith("a.jsonl:10 (+2 more)")
