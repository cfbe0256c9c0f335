"""`sf mcp --payload toon`: results as TOON where that costs fewer tokens, JSON where it would cost
more, the budget counting the payload actually sent, the repeat-call stub and the instructions as
the format makes them. (Every real tool in both formats: `test_calls`.)"""

from __future__ import annotations

import json
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import toon_format

from sofia.errors import UsageError
from sofia.output.jsonfmt import compact
from sofia.output.tokens import estimate
from sofia.output.toon import payload as toon_payload
from sofia.providers.contract import Context
from sofia.providers.registry import by_name
from sofia.server.options import parse
from sofia.workers.protocol import CallReply
from sofia.workers.worker import _encode
from tests.helpers import Repo
from tests.server.faulty import ShapeParams, nest, rows
from tests.server.harness import Connection, command, connect, server_env, text

pytestmark = pytest.mark.anyio

BUDGET = 300
"""The servers' output budget: 40 test rows cost about 363 tokens as JSON and 175 as TOON."""
WIDGET = "<?php\nnamespace App;\n\nclass Widget\n{\n    public function label(): string\n    {\n        return 'w';\n    }\n}\n"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = Repo(tmp_path_factory.mktemp("payload") / "workspace")
    repo.write("src/Widget.php", WIDGET)
    repo.commit("init")
    return repo.path


def server(workspace: Path, *payload: str) -> AsyncIterator[Connection]:
    args = ("--workers", "1", "--tools", "test,code", "--max-output-tokens", str(BUDGET), *payload)
    return connect(workspace, *args, env=server_env())


@pytest.fixture(scope="module")
async def toon(workspace: Path) -> AsyncIterator[Connection]:
    async with server(workspace, "--payload", "toon") as connection:
        yield connection


@pytest.fixture(scope="module")
async def plain(workspace: Path) -> AsyncIterator[Connection]:
    async with server(workspace) as connection:
        yield connection


async def test_a_table_comes_as_toon_decoding_to_the_json_document(
    toon: Connection, plain: Connection
) -> None:
    reference = text(await plain.call("test_rows", {"size": 10}))
    payload = text(await toon.call("test_rows", {"size": 10}))
    assert payload.startswith("rows[10]{id,name,ok}:\n  0,row-0,true\n"), payload
    assert toon_format.loads(payload) == json.loads(reference)
    assert estimate(payload) < estimate(reference) * 0.6


async def test_a_result_larger_as_toon_falls_back_to_json(toon: Connection, plain: Connection) -> None:
    reference = text(await plain.call("test_nest", {"size": 12}))
    assert estimate(toon_format.dumps(json.loads(reference))) > estimate(reference)
    assert text(await toon.call("test_nest", {"size": 12})) == reference
    # The choice is made per call: a shallow one of the same tool is TOON again.
    shallow = text(await toon.call("test_nest", {"size": 2}))
    assert shallow == "level1:\n  level0:\n    leaf: true"


async def test_the_budget_counts_the_toon_payload_actually_sent(toon: Connection, plain: Connection) -> None:
    # 40 rows are over the budget as JSON, under it as TOON.
    refused = await plain.call("test_rows", {"size": 40})
    assert refused.is_error and f"over the output budget of {BUDGET}" in text(refused)
    sent = await toon.call("test_rows", {"size": 40})
    assert not sent.is_error, text(sent)
    assert estimate(text(sent)) <= BUDGET < estimate(compact(toon_format.loads(text(sent))))
    # Over it even as TOON: refused, with the size of the TOON payload.
    big = await toon.call("test_rows", {"size": 200})
    tokens = estimate(toon_format.dumps(rows(ShapeParams(size=200), Context(root=Path.cwd()))))
    assert tokens > BUDGET
    assert big.is_error and f"test_rows returned about {tokens:,} estimated tokens" in text(big)


async def test_an_identical_code_call_gets_the_stub_in_toon_too(toon: Connection) -> None:
    first = await toon.call("code", {"files": ["src/Widget.php"]})
    assert not first.is_error and "Widget" in text(first)
    assert text(first).startswith("files[1]{path,"), text(first)  # TOON, not the JSON fallback
    stub = text(await toon.call("code", {"files": ["src/Widget.php"]}))
    assert stub.startswith("already returned in call #") and "pass force=true" in stub
    assert text(await toon.call("code", {"files": ["src/Widget.php"], "force": True})) == text(first)


async def test_code_slices_stay_source_text(toon: Connection) -> None:
    result = await toon.call("code", {"files": ["src/Widget.php"], "symbols": ["Widget::label"]})
    assert not result.is_error, text(result)
    assert text(result).startswith("// --- ") and "public function label(): string" in text(result)


async def test_the_instructions_name_the_format(toon: Connection, plain: Connection) -> None:
    said = toon.session.initialize_result
    assert said is not None and said.instructions is not None
    assert "read-only TOON" in said.instructions and "or JSON when shorter" in said.instructions
    assert len(said.instructions.split()) <= 150
    default = plain.session.initialize_result
    assert default is not None and default.instructions is not None
    assert "read-only JSON;" in default.instructions and "TOON" not in default.instructions


def test_an_unknown_payload_format_is_a_usage_error(workspace: Path) -> None:
    done = subprocess.run(
        command("--payload", "yaml"),
        cwd=workspace,
        env=server_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "--payload must be one of json, toon, not 'yaml'" in done.stderr


# -- the encoding itself, in process ----------------------------------------------------------

AWKWARD = {
    "empty": {},
    "none": [],
    "blank": "",
    "numeric": "123",
    "boolean": "true",
    "spaced": " x ",
    "dash": "- y",
    "dotted.key": 1,
    "": "empty key",
    "comma": "a,b",
    "colon": "x:y",
    "lines": "one\ntwo\ttab",
    "control": "\x01",
    "unicode": "ünï — 日本",
    "small": 1e-7,
    "whole": 1.0,
    "big": 2**63 - 1,
    "null": None,
    "matrix": [[1, 2], [3], []],
    "mixed": [{"a": 1}, {"b": [1, {"c": None}]}, "text", 3],
    "table": [
        {"path": "src/a.php", "line": 3, "text": 'say "hi", then'},
        {"path": "b", "line": 4, "text": ""},
    ],
}


def test_the_toon_payload_decodes_to_exactly_the_json_document() -> None:
    document = compact(AWKWARD)
    encoded = toon_payload(document)
    assert encoded is not None
    assert toon_format.loads(encoded) == json.loads(document)
    assert estimate(encoded) <= estimate(document)


def test_no_toon_payload_when_it_would_cost_more_or_say_nothing() -> None:
    deep = compact(nest(ShapeParams(size=12), Context(root=Path.cwd())))
    assert estimate(toon_format.dumps(json.loads(deep))) > estimate(deep)
    assert toon_payload(deep) is None
    assert toon_payload(b"{}") is None  # an empty text would read as no answer
    assert toon_payload(b'{"\\ud800":1}') is None  # no TOON form (nor a JSON one: never produced)


def test_the_worker_sends_text_results_as_text_and_falls_back_per_call() -> None:
    code = by_name("code")
    assert code is not None
    assert _encode(code, "raw source\n", toon=True) == CallReply("text", payload=b"raw source\n")
    table = rows(ShapeParams(size=5), Context(root=Path.cwd()))
    assert _encode(code, table, toon=True).kind == "toon"
    assert _encode(code, table) == CallReply("json", payload=compact(table))
    deep = nest(ShapeParams(size=12), Context(root=Path.cwd()))
    assert _encode(code, deep, toon=True) == CallReply("json", payload=compact(deep))


def test_payload_option_flag_environment_and_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOFIA_PAYLOAD", raising=False)
    assert parse([]).payload == "json"
    assert parse(["--payload", "toon"]).payload == "toon"
    monkeypatch.setenv("SOFIA_PAYLOAD", "TOON")
    assert parse([]).payload == "toon"
    assert parse(["--payload", "json"]).payload == "json"
    monkeypatch.setenv("SOFIA_PAYLOAD", "xml")
    with pytest.raises(UsageError, match="SOFIA_PAYLOAD must be one of json, toon, not 'xml'"):
        parse([])
