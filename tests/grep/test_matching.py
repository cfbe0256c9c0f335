"""Matching rules: the test tree of sofia's Go original (a PHP class, a vendor directory, a text
file), word boundaries (also in Cyrillic), several hits on one line, case folding and ripgrep regex
syntax."""

from __future__ import annotations

from pathlib import Path

from tests.grep.conftest import every_hit, grep, rows
from tests.helpers import write_files as write


def go_original_tree(root: Path) -> Path:
    return write(
        root,
        {
            "src/UserService.php": (
                "<?php\n"
                "class UserService {\n"
                "    public function deleteUser(int $status): bool {\n"
                "        if ($status === TARGET) {\n"
                "            return true;\n"
                "        }\n"
                "        return false;\n"
                "    }\n"
                "}\n"
            ),
            "src/other.php": "<?php\n// note: TARGET\n",
            "src/notes.txt": "TARGET in a text file\n",
            "src/TARGETED.php": "<?php\n$x = TARGETED;\n",
            "vendor/acme/lib/Target.php": "<?php\nconst A = TARGET;\n",
        },
    )


def test_go_original_tree_literal_word_php(tmp_path: Path) -> None:
    root = go_original_tree(tmp_path)
    result = grep(root, "TARGET", exts=["php"], word=True)
    (entry,) = result["patterns"]
    assert [(h["file"], h["line"], h["col"]) for h in rows(entry)] == [
        ("src/UserService.php", 4, 25),
        ("src/other.php", 2, 10),
    ]
    assert entry["total"] == 2 and entry["files"] == 2 and entry["shown"] == 2
    assert rows(entry)[0]["symbol"] == "UserService::deleteUser"
    assert rows(entry)[0]["text"] == "if ($status === TARGET) {"
    assert rows(entry)[1]["symbol"] == ""
    assert result["empty"] == []
    assert result["notes"] == [
        '1 directory skipped by name (git tracks no file in them): vendor; to search one, give it as root="vendor"'
    ]


def test_go_original_tree_ignore_dir_empties_the_pattern(tmp_path: Path) -> None:
    result = grep(go_original_tree(tmp_path), "TARGET", exts=["php"], word=True, ignore_dirs=["src"])
    assert result["patterns"] == []
    assert result["empty"] == ["TARGET"]


def test_go_original_tree_case_insensitive_regex(tmp_path: Path) -> None:
    entry = every_hit(go_original_tree(tmp_path), "target\\b", regex=True, case=False, exts=["php"])
    assert {h["file"] for h in rows(entry)} == {"src/UserService.php", "src/other.php"}


def test_explicit_vendor_root_is_searched(tmp_path: Path) -> None:
    entry = every_hit(go_original_tree(tmp_path), "TARGET", root="vendor")
    assert [(h["file"], h["line"]) for h in rows(entry)] == [("vendor/acme/lib/Target.php", 2)]


def word_tree(root: Path) -> Path:
    return write(
        root,
        {
            "radar.py": (
                "USER_TECH_RADAR = 1\n"
                "TECH_RADAR_X = 2\n"
                "_TECH_RADAR = 3\n"
                "print(TECH_RADAR.items)\n"
                "tech_radar = TECH_RADAR + TECH_RADAR\n"
            ),
            "ru.md": "Наши технологии\nтехнолог пишет\nвижутехнологияя\n",
            "numbers.txt": "foo1 foo22 foo foox foo333\nFOO7\n",
        },
    )


def test_word_boundaries(tmp_path: Path) -> None:
    entry = every_hit(word_tree(tmp_path), "TECH_RADAR", word=True)
    assert [(h["line"], h["col"]) for h in rows(entry)] == [(4, 7), (5, 14), (5, 27)]


def test_two_hits_on_one_line_are_separate_in_column_order(tmp_path: Path) -> None:
    entry = every_hit(word_tree(tmp_path), "TECH_RADAR", word=True)
    line_five = [h for h in rows(entry) if h["line"] == 5]
    assert [h["col"] for h in line_five] == [14, 27]
    assert all(h["text"] == "tech_radar = TECH_RADAR + TECH_RADAR" for h in line_five)


def test_cyrillic_word_boundaries(tmp_path: Path) -> None:
    root = word_tree(tmp_path)
    worded = every_hit(root, "технолог", word=True)
    assert [(h["file"], h["line"], h["col"]) for h in rows(worded)] == [("ru.md", 2, 1)]
    loose = every_hit(root, "технолог")
    assert [(h["line"], h["col"]) for h in rows(loose)] == [(1, 10), (2, 1), (3, 9)]


def test_case_insensitive_literal(tmp_path: Path) -> None:
    root = word_tree(tmp_path)
    assert every_hit(root, "tech_radar", case=True)["total"] == 1
    assert every_hit(root, "tech_radar", case=False)["total"] == 7


def test_regex_digits_and_inline_flag(tmp_path: Path) -> None:
    root = word_tree(tmp_path)
    digits = every_hit(root, r"foo\d+", regex=True)
    assert [h["col"] for h in rows(digits)] == [1, 6, 21]
    assert every_hit(root, r"(?i)foo\d+", regex=True)["total"] == 4
    assert every_hit(root, r"foo\d+", regex=True, word=True, case=False)["total"] == 4
