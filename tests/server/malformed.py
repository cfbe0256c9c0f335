"""Malformed and hostile protocol lines, each with the answers it must get (JSON-RPC 2.0): shared by
the protocol tests and the stress run (`bench/stress.py`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602

Check = Callable[[Any], None]


def error(code: int, *words: str) -> Check:
    def check(message: Any) -> None:
        assert "error" in message, message
        assert message["error"]["code"] == code, message
        for word in words:
            assert word in message["error"]["message"], message

    return check


def tool_error(*words: str) -> Check:
    def check(message: Any) -> None:
        result = message.get("result")
        assert result is not None and result["isError"] is True, message
        for word in words:
            assert word in result["content"][0]["text"], message

    return check


def empty_result(message: Any) -> None:
    assert message.get("result") == {}, message


@dataclass
class Case:
    name: str
    line: bytes
    by_id: dict[Any, Check] = field(default_factory=dict)
    """The one response expected for each id."""
    unidentified: list[Check] = field(default_factory=list)
    """Responses with id null, in any order."""
    batch: list[Check] | None = None
    """One array answer, its items in this order."""


def request(request_id: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def line(message: Any) -> bytes:
    return json.dumps(message).encode()


def echo_call(request_id: Any, text_json: str) -> bytes:
    return (
        b'{"jsonrpc":"2.0","id":' + json.dumps(request_id).encode()
        + b',"method":"tools/call","params":{"name":"test_echo","arguments":{"text":'
        + text_json.encode() + b"}}}"
    )  # fmt: skip


HUGE = "9" * 5000
CASES = [
    Case(
        "lone-surrogate-in-arguments",
        echo_call("s1", '"\\ud800"'),
        {"s1": tool_error("text: holds an unpaired UTF-16 surrogate; send valid Unicode text")},
    ),
    Case(
        "lone-surrogate-in-tool-name",
        b'{"jsonrpc":"2.0","id":"s2","method":"tools/call","params":{"name":"x\\udfffy","arguments":{}}}',
        {"s2": error(INVALID_PARAMS, "unknown tool: x\ufffdy")},
    ),
    Case("lone-surrogate-in-method", b'{"jsonrpc":"2.0","id":"s3","method":"\\ud800"}', {"s3": error(METHOD_NOT_FOUND)}),
    Case(
        "lone-surrogate-in-id",
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
        unidentified=[error(INVALID_REQUEST, "unpaired surrogate")],
    ),
    Case("huge-integer-in-arguments", echo_call("n1", HUGE), {"n1": error(INVALID_PARAMS, "5,000 digits")}),
    Case("nan-in-arguments", echo_call("n2", "NaN"), {"n2": error(INVALID_PARAMS, "NaN")}),
    Case(
        "huge-integer-id",
        b'{"jsonrpc":"2.0","id":' + HUGE.encode() + b',"method":"ping"}',
        unidentified=[error(INVALID_REQUEST, "id")],
    ),
    Case("id-without-method", line({"jsonrpc": "2.0", "id": 4}), {4: error(INVALID_REQUEST, "method")}),
    Case(
        "object-id",
        line({"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}),
        unidentified=[error(INVALID_REQUEST, "not an object")],
    ),
    Case("null-id", line(request(None, "ping")), unidentified=[error(INVALID_REQUEST, "id")]),
    Case("method-not-a-string", line(request(5, 7)), {5: error(INVALID_REQUEST, "method")}),  # type: ignore[arg-type]
    Case("no-jsonrpc-member", line({"id": 6, "method": "ping"}), {6: error(INVALID_REQUEST, "jsonrpc")}),
    Case("params-an-array", line(request(7, "ping", [1])), {7: error(INVALID_PARAMS, "object")}),  # type: ignore[arg-type]
    Case("batch", line([request("b1", "ping"), request("b2", "ping")]), batch=[empty_result, empty_result]),
    Case(
        "batch-with-a-bad-member",
        line([request("b3", "ping"), 1, {"jsonrpc": "2.0", "method": "notifications/whatever"}]),
        batch=[error(INVALID_REQUEST, "not a number"), empty_result],
    ),
    Case("batch-of-notifications", line([{"jsonrpc": "2.0", "method": "notifications/whatever"}])),
    Case("nested-batch", line([[request("b4", "ping")]]), batch=[error(INVALID_REQUEST, "not an array")]),
    Case("not-json", b"{not json", unidentified=[error(PARSE_ERROR)]),
    Case("empty-array", b"[]", unidentified=[error(INVALID_REQUEST, "empty batch")]),
    Case("null", b"null", unidentified=[error(INVALID_REQUEST, "not null")]),
    Case("number", b"42", unidentified=[error(INVALID_REQUEST)]),
    Case("string", b'"hello"', unidentified=[error(INVALID_REQUEST)]),
    Case("trailing-garbage", line(request(8, "ping")) + b" x", unidentified=[error(PARSE_ERROR, "Extra data")]),
    Case("deep-nesting", b"[" * 100_000, unidentified=[error(PARSE_ERROR)]),
    Case(
        "invalid-utf-8",
        b'{"jsonrpc":"2.0","id":"u1","method":"ping","params":{"x":"\xff\xfe"}}',
        {"u1": error(PARSE_ERROR, "not valid UTF-8")},
    ),
    Case(
        "huge-method-name",
        line(request("m1", "x" * 5_000_000)),
        {"m1": error(METHOD_NOT_FOUND)},
    ),
    Case(
        "huge-tool-name",
        line(request("m2", "tools/call", {"name": "t" * 5_000_000, "arguments": {}})),
        {"m2": error(INVALID_PARAMS, "unknown tool: ttt", "(5,000,000 characters)")},
    ),
]  # fmt: skip


def answered(case: Case, ping: str) -> Callable[[list[Any]], bool]:
    """Whether `got` holds every answer `case` expects, and the answer to the ping sent after it."""

    def done(got: list[Any]) -> bool:
        ids = [m.get("id") for m in got if isinstance(m, dict)]
        arrays = [m for m in got if isinstance(m, list)]
        return (
            ping in ids
            and all(i in ids for i in case.by_id)
            and ids.count(None) >= len(case.unidentified)
            and len(arrays) >= (case.batch is not None)
        )

    return done


def check_answers(case: Case, ping: str, got: list[Any]) -> None:
    """Raise AssertionError unless `got` (everything printed up to the ping's answer) is exactly
    what `case` must get."""
    arrays = [m for m in got if isinstance(m, list)]
    singles = [m for m in got if isinstance(m, dict) and m.get("id") != ping]
    identified = [m for m in singles if m.get("id") is not None]
    assert sorted(map(str, (m["id"] for m in identified))) == sorted(map(str, case.by_id)), got
    for message in identified:
        case.by_id[message["id"]](message)
    unidentified = [m for m in singles if m.get("id") is None]
    assert len(unidentified) == len(case.unidentified), got
    for message, check in zip(unidentified, case.unidentified, strict=True):
        check(message)
    if case.batch is None:
        assert arrays == [], got
    else:
        (array,) = arrays
        assert len(array) == len(case.batch), array
        for message, check in zip(
            sorted(array, key=lambda m: m.get("id") is not None), case.batch, strict=True
        ):
            check(message)
