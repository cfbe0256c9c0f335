"""`sf grep` end to end: the command line built from the model, TOON by default, JSON on request."""

from __future__ import annotations

import json
from pathlib import Path

from tests.grep.conftest import SHOP
from tests.helpers import run_sf


def test_toon_by_default_with_comma_separated_exts() -> None:
    done = run_sf("grep", "deleteUser", "toggle", "nowhere", "--ext", "php,vue", "--word", cwd=SHOP)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "root: .\n"
        "patterns[2]:\n"
        "  - pattern: deleteUser\n"
        "    total: 2\n"
        "    files: 2\n"
        "    shown: 2\n"
        "    hits:\n"
        '      "app/Http/Controllers/UserController.php"[1]{line,col,symbol,text}:\n'
        '        20,23,"UserController::destroy",$this->users->deleteUser($id);\n'
        '      "app/Services/UserService.php"[1]{line,col,symbol,text}:\n'
        '        9,21,"UserService::deleteUser","public function deleteUser(int $id): void"\n'
        "  - pattern: toggle\n"
        "    total: 2\n"
        "    files: 1\n"
        "    shown: 2\n"
        "    hits:\n"
        '      "web/src/components/CartPanel.vue"[2]{line,col,symbol,text}:\n'
        '        3,21,<template>,"<button @click=\\"toggle\\">Cart ({{ count }})</button>"\n'
        '        15,10,toggle,"function toggle(): void {"\n'
        "empty[1]: nowhere\n"
        "notes: []\n"
    )


def test_json_and_a_pattern_after_double_dash(tmp_path: Path) -> None:
    (tmp_path / "run.sh").write_text("exec tool -foo --bar\n")
    done = run_sf("grep", "--json", "--max-per-pattern", "5", "--no-case", "--", "-FOO", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["patterns"][0]["hits"] == {
        "run.sh": [{"line": 1, "col": 11, "symbol": "?", "text": "exec tool -foo --bar"}]
    }


def test_errors_go_to_stderr_with_exit_one(tmp_path: Path) -> None:
    done = run_sf("grep", "x", "--root", "missing", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "root not found: missing" in done.stderr


def test_thousands_of_ignore_dirs_get_a_clear_limit_not_an_argument_list_error(tmp_path: Path) -> None:
    names = ",".join(f"d{i}" for i in range(15_000))
    done = run_sf("grep", "NEEDLE", "--ignore-dir", names, cwd=tmp_path)
    assert done.returncode != 0 and done.stdout == ""
    assert "too many --ignore-dir: 15,000 (at most 256)" in done.stderr
    assert "Traceback" not in done.stderr and "Argument list too long" not in done.stderr


def test_w_is_grep_and_ripgreps_short_form_of_word(tmp_path: Path) -> None:
    """An agent used to `rg -w` gets whole words, not an unrecognized-argument error."""
    (tmp_path / "a.txt").write_text("total\ntotally\nsubtotal total\n")
    short = run_sf("grep", "total", "-w", "--json", cwd=tmp_path)
    long = run_sf("grep", "total", "--word", "--json", cwd=tmp_path)
    plain = run_sf("grep", "total", "--json", cwd=tmp_path)
    assert short.returncode == 0, short.stderr
    assert short.stdout == long.stdout
    assert json.loads(short.stdout)["patterns"][0]["total"] == 2
    assert json.loads(plain.stdout)["patterns"][0]["total"] == 4


def test_grep_short_forms_i_and_e_mean_no_case_and_regex(tmp_path: Path) -> None:
    """`-i` and `-E` as grep spells them, bundled or apart, give what the long flags give."""
    (tmp_path / "a.txt").write_text("Total\ntotal\ntotals\n")
    bundled = run_sf("grep", "TOTAL", "-iw", "--json", cwd=tmp_path)
    long = run_sf("grep", "TOTAL", "--no-case", "--word", "--json", cwd=tmp_path)
    assert bundled.returncode == 0, bundled.stderr
    assert bundled.stdout == long.stdout
    assert json.loads(bundled.stdout)["patterns"][0]["total"] == 2
    regex = run_sf("grep", "tot.ls", "-E", "--json", cwd=tmp_path)
    assert json.loads(regex.stdout)["patterns"][0]["total"] == 1
    assert json.loads(run_sf("grep", "tot.ls", "--json", cwd=tmp_path).stdout)["empty"] == ["tot.ls"]


def test_familiar_flags_sofia_does_not_take_are_explained_and_nothing_runs(tmp_path: Path) -> None:
    """`grep -rn` habits get why each letter is not needed, not a bare unrecognized argument."""
    (tmp_path / "a.txt").write_text("needle\n")
    done = run_sf("grep", "-rn", "needle", cwd=tmp_path)
    assert done.returncode != 0 and done.stdout == ""
    assert "unrecognized arguments: -rn [-r: the whole tree is always searched" in done.stderr
    assert "-n: every hit has its line and column]" in done.stderr
    typed = run_sf("grep", "needle", "-t", "py", cwd=tmp_path)
    assert "-t [-t: use --ext EXT" in typed.stderr
    misspelt = run_sf("grep", "needle", "--wrd", cwd=tmp_path)
    assert "--wrd (did you mean --word?)" in misspelt.stderr
