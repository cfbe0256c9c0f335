"""`code` finds definitions by name under a directory or glob: the slices of every definition,
at most 20, the rest counted; a name defined nowhere is a clear error with close matches."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sofia.output.budget import cost
from sofia.providers.contract import ProviderError
from tests.code.conftest import code, slice_text
from tests.helpers import run_sf

PHP = Path(__file__).resolve().parent.parent / "fixtures" / "refs" / "php"


def slices(result: dict[str, object]) -> list[tuple[str, str]]:
    return [(d["path"], s["symbol"]) for d in result["files"] for s in d["slices"]]  # type: ignore[index,union-attr]


def test_directory_and_qualified_name() -> None:
    result = code(PHP, "src", symbols=["UserController::destroy"])
    assert slices(result) == [("src/Http/UserController.php", "UserController::destroy")]
    assert result["files"][0]["slices"][0]["text"].startswith("    public function destroy(int $id)")


def test_glob_and_a_name_defined_twice() -> None:
    result = code(PHP, "src/**/*.php", symbols=["destroy"])
    assert slices(result) == [
        ("src/Http/UserController.php", "UserController::destroy"),
        ("src/Models/Order.php", "Order::destroy"),
    ]
    assert any("destroy is defined 2 times" in note for note in result["notes"])
    text = slice_text(result)
    assert "// --- Order::destroy (src/Models/Order.php:7-9) ---" in text


def test_namespace_qualified_php_name() -> None:
    result = code(PHP, ".", symbols=["App\\Http\\UserController::destroy"])
    assert slices(result) == [("src/Http/UserController.php", "UserController::destroy")]


def test_name_defined_nowhere_names_it_and_suggests() -> None:
    with pytest.raises(ProviderError) as raised:
        code(PHP, "src", symbols=["UserControler::destroy"])
    assert "no definition of UserControler::destroy under src" in str(raised.value)
    assert "parsed files there hold destroy as a word, none defining UserControler::destroy" in str(
        raised.value
    )
    assert "UserController::destroy" in raised.value.hint


def test_partly_found_names_the_missing_one() -> None:
    result = code(PHP, "src", symbols=["destroy", "Nowhere"])
    assert result["missing"] == [{"symbol": "Nowhere", "close": ""}]
    assert "// --- Nowhere: not found ---" in slice_text(result)


def many(root: Path, count: int) -> Path:
    for index in range(count):
        (root / f"h{index:02}.py").write_text(f"def handle(x):\n    return x + {index}\n")
    return root


def test_at_most_twenty_slices_and_the_rest_counted(tmp_path: Path) -> None:
    result = code(many(tmp_path, 27), ".", symbols=["handle"])
    assert len(slices(result)) == 20
    assert any("showing 20 of 27 slices" in note and "h26.py" in note for note in result["notes"])


def test_budget_keeps_whole_slices(tmp_path: Path) -> None:
    for index in range(5):
        body = "".join(f"    v{i} = {i}\n" for i in range(120))
        (tmp_path / f"b{index}.py").write_text(f"def big():\n{body}")
    result = code(tmp_path, ".", symbols=["big"], budget=1_500)
    assert cost(result) <= 1_500
    assert 0 < len(slices(result)) < 5
    assert any("budget 1500 tok" in note for note in result["notes"])


def test_cli_directory_then_symbols() -> None:
    done = run_sf("code", "src", "UserController::destroy", cwd=PHP)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("// --- UserController::destroy (src/Http/UserController.php:10-12) ---")


def test_name_defined_nowhere_says_what_the_lookup_did_not_read(tmp_path: Path) -> None:
    """A definition in a directory skipped by name, a binary file holding the name, and a
    candidate that could not be parsed are named in the error, each with how to include it."""
    (tmp_path / "src").mkdir()
    (tmp_path / "build").mkdir()
    (tmp_path / "src" / "a.py").write_text("x = 1\n")
    (tmp_path / "src" / "blob.py").write_bytes(b"only_here\0binary\n")
    (tmp_path / "build" / "gen.py").write_text("def only_here():\n    pass\n")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    with pytest.raises(ProviderError) as walked:
        code(tmp_path, ".", symbols=["only_here"])
    message = str(walked.value)
    assert "1 directory skipped by name (git tracks no file in them): build" in message
    assert "1 binary file skipped (a NUL byte: ripgrep stops reading): src/blob.py" in message
    with pytest.raises(ProviderError) as named:
        code(tmp_path, "src/*.py", symbols=["only_here"])
    assert "1 file not followed (they hold the name but could not be parsed): src/blob.py binary" in str(
        named.value
    )
    found = code(tmp_path, "build", symbols=["only_here"])
    assert [s["symbol"] for d in found["files"] for s in d["slices"]] == ["only_here"]


def test_a_name_only_used_there_says_how_many_files_hold_it(tmp_path: Path) -> None:
    """Not just "no definition": the files read hold the name, as uses, and refs lists them."""
    (tmp_path / "a.c").write_text("void drop(void *p)\n{\n\tkfree(p);\n}\n")
    (tmp_path / "b.c").write_text("void twice(void *p)\n{\n\tkfree(p);\n\tkfree(p);\n}\n")
    with pytest.raises(ProviderError) as raised:
        code(tmp_path, ".", symbols=["kfree"])
    assert "2 parsed files there hold kfree as a word, none defining it (refs lists its uses)" in str(
        raised.value
    )
