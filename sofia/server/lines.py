"""The JSON-RPC line classifier: what the SDK can take of one protocol line, and the JSON-RPC
answer for what it cannot.

The SDK's stdio transport parses each line with pydantic's JSON parser and, when that fails,
drops the line: a request it cannot parse is never answered and the client waits for ever. That
parser also refuses valid JSON (an escaped lone surrogate such as `"\\ud800"`) and numbers
Python cannot hold, and takes an `id` that is an object for a notification. So every line is read
here instead, with Python's own JSON reader, and classified:

* a well-formed message goes on to the SDK (built from the parsed value, so a string holding a
  lone surrogate reaches the tool's own argument checks, which name it);
* a line that is not JSON gets -32700 (parse error); JSON that is not a JSON-RPC message gets
  -32600 (invalid request); a request whose parameters hold a number no program here could use
  (more than 4,300 digits, NaN, infinity) gets -32602 (invalid params). The answer carries the
  request's id whenever one can be read, `null` otherwise, as JSON-RPC 2.0 says;
* a batch (a JSON array) is read element by element and answered with one array.

Nothing is dropped silently: a notification or response that cannot be used is logged.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from pydantic import ValidationError

from sofia.errors import bounded, quote

log = logging.getLogger("sofia.mcp")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

RequestId = int | str
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Unusable:
    """A JSON value Python's reader took but nothing downstream can: stands in for it."""

    what: str

    def __str__(self) -> str:
        return self.what


@dataclass
class Inbound:
    """What one line holds."""

    messages: list[types.JSONRPCMessage] = field(default_factory=list)
    """Messages for the SDK, in line order."""
    answers: list[dict[str, Any]] = field(default_factory=list)
    """JSON-RPC error responses for what could not go on."""
    batch: bool = False
    """The line was an array: its answers, and the SDK's answers to `expected`, form one array."""
    expected: list[RequestId] = field(default_factory=list)
    """Ids of the requests passed on (the SDK answers each)."""


def read(raw: bytes) -> Inbound | None:
    """Classify one line (without its newline); None for a blank line, which holds nothing."""
    if not raw.strip():
        return None
    value, problem = _parse(raw)
    inbound = Inbound()
    if problem is not None:
        inbound.answers.append(error(_salvage_id(raw), PARSE_ERROR, f"Parse error: {problem}"))
        return inbound
    try:
        _classify(value, inbound)
    except RecursionError:
        return Inbound(answers=[error(None, PARSE_ERROR, "Parse error: the JSON is nested too deeply")])
    return inbound


def _classify(value: Any, inbound: Inbound) -> None:
    if isinstance(value, list):
        inbound.batch = True
        if not value:
            inbound.batch = False
            inbound.answers.append(error(None, INVALID_REQUEST, "Invalid Request: an empty batch"))
            return
        for item in value:
            _one(item, inbound)
        return
    _one(value, inbound)


def error(request_id: RequestId | None, code: int, message: str) -> dict[str, Any]:
    """A JSON-RPC error response, its message bounded."""
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": bounded(message, 500)}}


def _parse(raw: bytes) -> tuple[Any, str | None]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"the line is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start:,})"
    try:
        return json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_constant), None
    except RecursionError:
        return None, "the JSON is nested too deeply"
    except json.JSONDecodeError as exc:
        return None, f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
    except ValueError as exc:
        return None, bounded(str(exc), 200)


def _integer(digits: str) -> int | Unusable:
    length = len(digits.lstrip("-"))
    if length > sys.get_int_max_str_digits():
        return Unusable(f"an integer of {length:,} digits")
    return int(digits)


def _float(text: str) -> float | Unusable:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        return Unusable(f"the number {quote(text, 40)}, out of range")
    return number


def _constant(name: str) -> Unusable:
    return Unusable(f"{name}, which JSON does not have")


def _salvage_id(raw: bytes) -> RequestId | None:
    """The id of a line that is not valid JSON text only because of its bytes, if it has one."""
    try:
        value = json.loads(raw.decode("utf-8", "replace"), parse_int=_integer, parse_constant=_constant)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, dict):
        return _usable_id(value.get("id"))
    return None


def _usable_id(value: Any) -> RequestId | None:
    """An id an answer can carry back: an integer or a string of valid Unicode (never a bool)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and not _SURROGATE.search(value):
        return value
    return None


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return str(value)


def _one(value: Any, inbound: Inbound) -> None:
    """Classify one message (a line, or one element of a batch) into `inbound`."""
    if not isinstance(value, dict):
        inbound.answers.append(
            error(None, INVALID_REQUEST, f"Invalid Request: a message is a JSON object, not {_kind(value)}")
        )
        return
    has_id = "id" in value
    request_id = _usable_id(value.get("id"))
    is_response = "method" not in value and ("result" in value or "error" in value)
    problem = _envelope_problem(value, has_id, request_id, is_response)
    if problem is None:
        try:
            message = types.jsonrpc_message_adapter.validate_python(value, by_name=False)
        except ValidationError as exc:
            found = "; ".join(
                f"{'.'.join(str(p) for p in item['loc'])}: {item['msg']}"
                for item in exc.errors(include_url=False, include_context=False, include_input=False)[:3]
            )
            problem = (INVALID_REQUEST, f"Invalid Request: {found}", request_id)
        else:
            inbound.messages.append(message)
            if isinstance(message, types.JSONRPCRequest):
                inbound.expected.append(message.id)
            return
    code, text, answer_to = problem
    if not has_id and "method" in value:
        log.warning("ignored a notification: %s", bounded(text, 300))
    elif is_response:
        log.warning("ignored a response: %s", bounded(text, 300))
    else:
        inbound.answers.append(error(answer_to, code, text))


def _envelope_problem(
    value: dict[str, Any], has_id: bool, request_id: RequestId | None, is_response: bool
) -> tuple[int, str, RequestId | None] | None:
    """The first thing wrong with a message's envelope (version, id, method, params, numbers no
    parameter takes) as (code, message, the id to answer), or None: the SDK's model reads the rest."""
    method = value.get("method")
    if value.get("jsonrpc") != "2.0":
        return INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"', request_id
    if has_id and request_id is None and not (is_response and value.get("id") is None):
        surrogate = " holding an unpaired surrogate" if isinstance(value.get("id"), str) else ""
        kind = _kind(value.get("id"))
        return (
            INVALID_REQUEST,
            f"Invalid Request: the id must be a string or an integer, not {kind}{surrogate}",
            None,
        )
    if "method" not in value and not is_response:
        return INVALID_REQUEST, "Invalid Request: a request needs a method (a string)", request_id
    if "method" in value and not isinstance(method, str):
        return (
            INVALID_REQUEST,
            f"Invalid Request: the method must be a string, not {_kind(method)}",
            request_id,
        )
    params = value.get("params")
    if "method" in value and params is not None and not isinstance(params, dict):
        return INVALID_PARAMS, f"Invalid params: params must be an object, not {_kind(params)}", request_id
    found = _find_unusable(value, "")
    if found is not None:
        where, what = found
        message = (
            f"Invalid params: {where or 'the message'} holds {what}, more than any parameter takes; "
            "send such values as strings"
        )
        return INVALID_PARAMS, message, request_id
    return None


def _find_unusable(value: Any, where: str) -> tuple[str, str] | None:
    """The first stand-in for an unusable number in `value`, with where it is (`params.arguments.n`)."""
    if isinstance(value, Unusable):
        return where, value.what
    if isinstance(value, dict):
        for key, item in value.items():
            found = _find_unusable(item, f"{where}.{quote(key, 40)}" if where else quote(key, 40))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _find_unusable(item, f"{where}[{index}]")
            if found is not None:
                return found
    return None
