"""`changed` end to end on real repositories: every kind of change, every mode, hostile git config."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Repo, git, run_sf

CONTROLLER = """<?php
namespace App\\Controller;

class UserController
{
    public function index(): array
    {
        return [];
    }

    public function destroy(int $id): void
    {
        $this->users->delete($id);
    }
}
"""

SERVER_GO = """package server

type Server struct{}

func (s *Server) Routes() int {
\treturn 1
}

func Helper() int {
\treturn 2
}
"""

WIDGET_PY = """class Outer:
    class Inner:
        def run(self):
            return 1

    def other(self):
        return 2
"""

VUE = """<template>
  <div>{{ title }}</div>
</template>

<script setup lang="ts">
function load() {
  return 1
}

function save() {
  return 2
}
</script>
"""

RUBY = """class Greeter
  def hello
    puts "hi"
  end

  def bye
    puts "bye"
  end
end
"""


def changed_json(cwd: Path, *args: str) -> dict[str, Any]:
    done = run_sf("changed", "--json", "--max-output-tokens", "0", *args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def rows_by_path(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["path"]: row for row in document["files"]}


def numstat(repo: Path, *args: str) -> dict[str, tuple[int, int]]:
    """`git diff --numstat -z` parsed: path → (adds, dels); binary files as (0, 0)."""
    out = git(repo, "-c", "core.quotePath=false", "diff", "--numstat", "-z", "-M", *args).split("\0")
    figures: dict[str, tuple[int, int]] = {}
    i = 0
    while i < len(out):
        if not out[i]:
            i += 1
            continue
        adds, dels, name = out[i].split("\t", 2)
        if not name:
            name = out[i + 2]
            i += 3
        else:
            i += 1
        figures[name] = (0, 0) if adds == "-" else (int(adds), int(dels))
    return figures


@pytest.fixture
def busy(tmp_path: Path) -> Repo:
    """A working tree with every kind of change `changed` reports (docs/changed.md, "Output"):
    modified, added, deleted, renamed, a link turned file, untracked and binary, across categories."""
    repo = Repo(tmp_path / "busy")
    repo.write("src/Controller/UserController.php", CONTROLLER)
    repo.write("internal/server/server.go", SERVER_GO)
    repo.write("app/widget.py", WIDGET_PY)
    repo.write("web/Page.vue", VUE)
    repo.write("lib/greeter.lua", RUBY)
    repo.write(
        "tests/UsersTest.php",
        "<?php\nclass UsersTest\n{\n    public function testDelete() {}\n}\n" + "// pad\n" * 20,
    )
    repo.write("docs/old guide.md", "# Guide\n\nOld text.\n")
    repo.write("assets/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0binary")
    repo.write("config/app.yaml", "debug: false\n")
    (repo.path / "current").symlink_to("src")
    repo.write("gone.txt", "bye\n")
    repo.commit("initial")

    repo.write("src/Controller/UserController.php", CONTROLLER.replace("delete($id)", "remove($id)"))
    repo.write(
        "internal/server/server.go",
        SERVER_GO.replace("return 1", "return 10") + "\nfunc Added() int {\n\treturn 3\n}\n",
    )
    repo.write("app/widget.py", WIDGET_PY.replace("return 1", "return 11"))
    repo.write("web/Page.vue", VUE.replace("return 2", "return 22"))
    repo.write("lib/greeter.lua", RUBY.replace('"bye"', '"goodbye"'))
    repo.git("mv", "tests/UsersTest.php", "tests/UserTest.php")
    repo.write(
        "tests/UserTest.php",
        "<?php\nclass UserTest\n{\n    public function testDelete() {}\n}\n" + "// pad\n" * 20,
    )
    (repo.path / "docs/old guide.md").unlink()
    repo.write("assets/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0changed binary")
    (repo.path / "current").unlink()
    repo.write("current", "now a file\n")
    repo.write("added.txt", "one\ntwo\n")
    repo.git("add", "added.txt")
    (repo.path / "gone.txt").unlink()
    repo.write("new dir/deeper/ünïcode name.txt", "a\nb\nc")
    repo.write(
        "new dir/script with space.py",
        "def top():\n    return 1\n\nclass Made:\n    def m(self):\n        pass\n",
    )
    repo.write("line\nbreak.txt", "x\n")
    repo.write(".gitignore", "*.log\n")
    repo.write("ignored.log", "noise\n")
    return repo


def test_every_kind_of_change_is_reported(busy: Repo) -> None:
    document = changed_json(busy.path)
    rows = rows_by_path(document)
    assert document["spec"] == "working tree vs HEAD"
    expected_status = {
        "src/Controller/UserController.php": "M",
        "internal/server/server.go": "M",
        "app/widget.py": "M",
        "web/Page.vue": "M",
        "lib/greeter.lua": "M",
        "tests/UserTest.php": "R",
        "docs/old guide.md": "D",
        "assets/logo.png": "M",
        "current": "T",
        "added.txt": "A",
        "gone.txt": "D",
        "new dir/deeper/ünïcode name.txt": "?",
        "new dir/script with space.py": "?",
        "line\nbreak.txt": "?",
        ".gitignore": "?",
    }
    assert {path: row["status"] for path, row in rows.items()} == expected_status
    assert "ignored.log" not in rows
    assert rows["tests/UserTest.php"]["old_path"] == "tests/UsersTest.php"
    assert rows["tests/UserTest.php"]["category"] == "test"
    assert document["binary"] == ["assets/logo.png"]
    assert (rows["assets/logo.png"]["adds"], rows["assets/logo.png"]["dels"]) == (0, 0)
    assert rows["docs/old guide.md"]["category"] == "docs"
    assert rows["new dir/deeper/ünïcode name.txt"]["adds"] == 3  # last line without newline counts
    assert rows["new dir/script with space.py"]["lang"] == "python"
    assert [row["path"] for row in document["files"]] == sorted(rows, key=os.fsencode)


def test_churn_equals_git_numstat(busy: Repo) -> None:
    rows = rows_by_path(changed_json(busy.path))
    expected = numstat(busy.path, "HEAD")
    for path, (adds, dels) in expected.items():
        assert (rows[path]["adds"], rows[path]["dels"]) == (adds, dels), path


def test_totals_and_categories_are_exact(busy: Repo) -> None:
    document = changed_json(busy.path)
    files = document["files"]
    assert document["totals"] == {
        "files": len(files),
        "adds": sum(r["adds"] for r in files),
        "dels": sum(r["dels"] for r in files),
    }
    counts = [(c["category"], c["files"]) for c in document["by_category"]]
    assert counts == sorted(counts, key=lambda item: (-item[1], item[0]))
    assert sum(c["files"] for c in document["by_category"]) == len(files)


def test_touched_symbols_come_from_the_syntax_tree(busy: Repo) -> None:
    rows = rows_by_path(changed_json(busy.path))
    assert rows["src/Controller/UserController.php"]["symbols"] == "UserController::destroy"
    assert rows["internal/server/server.go"]["symbols"] == "Server.Routes; +Added"
    assert rows["app/widget.py"]["symbols"] == "Outer.Inner.run"
    assert rows["web/Page.vue"]["symbols"] == "save"
    # a wholly new file: every name is new, the status says so
    assert rows["new dir/script with space.py"]["symbols"] == "top; Made"


def test_unsupported_language_falls_back_to_git_funcname(busy: Repo) -> None:
    rows = rows_by_path(changed_json(busy.path))
    # git's default funcname: the nearest line above the hunk starting with a letter
    assert rows["lib/greeter.lua"]["symbols"] == "class Greeter"


@pytest.mark.parametrize(
    "config",
    [
        ["diff.noprefix=true"],
        ["diff.mnemonicPrefix=true"],
        ["color.ui=always", "color.diff=always"],
        ["diff.external=/bin/false"],
        ["core.pager=less -R", "pager.diff=true"],
        ["diff.relative=true"],
        ["diff.renames=false", "core.quotePath=true"],
    ],
)
def test_user_git_configuration_changes_nothing(busy: Repo, config: list[str]) -> None:
    baseline = run_sf("changed", "--json", cwd=busy.path).stdout
    for setting in config:
        key, value = setting.split("=", 1)
        busy.git("config", key, value)
    assert run_sf("changed", "--json", cwd=busy.path).stdout == baseline


def test_external_diff_in_the_environment_is_ignored(busy: Repo) -> None:
    baseline = run_sf("changed", "--json", cwd=busy.path).stdout
    hostile = run_sf(
        "changed", "--json", cwd=busy.path, env={"GIT_EXTERNAL_DIFF": "/bin/false", "GIT_PAGER": "rev"}
    )
    assert hostile.stdout == baseline


def test_two_runs_are_byte_identical_in_every_format(busy: Repo) -> None:
    for fmt in ("--json", "--md", "--format=toon"):
        first = run_sf("changed", fmt, cwd=busy.path)
        second = run_sf("changed", fmt, cwd=busy.path)
        assert first.returncode == 0
        assert first.stdout == second.stdout


def test_no_symbols_reads_no_contents(busy: Repo) -> None:
    rows = rows_by_path(changed_json(busy.path, "--no-symbols"))
    assert all(row.get("symbols", "") == "" for row in rows.values())


def test_root_names_the_repository_and_paths_stay_workspace_relative(busy: Repo) -> None:
    from_top = changed_json(busy.path)
    with_root = changed_json(busy.path, "--root", "internal/server")
    assert with_root == from_top


@pytest.fixture
def history(tmp_path: Path) -> Repo:
    """main with two commits; feature branched from the first with a commit of its own."""
    repo = Repo(tmp_path / "history")
    repo.write("src/app.py", "def start():\n    return 1\n")
    repo.write("README.md", "# App\n")
    repo.commit("one")
    repo.git("branch", "feature")
    repo.write("src/app.py", "def start():\n    return 2\n")
    repo.commit("two on main")
    repo.git("checkout", "-q", "feature")
    repo.write("src/feature.py", "def shiny():\n    return True\n")
    repo.commit("feature work")
    repo.git("checkout", "-q", "main")
    return repo


def test_two_dot_range(history: Repo) -> None:
    document = changed_json(history.path, "main..feature")
    assert document["spec"] == "main..feature"
    rows = rows_by_path(document)
    assert rows["src/feature.py"]["status"] == "A"
    assert rows["src/app.py"]["status"] == "M"  # main's own change shows reversed in a two-dot diff


def test_three_dot_range_uses_the_merge_base(history: Repo) -> None:
    document = changed_json(history.path, "main...feature")
    assert document["spec"] == "merge-base(main, feature)..feature"
    assert [row["path"] for row in document["files"]] == ["src/feature.py"]
    assert document["files"][0]["symbols"] == "shiny"


def test_single_revision_compares_the_working_tree(history: Repo) -> None:
    history.write("src/app.py", "def start():\n    return 3\n")
    history.write("notes.txt", "untracked\n")
    document = changed_json(history.path, "HEAD~1")
    assert document["spec"] == "working tree vs HEAD~1"
    rows = rows_by_path(document)
    row = rows["src/app.py"]
    assert (row["status"], row["category"], row["lang"], row["adds"], row["dels"]) == (
        "M",
        "source",
        "python",
        1,
        1,
    )
    assert row["symbols"] == "start"
    assert rows["notes.txt"]["status"] == "?"


def test_staged_compares_the_index(history: Repo) -> None:
    history.write("src/app.py", "def start():\n    return 4\n")
    history.git("add", "src/app.py")
    history.write("src/app.py", "def start():\n    return 5\n\ndef later():\n    pass\n")
    history.write("untracked.py", "x = 1\n")
    document = changed_json(history.path, "--staged")
    assert document["spec"] == "index vs HEAD"
    rows = rows_by_path(document)
    assert set(rows) == {"src/app.py"}
    assert (rows["src/app.py"]["adds"], rows["src/app.py"]["dels"]) == (1, 1)
    assert rows["src/app.py"]["symbols"] == "start"


def test_staged_against_a_revision(history: Repo) -> None:
    history.write("src/new.py", "def fresh():\n    pass\n")
    history.git("add", "src/new.py")
    document = changed_json(history.path, "--staged", "HEAD~1")
    assert document["spec"] == "index vs HEAD~1"
    assert set(rows_by_path(document)) == {"src/app.py", "src/new.py"}


def test_paths_limit_the_diff(history: Repo) -> None:
    history.write("src/app.py", "def start():\n    return 9\n")
    history.write("README.md", "# App!\n")
    history.write("src/extra.py", "y = 2\n")
    document = changed_json(history.path, "--", "src")
    assert document["spec"] == "working tree vs HEAD in src"
    assert set(rows_by_path(document)) == {"src/app.py", "src/extra.py"}
    from_sub = changed_json(history.path / "src", "--", "app.py")
    assert set(rows_by_path(from_sub)) == {"app.py"}  # relative to the workspace, in and out


def test_no_commits_yet_lists_everything(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "fresh")
    repo.write("staged.py", "def a():\n    pass\n")
    repo.git("add", "staged.py")
    repo.write("loose.txt", "x\n")
    document = changed_json(repo.path)
    assert document["spec"] == "working tree vs HEAD (no commits yet)"
    rows = rows_by_path(document)
    assert rows["staged.py"]["status"] == "A"
    assert rows["staged.py"]["symbols"] == "a"
    assert rows["loose.txt"]["status"] == "?"
    staged = changed_json(repo.path, "--staged")
    assert set(rows_by_path(staged)) == {"staged.py"}


def test_submodule_pointer_moved_is_one_row(tmp_path: Path) -> None:
    lib = Repo(tmp_path / "lib")
    lib.write("lib.py", "x = 1\n")
    first = lib.commit("lib one")
    app = Repo(tmp_path / "app")
    app.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib.path), "vendored")
    app.commit("add submodule")
    lib.write("lib.py", "x = 2\n")
    second = lib.commit("lib two")
    sub = app.path / "vendored"
    git(sub, "-c", "protocol.file.allow=always", "fetch", "-q", "origin")
    git(sub, "checkout", "-q", second)
    rows = rows_by_path(changed_json(app.path))
    assert rows["vendored"]["status"] == "M"
    assert rows["vendored"]["category"] == "other"
    assert rows["vendored"]["symbols"] == f"submodule {first[:7]}..{second[:7]}"
    assert "vendored/lib.py" not in rows


def test_merge_conflict_gives_unmerged_rows_and_a_note(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "conflict")
    repo.write("shared.py", "def value():\n    return 0\n")
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "other")
    repo.write("shared.py", "def value():\n    return 1\n")
    repo.commit("other side")
    repo.git("checkout", "-q", "main")
    repo.write("shared.py", "def value():\n    return 2\n")
    repo.commit("main side")
    repo.git("merge", "other", check=False)
    document = changed_json(repo.path)
    row = rows_by_path(document)["shared.py"]
    assert row["status"] == "U"
    assert (row["adds"], row["dels"]) == (0, 0)
    assert row.get("symbols", "") == ""
    assert "1 unmerged file" in document["notes"]


def test_many_touched_symbols_are_capped_at_eight(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "many")
    repo.write("funcs.py", "".join(f"def f{i}():\n    return {i}\n\n" for i in range(12)))
    repo.commit("funcs")
    repo.write("funcs.py", "".join(f"def f{i}():\n    return {i + 100}\n\n" for i in range(12)))
    row = rows_by_path(changed_json(repo.path))["funcs.py"]
    assert row["symbols"] == "f0; f1; f2; f3; f4; f5; f6; f7 (+4 more)"


def test_deleted_function_is_marked_with_minus(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "del")
    repo.write("m.py", "def keep():\n    return 1\n\n\ndef drop():\n    return 2\n")
    repo.commit("two")
    repo.write("m.py", "def keep():\n    return 1\n")
    assert rows_by_path(changed_json(repo.path))["m.py"]["symbols"] == "-drop"


def test_budget_cuts_rows_by_category_priority_with_exact_totals(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "big")
    for i in range(60):
        repo.write(f"docs/page{i:02}.md", "text\n")
        repo.write(f"src/mod{i:02}.py", f"def f{i}():\n    return {i}\n")
    document = json.loads(run_sf("changed", "--json", "--max-output-tokens", "1500", cwd=repo.path).stdout)
    assert document["totals"]["files"] == 120
    shown = document["files"]
    assert 0 < len(shown) < 120
    assert all(row["path"].startswith("src/") for row in shown)  # docs give way before source
    assert document["notes"][-1] == (
        f"files: showing {len(shown)} of 120 files (budget 1500 tok); "
        f"left out: docs 60, source {60 - len(shown)}; narrow with -- PATH..."
    )
    assert document["omitted"] == {"files": 120 - len(shown)}
    from sofia.output.budget import cost

    assert cost(document) <= 1500


def test_not_a_repository_is_a_clear_error(tmp_path: Path) -> None:
    done = run_sf("changed", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "sf changed: error: not a git repository" in done.stderr
    assert "pass --root DIR, a directory inside one" in done.stderr


def test_bad_revision_names_it(history: Repo) -> None:
    done = run_sf("changed", "nope..main", cwd=history.path)
    assert done.returncode == 1
    assert "unknown revision 'nope' in range 'nope..main'" in done.stderr
    assert "git log --oneline" in done.stderr


def test_option_as_range_is_rejected_before_git_sees_it(history: Repo) -> None:
    marker = history.path / "pwned"
    done = run_sf("changed", f"--upload-pack=touch {marker}", cwd=history.path)
    assert done.returncode != 0
    assert not marker.exists()
    from sofia.providers.changed import Params, run
    from sofia.providers.contract import Context, ProviderError

    with pytest.raises(ProviderError, match="range must be a revision, not an option"):
        run(Params(range="--upload-pack=x"), Context(root=history.path))


def test_staged_with_a_two_dot_range_is_refused(history: Repo) -> None:
    done = run_sf("changed", "--staged", "main..feature", cwd=history.path)
    assert done.returncode == 2  # a refusal of the arguments: a usage error
    assert "staged cannot be combined with the range main..feature" in done.stderr


def test_nothing_changed(history: Repo) -> None:
    document = changed_json(history.path)
    assert document["files"] == []
    assert document["totals"] == {"files": 0, "adds": 0, "dels": 0}
    assert document["by_category"] == []


def test_missing_root_is_named(history: Repo) -> None:
    done = run_sf("changed", "--root", "no/such/dir", cwd=history.path)
    assert done.returncode == 1
    assert "root not found: no/such/dir" in done.stderr


def test_read_only_git_directory_is_enough(history: Repo) -> None:
    """changed never writes (no index refresh, no locks): it works on a repository it cannot write to."""
    history.write("src/app.py", "def start():\n    return 7\n")
    git_dir = history.path / ".git"
    modes = {}
    for path in [git_dir, *git_dir.rglob("*")]:
        modes[path] = path.stat().st_mode
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        before = sorted((p, p.stat().st_mtime_ns) for p in git_dir.rglob("*"))
        document = changed_json(history.path)
        after = sorted((p, p.stat().st_mtime_ns) for p in git_dir.rglob("*"))
    finally:
        for path, mode in modes.items():
            path.chmod(mode)
    assert rows_by_path(document)["src/app.py"]["symbols"] == "start"
    assert before == after


def test_editing_only_a_decorator_or_doc_comment_touches_the_symbol(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "decorated")
    repo.write(
        "api.py",
        "class Shop:\n    # Cached.\n    @property\n    def price(self):\n        return 1\n\n"
        "\n@frappe.whitelist()\ndef get_items():\n    return []\n",
    )
    repo.write(
        "Ctl.php",
        "<?php\nclass Ctl\n{\n    /** Lists. */\n    #[Route('/a')]\n    public function index(): void\n"
        "    {\n    }\n}\n",
    )
    repo.commit("decorated")
    repo.write(
        "api.py",
        "class Shop:\n    # Cached for a minute.\n    @property\n    def price(self):\n        return 1\n\n"
        "\n@frappe.whitelist(allow_guest=True)\ndef get_items():\n    return []\n",
    )
    repo.write(
        "Ctl.php",
        "<?php\nclass Ctl\n{\n    /** Lists. */\n    #[Route('/b')]\n    public function index(): void\n"
        "    {\n    }\n}\n",
    )
    rows = rows_by_path(changed_json(repo.path))
    assert rows["api.py"]["symbols"] == "Shop.price; get_items"
    assert rows["Ctl.php"]["symbols"] == "Ctl::index"
