"""The one definition of the Claude Code projects root: `~` and relative forms, and everyone using it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sofia.cli.doctor import check_claude_projects
from sofia.providers.cc import ls, show
from sofia.providers.cc.location import projects_root
from sofia.server.confine import Confinement
from tests.cc import transcripts
from tests.cc.conftest import context


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CC_PROJECTS_DIR", raising=False)
    return home


def test_forms(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert projects_root() == home / ".claude" / "projects"
    monkeypatch.setenv("CC_PROJECTS_DIR", "~/projects")
    assert projects_root() == home / "projects"
    assert projects_root("~/other") == home / "other"
    assert projects_root("  ") == home / "projects"  # blank counts as unset
    monkeypatch.setenv("CC_PROJECTS_DIR", "data/../claude")
    assert projects_root(base=tmp_path / "ws") == tmp_path / "ws" / "claude"
    monkeypatch.chdir(tmp_path)
    assert projects_root() == tmp_path / "claude"
    monkeypatch.setenv("CC_PROJECTS_DIR", "")
    assert projects_root() == home / ".claude" / "projects"
    monkeypatch.setenv("CC_PROJECTS_DIR", "$HOME/x")
    assert projects_root(base=tmp_path) == tmp_path / "$HOME" / "x"  # variables are not expanded


def test_providers_and_doctor_read_a_tilde_root(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    transcripts.write_ab(home / "projects")
    monkeypatch.setenv("CC_PROJECTS_DIR", "~/projects")
    assert ls.run(ls.Params(), context(root=home / "elsewhere"))["matched"] == 2
    row = check_claude_projects()
    assert row["status"] == "ok"
    assert row["detail"] == f"2 projects under {home / 'projects'}"


def test_doctor_reads_a_relative_root_from_the_current_directory(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcripts.write_ab(tmp_path / "work" / "claude")
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setenv("CC_PROJECTS_DIR", "claude")
    assert check_claude_projects()["detail"] == f"2 projects under {tmp_path / 'work' / 'claude'}"


def test_confinement_on_this_root_allows_a_session_under_a_tilde_root(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the server's confinement gets from the cc tools' extra roots (`projects_root`)."""
    paths = transcripts.write_ab(home / "projects")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    monkeypatch.setenv("CC_PROJECTS_DIR", "~/projects")
    confinement = Confinement([workspace], workspace)
    roots = show.IMPLEMENTATION.extra_roots() if show.IMPLEMENTATION.extra_roots else []
    assert roots == [projects_root(base=workspace)] == [home / "projects"]
    params = show.Params(session=str(paths["A"]))
    assert confinement.refusal(params, roots) is None
    outside = show.Params(session=str(tmp_path / "elsewhere" / "x.jsonl"))
    assert confinement.refusal(outside, roots) is not None
