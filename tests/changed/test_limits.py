"""Bad input is refused before anything runs, with an error naming the limit; long lists of
pathspecs work; the budget notes say only what happened."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from sofia.output.budget import cost
from sofia.providers.changed import RANGE_MAX, Params, run
from sofia.providers.contract import Context
from tests.helpers import Repo, run_sf


@pytest.fixture
def small(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "small")
    repo.write("app.py", "def start():\n    return 1\n")
    repo.write("lib/util.py", "def helper():\n    return 1\n")
    repo.commit("one")
    repo.write("app.py", "def start():\n    return 2\n")
    repo.write("lib/util.py", "def helper():\n    return 2\n")
    return repo


def refused(**values: Any) -> str:
    with pytest.raises(ValidationError) as caught:
        Params.model_validate(values)
    return str(caught.value)


@pytest.mark.parametrize(
    "values",
    [{"range": "HEAD\0~1"}, {"root": "src\0"}, {"paths": ["ok", "a\0b"]}],
    ids=["range", "root", "paths"],
)
def test_a_nul_is_refused_in_process(values: dict[str, Any]) -> None:
    assert "NUL character" in refused(**values)


@pytest.mark.parametrize("field", ["root", "paths"])
def test_an_over_long_name_is_refused(small: Repo, field: str) -> None:
    name = "d" * 300
    assert "longer than 255 bytes" in refused(**{field: [name] if field == "paths" else name})
    option = ["--root", name] if field == "root" else ["--", name]
    done = run_sf("changed", *option, cwd=small.path)
    assert done.returncode == 2
    assert "longer than 255 bytes" in done.stderr
    assert "Traceback" not in done.stderr and "Errno" not in done.stderr


def test_an_over_long_path_is_refused(small: Repo) -> None:
    path = "/".join(["p" * 200] * 30)
    assert "longer than any system allows" in refused(paths=[path])
    done = run_sf("changed", "--", path, cwd=small.path)
    assert done.returncode == 2
    assert "longer than any system allows" in done.stderr


def test_a_huge_range_is_refused_with_its_limit(small: Repo) -> None:
    message = refused(range="x" * 5_000_000)
    assert f"a range of 5,000,000 characters is longer than {RANGE_MAX:,}" in message
    assert len(message) < 1000
    done = run_sf("changed", "y" * 100_000, cwd=small.path)  # what one argument may carry
    assert done.returncode == 2
    assert f"longer than {RANGE_MAX:,}" in done.stderr
    assert len(done.stderr) < 1000


def test_ten_thousand_pathspecs_work_and_the_spec_stays_bounded(small: Repo) -> None:
    paths = ["app.py", *(f"missing/file{i:05}.py" for i in range(9_999))]
    done = run_sf("changed", "--json", "--", *paths, cwd=small.path)
    assert done.returncode == 0, done.stderr[-2000:]
    document = json.loads(done.stdout)
    assert [row["path"] for row in document["files"]] == ["app.py"]
    assert document["spec"] == (
        "working tree vs HEAD in app.py missing/file00000.py missing/file00001.py (+9,997 more pathspecs)"
    )
    assert cost(document) < 200
    in_process = run(Params(paths=paths), Context(root=small.path))
    assert in_process == document


def test_pathspecs_beyond_one_command_line_are_split_over_runs(small: Repo) -> None:
    """3,000 pathspecs of 1 KB each: more than one git command line holds."""
    filler = "/".join(["f" * 200] * 5)
    paths = [*(f"{filler}/{i}" for i in range(3_000)), "lib", "app.py"]
    document = run(Params(paths=paths), Context(root=small.path, budget=None))
    assert [row["path"] for row in document["files"]] == ["app.py", "lib/util.py"]
    assert [row["symbols"] for row in document["files"]] == ["start", "helper"]
    assert any(note.startswith("paths: 3,002 pathspecs were given to git in ") for note in document["notes"])
    assert document["spec"].endswith("(+2,999 more pathspecs)")
    assert len(document["spec"]) < 300


def test_no_symbols_never_claims_a_symbol_cut(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "big")
    for i in range(60):
        repo.write(f"docs/page{i:02}.md", "text\n")
        repo.write(f"src/mod{i:02}.py", "".join(f"def f{j}():\n    return {j}\n\n" for j in range(6)))
    done = run_sf("changed", "--json", "--no-symbols", "--max-output-tokens", "1500", cwd=repo.path)
    document = json.loads(done.stdout)
    assert 0 < len(document["files"]) < 120
    assert not any(note.startswith("symbols:") for note in document["notes"])
    assert document["notes"][-1].startswith("files: showing ")


def test_symbols_are_cut_only_when_a_file_has_more_than_three(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "few")
    for i in range(80):
        repo.write(f"src/mod{i:02}.py", f"def f{i}():\n    return {i}\n")
    with_symbols = json.loads(
        run_sf("changed", "--json", "--max-output-tokens", "1200", cwd=repo.path).stdout
    )
    assert not any(note.startswith("symbols:") for note in with_symbols["notes"])
    for i in range(80):
        repo.write(f"src/mod{i:02}.py", "".join(f"def g{j}():\n    return {j}\n\n" for j in range(5)))
    cut = json.loads(run_sf("changed", "--json", "--max-output-tokens", "1200", cwd=repo.path).stdout)
    assert "symbols: 80 cells cut to 3 names (budget 1200 tok); narrow with -- PATH..." in cut["notes"]
    assert all(row["symbols"] == "g0; g1; g2 (+2 more)" for row in cut["files"])
