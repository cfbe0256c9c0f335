"""Result shape (docs/grep.md, "Output"): the cap with exact totals and `more_in`, the uniform
budget cut, windowed text, and byte-identical output for identical calls."""

from __future__ import annotations

from pathlib import Path

from sofia.output.budget import cost
from sofia.output.jsonfmt import compact
from sofia.output.render import render
from sofia.providers.contract import Context
from sofia.providers.grep.engine import COUNTING, PARSING, READING
from sofia.providers.grep.provider import Params, run
from sofia.providers.grep.text import hit_text
from tests.grep.conftest import generate_tree, grep, rows
from tests.helpers import write_files as write

CAP_NOTE = (
    "hits: showing 1 of 9 hits (max_per_pattern=1); more_in names the files holding the most of the rest; "
    "narrow with exts, root or word=true, or raise max_per_pattern"
)


def cap_tree(root: Path) -> Path:
    return write(
        root,
        {
            "src/a.py": "def f():\n    needle()\n    needle(needle)\n",
            "src/b.py": "needle = 1\n",
            "docs/c.txt": "needle\n" * 5,
        },
    )


def test_cap_in_json(tmp_path: Path) -> None:
    result = grep(cap_tree(tmp_path), "needle", "absent", max_per_pattern=1)
    assert list(result) == ["root", "patterns", "empty", "notes", "omitted"]
    assert result["omitted"] == {"hits": 8}
    (entry,) = result["patterns"]
    assert list(entry) == ["pattern", "total", "files", "shown", "hits", "more_in"]
    assert (entry["total"], entry["files"], entry["shown"]) == (9, 3, 1)
    assert rows(entry) == [{"file": "docs/c.txt", "line": 1, "col": 1, "symbol": "?", "text": "needle"}]
    assert entry["more_in"] == [
        {"file": "docs/c.txt", "hits": 4},
        {"file": "src/a.py", "hits": 3},
        {"file": "src/b.py", "hits": 1},
    ]
    assert result["empty"] == ["absent"]
    assert result["notes"] == [CAP_NOTE]


def test_cap_in_toon(tmp_path: Path) -> None:
    text = render(grep(cap_tree(tmp_path), "needle", "absent", max_per_pattern=1), "toon")
    assert "    total: 9\n    files: 3\n    shown: 1\n" in text
    assert '    hits:\n      "docs/c.txt"[1]{line,col,symbol,text}:\n        1,1,?,needle\n' in text
    assert "    more_in[3]{file,hits}:\n      docs/c.txt,4\n      src/a.py,3\n      src/b.py,1\n" in text
    assert "empty[1]: absent" in text
    assert CAP_NOTE in text


def test_more_in_lists_ten_files_largest_first_then_path(tmp_path: Path) -> None:
    files = {f"f{i:02}.txt": "hit\n" * (1 + i % 3) for i in range(14)}
    (entry,) = grep(write(tmp_path, files), "hit", max_per_pattern=2)["patterns"]
    assert rows(entry)[0]["file"] == "f00.txt" and rows(entry)[1]["file"] == "f01.txt"
    unseen = [(row["file"], row["hits"]) for row in entry["more_in"]]
    assert unseen == [
        ("f02.txt", 3),
        ("f05.txt", 3),
        ("f08.txt", 3),
        ("f11.txt", 3),
        ("f04.txt", 2),
        ("f07.txt", 2),
        ("f10.txt", 2),
        ("f13.txt", 2),
        ("f01.txt", 1),
        ("f03.txt", 1),
    ]
    assert entry["total"] == sum(1 + i % 3 for i in range(14))


def test_hits_left_out_by_the_cap_are_counted_over_every_pattern(tmp_path: Path) -> None:
    files = {f"f{i:02}.txt": "hit\n" for i in range(14)}
    files["other.txt"] = "miss\n" * 3
    result = grep(write(tmp_path, files), "hit", "miss", max_per_pattern=1)
    hit, miss = result["patterns"]
    assert (hit["shown"], hit["total"], len(hit["more_in"])) == (1, 14, 10)
    assert (miss["shown"], miss["total"], miss["more_in"]) == (1, 3, [{"file": "other.txt", "hits": 2}])
    assert result["omitted"] == {"hits": 13 + 2}
    assert result["notes"] == [
        "hits: showing 2 of 17 hits (max_per_pattern=1); more_in names the files holding the most of the rest; "
        "narrow with exts, root or word=true, or raise max_per_pattern"
    ]


def test_a_complete_result_has_no_omitted(tmp_path: Path) -> None:
    result = grep(cap_tree(tmp_path), "needle", max_per_pattern=0)
    assert "omitted" not in result and result["notes"] == []


def test_no_cap_over_budget_shows_a_uniform_k(tmp_path: Path) -> None:
    files = {f"pkg/alpha_{i}.txt": "alpha beta\n" * 40 for i in range(10)}
    files["pkg/zeta.txt"] = "gamma\n" * 3
    root = write(tmp_path, files)
    budget = 3000
    result = grep(root, "alpha", "beta", "gamma", max_per_pattern=0, budget=budget)
    alpha, beta, gamma = result["patterns"]
    k = alpha["shown"]
    assert 10 < k < 400 and beta["shown"] == k and gamma["shown"] == 3
    assert (alpha["total"], beta["total"], gamma["total"]) == (400, 400, 3)
    assert len(rows(alpha)) == k and alpha["more_in"][0]["hits"] == 40
    assert cost(result) <= budget
    row = max(cost(hit) for hit in rows(alpha))
    assert budget - cost(result) < 2 * row + 20, "k is the largest that fits"
    assert result["notes"] == [
        f"hits: showing {2 * k + 3} of 803 hits (budget {budget} tok); more_in names the files holding the most "
        "of the rest; narrow with exts, root, ignore_dirs or fewer patterns"
    ]
    assert result["omitted"] == {"hits": 803 - 2 * k - 3}


def test_cap_that_does_not_fit_the_budget_is_lowered_too(tmp_path: Path) -> None:
    root = write(tmp_path, {f"f{i}.txt": "x = needle\n" * 50 for i in range(5)})
    result = grep(root, "needle", max_per_pattern=200, budget=1200)
    (entry,) = result["patterns"]
    assert entry["shown"] < 200 and entry["total"] == 250
    assert cost(result) <= 1200
    assert result["notes"][-1].startswith(
        f"hits: showing {entry['shown']} of 250 hits (max_per_pattern=200, budget 1200 tok); "
    )
    assert result["omitted"] == {"hits": 250 - entry["shown"]}


def test_text_is_trimmed_and_windowed() -> None:
    assert hit_text(b"  \tfoo bar  \r\n", 3) == "foo bar"
    assert hit_text(b"foo", 0) == "foo"
    line = b"x" * 249 + b"NEEDLE" + b"y" * 45 + b"\n"
    assert hit_text(line, 249) == "…" + ("x" * 249 + "NEEDLE" + "y" * 45)[100:]
    start = b"NEEDLE" + b"y" * 400
    assert hit_text(start, 0) == "NEEDLE" + "y" * 194 + "…"
    middle = b"a" * 1000 + b"NEEDLE" + b"b" * 1000
    assert hit_text(middle, 1000) == "…" + "a" * 60 + "NEEDLE" + "b" * 134 + "…"


def test_windowed_text_counts_characters_not_bytes() -> None:
    line = ("я" * 300 + "NEEDLE" + "ж" * 300).encode()
    text = hit_text(line, 600)
    assert text == "…" + "я" * 60 + "NEEDLE" + "ж" * 134 + "…"
    assert hit_text(b"caf\xe9 NEEDLE", 5) == "caf\ufffd NEEDLE"


def test_sixteen_identical_runs_are_byte_identical(tmp_path: Path) -> None:
    root = generate_tree(tmp_path / "tree", files=120, seed=3)
    outputs = {
        compact(grep(root, "TOKEN", "token", "технолог", "->save();", case=False, max_per_pattern=7))
        for _ in range(16)
    }
    assert len(outputs) == 1


def test_progress_reports_every_phase(tmp_path: Path) -> None:
    calls: list[tuple[int, int | None, str]] = []
    run(Params(patterns=["needle"]), Context(root=cap_tree(tmp_path), progress=lambda *a: calls.append(a)))
    finals = [(done, total, message) for done, total, message in calls if done == total]
    assert (1, 1, COUNTING) in finals and (1, 1, READING) in finals and (3, 3, PARSING) in finals
    messages = [message for *_, message in calls]
    assert messages.index(COUNTING) < messages.index(READING) < messages.index(PARSING)


def test_several_patterns_are_counted_in_one_walk_then_parsed(tmp_path: Path) -> None:
    calls: list[tuple[int, int | None, str]] = []
    run(
        Params(patterns=["needle", "absent"]),
        Context(root=cap_tree(tmp_path), progress=lambda *a: calls.append(a)),
    )
    finals = [(done, total, message) for done, total, message in calls if done == total]
    assert (1, 1, COUNTING) in finals and (3, 3, PARSING) in finals
    assert READING not in {message for *_, message in calls}


def test_more_in_rows_go_when_no_hit_fits_and_the_cut_is_noted(tmp_path: Path) -> None:
    words = [f"word{n:02}" for n in range(20)]
    root = write(tmp_path, {f"dir/file{i:02}.txt": " ".join(words) + "\n" for i in range(15)})
    whole = grep(root, *words, max_per_pattern=1, budget=None)
    assert all(len(entry["more_in"]) == 10 for entry in whole["patterns"])
    budget = cost(whole) // 3
    result = grep(root, *words, max_per_pattern=1, budget=budget)
    assert cost(result) <= budget
    kept = {len(entry["more_in"]) for entry in result["patterns"]}
    assert {entry["shown"] for entry in result["patterns"]} == {0} and len(kept) == 1 and 0 < min(kept) < 10
    (rows_left,) = kept
    assert result["notes"][-1] == (
        f"more_in: cut to {rows_left} files per pattern (budget {budget} tok); "
        "narrow with exts, root, ignore_dirs or fewer patterns"
    )
    assert result["omitted"] == {"hits": 20 * 15}
