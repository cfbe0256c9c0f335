"""One path space: with the workspace in a subdirectory of a repository (a monorepo package),
`changed` prints workspace-relative paths, lists the workspace's part by default with a count of
the rest, and every path it prints goes back into `code` and `grep`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sofia.errors import render_all
from sofia.providers.changed import Params, run
from sofia.providers.contract import Context, ProviderError
from tests.changed.monorepo import build_monorepo
from tests.helpers import Repo, run_sf
from tests.hints.spelling import command_line


def changed_json(cwd: Path, *args: str) -> dict[str, Any]:
    done = run_sf("changed", "--json", "--max-output-tokens", "0", *args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def rows(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["path"]: row for row in document["files"]}


@pytest.fixture
def monorepo(tmp_path: Path) -> Repo:
    return build_monorepo(tmp_path)


def test_paths_are_relative_to_the_workspace_and_only_its_part_is_listed(monorepo: Repo) -> None:
    workspace = monorepo.path / "src/Core"
    document = changed_json(workspace)
    listed = rows(document)
    assert set(listed) == {
        "notes.txt",
        "src/Container.php",
        "src/Moved.php",
        "../Other/Leaving.php",
        "vendored",
    }
    assert listed["src/Container.php"]["symbols"] == "Container::has"
    assert listed["notes.txt"]["status"] == "?"
    assert listed["vendored"]["symbols"].startswith("submodule ")
    # outside: README.md, src/Other/Thing.php, libs/ext, src/Other/loose.txt
    assert (
        "4 changed files outside the workspace not listed; --scope repo lists them as ../ paths"
        in (document["notes"])
    )
    assert document["totals"]["files"] == 5


def test_renames_across_the_boundary_keep_both_sides_and_their_edits(monorepo: Repo) -> None:
    listed = rows(changed_json(monorepo.path / "src/Core"))
    moved_in = listed["src/Moved.php"]
    assert (moved_in["status"], moved_in["old_path"]) == ("R", "../Other/Moved.php")
    assert moved_in["symbols"] == "Moved::second"  # the edit, not the whole file as new
    moved_out = listed["../Other/Leaving.php"]
    assert (moved_out["status"], moved_out["old_path"]) == ("R", "src/Leaving.php")
    assert moved_out["symbols"] == "Leaving::second"


def test_scope_repo_lists_the_rest_as_parent_relative_paths(monorepo: Repo) -> None:
    document = changed_json(monorepo.path / "src/Core", "--scope", "repo")
    listed = rows(document)
    assert {"../../README.md", "../Other/Thing.php", "../../libs/ext", "../Other/loose.txt"} <= set(listed)
    assert listed["../Other/Thing.php"]["symbols"] == "thing"
    assert any(
        "the MCP server refuses to read paths outside its allowed roots" in n for n in document["notes"]
    )
    top = changed_json(monorepo.path)
    assert document["totals"] == top["totals"]
    assert len(document["files"]) == len(top["files"])


def test_the_repository_top_is_unchanged(monorepo: Repo) -> None:
    listed = rows(changed_json(monorepo.path))
    assert "src/Core/src/Container.php" in listed
    assert listed["src/Core/src/Moved.php"]["old_path"] == "src/Other/Moved.php"
    assert not any(path.startswith("../") for path in listed)


def test_a_repository_inside_the_workspace_is_prefixed(monorepo: Repo) -> None:
    listed = rows(changed_json(monorepo.path.parent, "--root", "mono/src"))
    assert "mono/src/Core/src/Container.php" in listed
    assert "mono/README.md" in listed  # root names the repository; all of it lies in the workspace


def test_a_repository_apart_from_the_workspace_is_listed_as_parent_paths(
    monorepo: Repo, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    document = changed_json(elsewhere, "--root", "../mono/src")
    listed = rows(document)
    assert "../mono/src/Core/src/Container.php" in listed
    assert len(listed) == len(changed_json(monorepo.path)["files"])
    assert any("lie outside the workspace, shown as ../ paths" in note for note in document["notes"])


def test_pathspecs_are_relative_to_the_workspace(monorepo: Repo) -> None:
    workspace = monorepo.path / "src/Core"
    assert set(rows(changed_json(workspace, "--", "src/Container.php"))) == {"src/Container.php"}
    # as in git diff, a pathspec also limits which files are paired as renames: a rename with
    # one side outside the pathspecs is an addition or a deletion
    in_src = rows(changed_json(workspace, "--", "src"))
    assert {path: row["status"] for path, row in in_src.items()} == {
        "src/Container.php": "M",
        "src/Moved.php": "A",
        "src/Leaving.php": "D",
    }
    globbed = changed_json(workspace, "--", ":(glob)**/*.txt")
    assert set(rows(globbed)) == {"notes.txt"}
    assert globbed["spec"] == "working tree vs HEAD in :(glob)**/*.txt"
    excluded = changed_json(workspace, "--", ".", ":!src")
    assert set(rows(excluded)) == {"notes.txt", "vendored"}
    top_magic = changed_json(workspace, "--scope", "repo", "--", ":/README.md")
    assert set(rows(top_magic)) == {"../../README.md"}


def test_a_pathspec_outside_the_repository_is_refused_by_name(monorepo: Repo) -> None:
    done = run_sf("changed", "--", "../../../elsewhere", cwd=monorepo.path / "src/Core")
    assert done.returncode == 1
    assert "paths: ../../../elsewhere lies outside the repository" in done.stderr
    with pytest.raises(ProviderError, match="outside the repository"):
        run(Params(paths=["../../../elsewhere"]), Context(root=monorepo.path / "src/Core"))


def test_every_path_out_of_changed_goes_back_into_code_and_grep(monorepo: Repo) -> None:
    """The round trip: in process and over the CLI, from a repository subdirectory."""
    from sofia.providers import code
    from sofia.providers.grep import provider as grep

    workspace = monorepo.path / "src/Core"
    ctx = Context(root=workspace, budget=None)
    document = run(Params(), ctx)
    files = [row["path"] for row in document["files"] if row["status"] != "D" and row["path"] != "vendored"]
    assert len(files) == 4
    for path in files:
        summary = code.run(code.Params(files=[path]), ctx)
        assert len(summary["files"]) == 1 and summary["files"][0]["mode"] != "skipped"
        if not path.startswith("../"):
            assert summary["files"][0]["path"] == path
        found = grep.run(grep.Params(patterns=["marker"], root=path), ctx)
        assert found["patterns"][0]["total"] >= 1, path
        done = run_sf("code", "--json", path, cwd=workspace)
        assert done.returncode == 0, done.stderr
        done = run_sf("grep", "--json", "marker", "--root", path, cwd=workspace)
        assert done.returncode == 0, done.stderr


def test_in_process_and_cli_agree(monorepo: Repo) -> None:
    workspace = monorepo.path / "src/Core"
    in_process = run(Params(), Context(root=workspace, budget=None))
    assert render_all(in_process, command_line("changed")) == changed_json(workspace)
