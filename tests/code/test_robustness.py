"""Truncated and corrupted sources never fail a call: every file still gets a document, and the
symbol layer still answers (quality bar: truncated files, files that change while being read)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sofia.output.budget import cost
from sofia.output.tokens import estimate
from sofia.syntax import parse
from tests.code.conftest import FIXTURES, code

SOURCES = {
    "go": (FIXTURES / "go" / "cache" / "cache.go").read_bytes(),
    "python": (FIXTURES / "python" / "shop" / "catalog" / "widgets.py").read_bytes(),
}
SUFFIX = {"go": ".go", "python": ".py"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lang=st.sampled_from(["go", "python"]),
    cut=st.floats(0, 1),
    noise=st.lists(st.tuples(st.floats(0, 1), st.binary(min_size=0, max_size=3)), max_size=6),
)
def test_damaged_sources_still_summarise(
    tmp_path: Path, lang: str, cut: float, noise: list[tuple[float, bytes]]
) -> None:
    source = bytearray(SOURCES[lang][: int(len(SOURCES[lang]) * cut)])
    for where, replacement in noise:
        at = int(len(source) * where)
        source[at : at + len(replacement)] = replacement
    data = bytes(source)
    tree = parse(data, lang)
    for symbol in tree.walk():
        assert 1 <= symbol.slice_line <= symbol.line <= symbol.end_line
        assert 0 <= symbol.slice_start_byte <= symbol.start_byte <= symbol.slice_end_byte <= len(data)
    name = f"damaged{SUFFIX[lang]}"
    (tmp_path / name).write_bytes(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOFIA_CODE_RAW_BELOW", "0")
        document = code(tmp_path, name, budget=None)["files"][0]
    assert document["mode"] in ("summary", "raw", "skipped")
    if document["mode"] == "summary":
        assert cost(document) < estimate(data)
