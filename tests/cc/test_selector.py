"""The session selector of the single-session tools."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sofia.providers.cc import prompts
from sofia.providers.contract import ProviderError
from tests.cc import transcripts
from tests.cc.conftest import Call, context


def _id(call: Call, root: Path, selector: str) -> str:
    result: str = call(prompts, session=selector, projects_dir=str(root))["id"]
    return result


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("", "3f2a9c1e"),
        ("last", "3f2a9c1e"),
        ("  LAST ", "3f2a9c1e"),
        ("3f2a", "3f2a9c1e"),
        ("3F2A9C1E", "3f2a9c1e"),
        (transcripts.SID_A, "3f2a9c1e"),
        ("9d8", "9d8c7b6a"),
        ("acme", "3f2a9c1e"),
        ("Acme-API", "3f2a9c1e"),
        ("-home-dev-src-acme", "3f2a9c1e"),
        ("web", "9d8c7b6a"),
    ],
)
def test_selectors(call: Call, ab_root: Path, selector: str, expected: str) -> None:
    assert _id(call, ab_root, selector) == expected


def test_a_file_path_works_outside_the_root(call: Call, ab_root: Path, tmp_path: Path) -> None:
    path = ab_root / transcripts.DIR_B / f"{transcripts.SID_B}.jsonl"
    assert call(prompts, session=str(path), projects_dir=str(tmp_path / "absent"))["id"] == "9d8c7b6a"
    relative = prompts.run(
        prompts.Params(session=f"{transcripts.DIR_B}/{transcripts.SID_B}.jsonl"), context(root=ab_root)
    )
    assert relative["id"] == "9d8c7b6a"


def test_ambiguous_prefix_lists_the_candidates(call: Call, ab_root: Path) -> None:
    twin = ab_root / transcripts.DIR_B / "3f77aa01-0000-4000-8000-000000000000.jsonl"
    twin.write_bytes(transcripts.session_b())
    os.utime(twin, (transcripts.MTIME_B, transcripts.MTIME_B))
    with pytest.raises(ProviderError) as error:
        call(prompts, session="3f", projects_dir=str(ab_root))
    assert error.value.message == (
        'session prefix "3f" is ambiguous: 3f2a9c1e acme-api 2026-03-02T09:12Z, '
        "3f77aa01 web 2026-03-01T15:00Z; use more characters"
    )


def test_several_projects_are_an_error(call: Call, ab_root: Path) -> None:
    with pytest.raises(
        ProviderError, match=r'"src" matches 2 projects: acme-api \(-home-dev-src-acme-api\), web'
    ):
        call(prompts, session="src", projects_dir=str(ab_root))


def test_no_match_suggests_close_names(call: Call, ab_root: Path) -> None:
    with pytest.raises(ProviderError) as error:
        call(prompts, session="acme-apj", projects_dir=str(ab_root))
    assert error.value.message == 'no session matched "acme-apj"; close matches: acme-api'
    with pytest.raises(ProviderError) as error:
        call(prompts, session="zzzz", projects_dir=str(ab_root))
    assert error.value.message == 'no session matched "zzzz"'
    assert "cc_ls" in error.value.hint


def test_empty_root(call: Call, tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match=f"no sessions under {tmp_path}"):
        call(prompts, projects_dir=str(tmp_path))


def _picked(root: Path, selector: str, workspace: str) -> str:
    params = prompts.Params(session=selector, projects_dir=str(root))
    result: str = prompts.run(params, context(root=Path(workspace)))["id"]
    return result


def test_no_session_is_the_newest_of_the_workspace_s_own_project(ab_root: Path) -> None:
    """A is the newest session of all; B is the newest (and only) one started in /home/dev/src/web."""
    assert _picked(ab_root, "", "/home/dev/src/web") == "9d8c7b6a"
    assert _picked(ab_root, "", "/home/dev/src/web/") == "9d8c7b6a"
    assert _picked(ab_root, "last", "/home/dev/src/web") == "3f2a9c1e"
    assert _picked(ab_root, "", "/home/dev/src/acme-api") == "3f2a9c1e"


def test_a_workspace_without_sessions_gets_the_newest_of_all(ab_root: Path, tmp_path: Path) -> None:
    assert _picked(ab_root, "", str(tmp_path)) == "3f2a9c1e"
    assert _picked(ab_root, "", "/home/dev") == "3f2a9c1e"  # a parent of both projects is neither


def test_the_workspace_s_project_is_found_by_its_sessions_cwd_too(ab_root: Path) -> None:
    """Claude Code shortens the names of long project directories; the transcript's cwd still says."""
    (ab_root / transcripts.DIR_B).rename(ab_root / "-home-dev-src-web-3a9f")
    assert _picked(ab_root, "", "/home/dev/src/web") == "9d8c7b6a"
