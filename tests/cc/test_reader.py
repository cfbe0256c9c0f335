"""The streaming reader: accounting rules line by line, and usage against an independent count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sofia.output.tokens import estimate
from sofia.providers.cc.reader import read_transcript, result_tokens
from tests.cc.corpus import write_session


def _file(tmp_path: Path, *records: Any, raw: str = "") -> str:
    lines = [json.dumps(r) if not isinstance(r, str) else r for r in records]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n" + raw)
    return str(path)


def _assistant(message_id: str | None, usage: dict[str, Any], **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "model": "m", "content": [], "usage": usage}
    if message_id:
        message["id"] = message_id
    return {"type": "assistant", "requestId": "r", "message": message, **extra}


def _usage(i: Any, o: Any, read: Any, create: Any) -> dict[str, Any]:
    return {
        "input_tokens": i,
        "output_tokens": o,
        "cache_read_input_tokens": read,
        "cache_creation_input_tokens": create,
    }


def test_usage_is_the_elementwise_maximum_per_response(tmp_path: Path) -> None:
    digest = read_transcript(
        _file(
            tmp_path,
            _assistant("m1", _usage(1, 10, 100, 0)),
            _assistant("m1", _usage(2, 5, 100, 7)),
            _assistant("m2", _usage(1, 1, 1, 1)),
            _assistant(None, _usage(1, 1, 1, 1)),
            _assistant(None, _usage(1, 1, 1, 1)),
        )
    )
    assert digest.main.usage == [2 + 1 + 2, 10 + 1 + 2, 100 + 1 + 2, 7 + 1 + 2]
    assert digest.messages == 4  # two distinct ids, two lines without one


def test_a_wrong_typed_field_disables_only_its_rule(tmp_path: Path) -> None:
    digest = read_transcript(
        _file(
            tmp_path,
            {"type": "user", "timestamp": 12345, "message": {"role": "user", "content": "a real ask"}},
            _assistant("m1", _usage("3", 10, True, 5)),
            {"type": "user", "isSidechain": "yes", "message": {"role": "user", "content": "second ask"}},
        )
    )
    assert digest.prompts == ["a real ask", "second ask"]
    assert digest.start is None
    assert digest.main.usage == [0, 10, 0, 5]


def test_malformed_truncated_and_blank_lines(tmp_path: Path) -> None:
    digest = read_transcript(
        _file(tmp_path, "", "[1, 2]", '"text"', "{not json", "   ", raw='{"type":"user","mess')
    )
    assert digest.malformed_lines == 4


def test_a_tool_call_counts_once_per_id_and_its_result_once(tmp_path: Path) -> None:
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}
    message = {"id": "m1", "role": "assistant", "model": "m", "content": [call]}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": "x" * 40}
    digest = read_transcript(
        _file(
            tmp_path,
            {"type": "assistant", "message": message},
            {"type": "assistant", "message": message},
            {"type": "user", "message": {"role": "user", "content": [result]}},
            {"type": "user", "message": {"role": "user", "content": [result]}},
        )
    )
    assert digest.main.tool_calls == {"Bash": 1}
    assert digest.main.commands == {"ls": 1}
    assert digest.main.result_tokens == {"Bash": 10}
    assert digest.main.unattributed == 10  # the repeated result no longer has a pending call


def test_an_agent_file_fills_only_the_subagent_bucket(tmp_path: Path) -> None:
    digest = read_transcript(
        _file(
            tmp_path,
            {
                "type": "user",
                "sessionId": "parent",
                "message": {"role": "user", "content": "Find the callers."},
            },
            _assistant("m1", _usage(1, 9, 0, 0)),
        ),
        agent="abc",
    )
    assert digest.prompts == []
    assert digest.main.usage == [0, 0, 0, 0]
    assert digest.sub.usage == [1, 9, 0, 0]
    assert digest.session_id == "parent"
    assert [(k, a.task, a.output_tokens) for k, a in digest.agents.items()] == [
        ("abc", "Find the callers.", 9)
    ]


def test_result_tokens() -> None:
    assert result_tokens("abcd" * 10) == 10
    assert (
        result_tokens([{"type": "text", "text": "abc"}, {"type": "image"}, {"type": "text", "text": "de"}])
        == 2
    )
    assert result_tokens([{"type": "text", "text": "яя"}]) == 2
    assert result_tokens(None) == result_tokens({"x": 1}) == 0
    assert result_tokens([]) == result_tokens([{"type": "image"}]) == 0


def test_result_tokens_are_the_one_estimate_of_the_blocks_as_lines() -> None:
    blocks = ["héllo wörld, ", "plain text that is long enough to count", "", "日本語 and ascii"]
    content = [{"type": "text", "text": text} for text in blocks]
    assert result_tokens(content) == estimate("".join(f"{text}\n" for text in blocks))


def test_usage_matches_an_independent_count_on_a_generated_session(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_session(path, 3 * 1024 * 1024, 5, "e0e0e0e0-0000-4000-8000-000000000000", "/home/dev/g")
    best: dict[tuple[str, str], list[int]] = {}
    names = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if record.get("type") == "assistant" and not record.get("isSidechain"):
            message = record["message"]
            values = [message["usage"][n] for n in names]
            key = (message["id"], record["requestId"])
            best[key] = [max(a, b) for a, b in zip(best.get(key, values), values, strict=True)]
    expected = [sum(v[i] for v in best.values()) for i in range(4)]
    assert read_transcript(str(path)).main.usage == expected
