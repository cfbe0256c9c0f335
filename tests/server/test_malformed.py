"""Every line gets its answer: lines the SDK's parser cannot take, JSON that is not JSON-RPC, batches,
and echoes of hostile input, each sent over a real pipe to `sf mcp` and followed by a ping.

A line with a usable id gets exactly one response carrying that id; a line without one gets the
JSON-RPC error the JSON-RPC 2.0 specification names, with id null; and the server keeps serving.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.harness import RawClient
from tests.server.malformed import CASES, Case, answered, check_answers, line, request


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawClient]:
    raw = RawClient(tmp_path_factory.mktemp("malformed"), "--workers", "1", "--tools", "test")
    raw.initialize()
    yield raw
    assert raw.process.stdin is not None
    raw.process.stdin.close()
    assert raw.process.wait(timeout=30) == 0


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_every_line_is_answered_and_the_server_keeps_serving(client: RawClient, case: Case) -> None:
    ping = f"ping after {case.name}"
    client.send(case.line)
    client.send(line(request(ping, "ping")))
    check_answers(case, ping, client.receive(answered(case, ping)))


def test_nothing_more_was_sent_and_pings_still_work(client: RawClient) -> None:
    client.send(line(request("last", "ping")))
    (answer,) = client.receive(lambda got: any(m.get("id") == "last" for m in got if isinstance(m, dict)))
    assert answer == {"jsonrpc": "2.0", "id": "last", "result": {}}
