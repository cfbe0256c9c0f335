"""Raw passthrough and compact-or-raw: thresholds, `SOFIA_CODE_RAW_BELOW`, exact raw content, and the
invariant that a summary always costs strictly fewer tokens than its file."""

from __future__ import annotations

import json
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sofia.errors import UsageError
from sofia.output.budget import cost
from sofia.output.tokens import estimate
from sofia.providers.code.documents import raw_below
from tests.code.conftest import FIXTURES, code, document


def go_file(size: int) -> bytes:
    """A real-looking Go file of exactly `size` bytes, with long bodies (so a summary is much smaller)."""
    body = "".join(f'\tfmt.Println("step {i}", value*{i})\n' for i in range(40))
    functions = "".join(
        f"// Step{n} prints progress.\nfunc Step{n}(value int) {{\n{body}}}\n\n" for n in range(3)
    )
    text = f'package steps\n\nimport "fmt"\n\n{functions}'.encode()
    assert len(text) < size
    padding = size - len(text)
    return text + b"//" + b"x" * (padding - 3) + b"\n"


@pytest.mark.parametrize(("size", "mode"), [(8191, "raw"), (8192, "summary")])
def test_threshold_is_8192_bytes(tmp_path: Path, size: int, mode: str) -> None:
    (tmp_path / "steps.go").write_bytes(go_file(size))
    doc = code(tmp_path, "steps.go")["files"][0]
    assert doc["mode"] == mode
    if mode == "raw":
        assert doc["reason"] == "below_threshold"


def test_a_mixed_batch_decides_per_file(tmp_path: Path) -> None:
    (tmp_path / "big.go").write_bytes(go_file(9000))
    (tmp_path / "small.go").write_bytes(b"package steps\n\nfunc Small() {}\n")
    result = code(tmp_path, "small.go", "big.go")
    assert [(d["path"], d["mode"]) for d in result["files"]] == [("small.go", "raw"), ("big.go", "summary")]
    assert result["stats"]["raw_tok"] == estimate(go_file(9000)) + estimate(
        b"package steps\n\nfunc Small() {}\n"
    )


@pytest.mark.parametrize(("value", "expected"), [("0", 0), ("4096", 4096), ("", 8192)])
def test_raw_below_environment(monkeypatch: pytest.MonkeyPatch, value: str, expected: int) -> None:
    monkeypatch.setenv("SOFIA_CODE_RAW_BELOW", value)
    assert raw_below() == expected


@pytest.mark.parametrize("value", ["many", "-1"])
def test_a_bad_raw_below_is_a_usage_error_naming_it(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SOFIA_CODE_RAW_BELOW", value)
    with pytest.raises(UsageError, match=f"SOFIA_CODE_RAW_BELOW must be .*, not {value!r}"):
        raw_below()


@pytest.mark.parametrize(("value", "mode"), [("0", "summary"), ("4096", "summary"), ("8000", "raw")])
def test_raw_below_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, mode: str) -> None:
    (tmp_path / "steps.go").write_bytes(go_file(6000))
    monkeypatch.setenv("SOFIA_CODE_RAW_BELOW", value)
    assert code(tmp_path, "steps.go")["files"][0]["mode"] == mode


def test_json_raw_document_round_trips_content(tmp_path: Path) -> None:
    source = b"package crlf\r\n\r\n// caf\xc3\xa9 \xff\xfe broken\r\nfunc A() {}\r\n"
    (tmp_path / "crlf.go").write_bytes(source)
    result = json.loads(json.dumps(code(tmp_path, "crlf.go")))
    doc = result["files"][0]
    assert list(doc) == ["path", "lang", "mode", "lines", "reason", "content"]
    assert doc["content"] == "package crlf\r\n\r\n// café \ufffd\ufffd broken\r\nfunc A() {}\r\n"
    assert doc["lines"] == 4
    assert result["notes"] == ["crlf.go: invalid UTF-8 bytes shown as U+FFFD"]


def test_summary_that_is_not_smaller_falls_back_to_raw(tmp_path: Path, no_passthrough: None) -> None:
    (tmp_path / "dense.py").write_text("".join(f"def f{i}(a, b):\n    return a\n" for i in range(30)))
    doc = code(tmp_path, "dense.py")["files"][0]
    assert (doc["mode"], doc["reason"]) == ("raw", "summary_not_smaller")


def corpus_files() -> list[Path]:
    stdlib = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[::6][:30]
    fixtures = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".go", ".py"))
    return fixtures + stdlib


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_every_summary_estimates_strictly_below_its_file(path: Path, no_passthrough: None) -> None:
    result = code(path.parent, path.name, budget=None)
    doc = document(result, path.name)
    if doc["mode"] == "summary":
        assert cost(doc) < estimate(path.read_bytes())
    else:
        assert doc["content"] == path.read_bytes().decode("utf-8", "replace").removeprefix("\ufeff")


NAMES = st.from_regex(r"[A-Za-z][a-z0-9]{0,8}", fullmatch=True)


@settings(max_examples=40, deadline=None)
@given(
    functions=st.lists(st.tuples(NAMES, st.integers(0, 30), st.integers(0, 4)), min_size=0, max_size=12),
    receiver=st.booleans(),
)
def test_compact_or_raw_holds_for_generated_go(
    tmp_path_factory: pytest.TempPathFactory, functions: list[tuple[str, int, int]], receiver: bool
) -> None:
    """Whatever the shape of the file, a summary is strictly cheaper than the file or the file is returned."""
    lines = ["package gen", ""]
    for name, body, params in functions:
        args = ", ".join(f"p{i} int" for i in range(params))
        head = f"func (s *Svc) {name}({args}) error {{" if receiver else f"func {name}({args}) error {{"
        lines += [head, *[f"\tdoThing({i})" for i in range(body)], "\treturn nil", "}", ""]
    source = "\n".join(lines).encode()
    root = tmp_path_factory.mktemp("gen")
    (root / "gen.go").write_bytes(source)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOFIA_CODE_RAW_BELOW", "0")
        doc = code(root, "gen.go", budget=None)["files"][0]
    if doc["mode"] == "summary":
        assert cost(doc) < estimate(source)
    else:
        assert doc["mode"] == "raw" and doc["content"] == source.decode()
