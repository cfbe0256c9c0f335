"""Bad input gets a clear, bounded error before anything runs; hostile trees (symlink loops,
binary, unreadable and vanishing files) are searched as far as they go and said so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from sofia.providers.contract import Context, ProviderError
from sofia.providers.refs.provider import Params
from tests.helpers import write_files as write
from tests.refs.conftest import entry, refs


@pytest.mark.parametrize(
    ("symbol", "message"),
    [
        ("", "empty symbol name"),
        ("   ", "empty symbol name"),
        ("x" * 200, "symbol name too long"),
        ("Foo::", "malformed qualified name"),
        ("a b", "whitespace"),
    ],
)
def test_bad_names_are_refused_with_a_bounded_message(tmp_path: Path, symbol: str, message: str) -> None:
    with pytest.raises(ProviderError) as raised:
        refs(tmp_path, symbol)
    assert message in str(raised.value)
    assert len(str(raised.value)) < 300
    assert raised.value.hint


def test_symbol_count_is_bounded_by_the_model() -> None:
    with pytest.raises(ValidationError):
        Params(symbols=[])
    with pytest.raises(ValidationError):
        Params(symbols=[f"s{i}" for i in range(9)])


def test_missing_root_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match="root not found"):
        refs(tmp_path, "x", root="nowhere")


def test_regex_metacharacters_are_literal(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "x = fo + foo\ny = 'f(o)+'\nz = ab + aab + b\n", "b.py": "v = a*b\n"})
    result = refs(tmp_path, "f(o)+", "a*b", "fo|foo")
    assert entry(result, "f(o)+")["totals"]["text"] == 1
    assert entry(result, "f(o)+")["totals"]["in_strings"] == 1
    assert entry(result, "a*b")["totals"]["text"] == 1
    assert entry(result, "fo|foo")["totals"]["text"] == 0


def test_symlink_loop_is_not_followed(tmp_path: Path) -> None:
    write(tmp_path, {"src/a.py": "def target():\n    pass\n\ntarget()\n"})
    os.symlink("..", tmp_path / "src" / "loop")
    item = entry(refs(tmp_path, "target"), "target")
    assert item["totals"]["text"] == 2 and item["totals"]["uses"] == 1


def test_binary_file_is_not_classified(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "def target():\n    pass\n", "blob.py": b"target\0\x01\x02target\n"})
    result = refs(tmp_path, "target")
    item = entry(result, "target")
    assert item["totals"]["definitions"] == 1
    assert "blob.py" not in json.dumps(item.get("name", []))


def test_file_deleted_during_the_search_is_named(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "target()\n", "b.py": "target()\n", "c.py": "def target():\n    pass\n"})

    def delete_first(done: int, total: int | None, message: str) -> None:
        if message == "classifying occurrences" and (tmp_path / "b.py").exists():
            (tmp_path / "b.py").unlink()

    result = refs(tmp_path, "target", ctx=Context(root=tmp_path, budget=None, progress=delete_first))
    item = entry(result, "target")
    assert item["totals"]["text"] == 3
    assert item["totals"]["unclassified"] == 1
    assert any("b.py" in note and "vanished" in note and "not followed" in note for note in result["notes"])


UNPRIVILEGED = """
import json, sys
from pathlib import Path
from sofia.providers.contract import Context
from sofia.providers.refs.provider import Params, run
root = Path(sys.argv[1])
print(json.dumps(run(Params(symbols=["target"]), Context(root=root, budget=None))))
"""


def test_unreadable_file_is_named_and_the_rest_classified(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "def target():\n    pass\n", "secret.py": "target()\n", "z.py": "target()\n"})
    (tmp_path / "secret.py").chmod(0)
    command = [sys.executable, "-c", UNPRIVILEGED, str(tmp_path)]
    if os.geteuid() == 0:
        caps = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", *command]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
    finally:
        (tmp_path / "secret.py").chmod(0o644)
    result = json.loads(done.stdout)
    item = entry(result, "target")
    assert item["totals"]["uses"] == 1 and item["totals"]["definitions"] == 1
    assert any("secret.py" in note and "Permission denied" in note for note in result["notes"])
