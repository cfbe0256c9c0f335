"""packagist_status against real git repositories, bare origins and a local HTTP server."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sofia.errors import render
from sofia.output import budget, jsonfmt
from sofia.providers.contract import ProviderError
from sofia.providers.packagist import client, status
from tests.composer.conftest import context, write_package
from tests.composer.workspace import Workspace
from tests.helpers import call
from tests.packagist.server import HANG, FakePackagist, Reply


def run_status(root: Path, **params: Any) -> dict[str, Any]:
    result: dict[str, Any] = call("packagist_status", params, root)
    return result


def rows_by_name(result: dict[str, Any]) -> dict[str, tuple[str, str, str, str]]:
    return {r["name"]: (r["local_tag"], r["pushed"], r["packagist"], r["state"]) for r in result["packages"]}


def publish_workspace(packagist: FakePackagist) -> None:
    packagist.publish("acme/array-reader", "dev-main", "v1.1.0", "v1.0.0")
    packagist.publish("acme/enum", "v1.0.0", "v1.0.0-beta1")
    packagist.publish("acme/http-client", "v1.2.0", "v1.1.0")
    packagist.serve("acme/monorepo", Reply(500, b"<html>Internal Server Error</html>"))
    packagist.serve("acme/queue", Reply(200, b'{"packages": {"acme/queue": [{"version": "1.0.0"'))
    packagist.publish("acme/slugger", "2.0", "1.4.2")
    packagist.publish("acme/feature-flags", "0.3.0")


def test_every_state(workspace: Workspace, packagist: FakePackagist) -> None:
    publish_workspace(packagist)
    result = run_status(workspace.root)
    assert rows_by_name(result) == {
        "acme/array-reader": ("v1.1.0", "yes", "v1.1.0", "in-sync"),
        "acme/enum": ("v1.1.0", "yes", "v1.0.0", "needs-update"),
        "acme/feature-flags": ("", "skip", "0.3.0", "no-tags"),
        "acme/http-client": ("v1.1.0", "yes", "v1.2.0", "local-stale"),
        "acme/money": ("v1.1.0", "yes", "", "unpublished"),
        "acme/monorepo": ("v1.1.0", "yes", "", "unknown"),
        "acme/queue": ("v1.1.0", "yes", "", "unknown"),
        "acme/slugger": ("v2.0.0", "no", "2.0", "in-sync"),
    }
    assert [r["name"] for r in result["packages"]][:2] == ["acme/array-reader", "acme/enum"]
    assert result["summary"] == {"in_sync": 2, "drift": 4, "unknown": 2}
    assert {r["name"]: r["cause"] for r in result["packages"] if r["cause"]} == {
        "acme/monorepo": "packagist-http-500",
        "acme/queue": "packagist-invalid",
    }
    assert result["notes"] == [
        status.NEXT_STEP["no-tags"],
        status.NEXT_STEP["unpublished"],
        status.NEXT_STEP["needs-update"],
        status.NEXT_STEP["local-stale"],
        status.NEXT_STEP["unknown"],
        f"packagist-http-500: HTTP 500 from {packagist.url}; {render(status.FIX['packagist-http-5'])}",
        "packagist-invalid: p2 document is not valid JSON (line 1, column 49) "
        f"from {packagist.url}; {render(status.FIX['packagist-invalid'])}",
        "pushed=no: the local tag is not on origin yet; push it (git push origin TAG)",
        "1 composer.json file not followed (unreadable or invalid): "
        "monorepo/packages/broken/composer.json:4 invalid JSON: unexpected character, expected ',' or '}'",
    ]
    assert len(packagist.p2_requests("acme/monorepo")) == 3
    assert len(packagist.p2_requests("acme/queue")) == 1
    assert list(result) == ["root", "packages", "summary", "notes"]


def test_offline_asks_nobody(
    workspace: Workspace, packagist: FakePackagist, counting_git: Callable[[], list[list[str]]]
) -> None:
    result = run_status(workspace.root, offline=True)
    assert {state for _, _, _, state in rows_by_name(result).values()} == {"skip-net"}
    assert rows_by_name(result)["acme/enum"] == ("v1.1.0", "skip", "", "skip-net")
    assert packagist.requests == []
    assert not any("ls-remote" in call for call in counting_git())
    assert result["summary"] == {"in_sync": 0, "drift": 0, "unknown": 0}
    assert result["notes"][0] == render(status.NEXT_STEP["skip-net"])


def test_one_ls_remote_per_repository(
    workspace: Workspace, packagist: FakePackagist, counting_git: Callable[[], list[list[str]]]
) -> None:
    publish_workspace(packagist)
    run_status(workspace.root)
    remote_calls = [call for call in counting_git() if "ls-remote" in call]
    assert len(remote_calls) == 2, "monorepo and standalone; fresh has no tag to look for"


def test_transient_errors_are_retried(workspace: Workspace, packagist: FakePackagist) -> None:
    from tests.packagist.server import p2_document

    packagist.serve(
        "acme/slugger", Reply(503), Reply(503), Reply(200, p2_document("acme/slugger", ["v2.0.0"]))
    )
    result = run_status(workspace.root, package="slugger")
    assert rows_by_name(result) == {"acme/slugger": ("v2.0.0", "no", "v2.0.0", "in-sync")}
    assert len(packagist.p2_requests("acme/slugger")) == 3


def test_retry_after_is_respected(workspace: Workspace, packagist: FakePackagist) -> None:
    from tests.packagist.server import p2_document

    packagist.serve(
        "acme/slugger",
        Reply(429, headers=(("Retry-After", "1"),)),
        Reply(200, p2_document("acme/slugger", ["v1.9.0"])),
    )
    result = run_status(workspace.root, package="slugger")
    assert rows_by_name(result)["acme/slugger"][3] == "needs-update"
    first, second = packagist.p2_requests("acme/slugger")
    assert second.at - first.at >= 0.95


def test_forbidden_is_not_retried(workspace: Workspace, packagist: FakePackagist) -> None:
    packagist.serve("acme/slugger", Reply(403, b"forbidden"))
    result = run_status(workspace.root, package="slugger")
    assert rows_by_name(result)["acme/slugger"][3] == "unknown"
    assert len(packagist.p2_requests("acme/slugger")) == 1


def test_slow_answer_past_the_request_timeout_is_retried(
    workspace: Workspace, packagist: FakePackagist, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.packagist.server import p2_document

    monkeypatch.setattr(client, "REQUEST_TIMEOUT", 0.5)
    document = p2_document("acme/slugger", ["v2.0.0"])
    packagist.serve("acme/slugger", Reply(200, document, delay=3.0), Reply(200, document))
    result = run_status(workspace.root, package="slugger")
    assert rows_by_name(result)["acme/slugger"][3] == "in-sync"
    assert len(packagist.p2_requests("acme/slugger")) == 2


def test_a_server_that_never_answers_is_abandoned_at_the_budget(
    workspace: Workspace, packagist: FakePackagist
) -> None:
    packagist.serve("acme/slugger", Reply(delay=HANG))
    packagist.serve("acme/enum", Reply(delay=HANG))
    started = time.monotonic()
    result = run_status(workspace.root, package="acme/slugger", budget_s=5)
    assert time.monotonic() - started < 7
    [row] = result["packages"]
    assert (row["state"], row["cause"]) == ("unknown", "budget")
    assert (
        f"budget: budget_s=5 ran out before Packagist answered; {render(status.FIX['budget'])}"
        in result["notes"]
    )


def test_invalid_names_are_never_requested(tmp_path: Path, packagist: FakePackagist) -> None:
    from tests.helpers import Repo

    repo = Repo(tmp_path / "r")
    write_package(repo.path / "a", {"name": "Acme/Widget"})
    write_package(repo.path / "b", {"name": "acme/gadget"})
    write_package(repo.path / "c", {"type": "project"})
    repo.commit("init")
    repo.git("tag", "v0.1.0")
    packagist.publish("acme/gadget", "v0.1.0")
    result = run_status(repo.path)
    assert rows_by_name(result) == {
        "acme/gadget": ("v0.1.0", "unknown", "v0.1.0", "in-sync"),
        "Acme/Widget": ("v0.1.0", "unknown", "", "unpublished"),
        "": ("v0.1.0", "unknown", "", "unpublished"),
    }
    assert {r.path for r in packagist.requests} == {"/p2/acme/gadget.json"}
    assert "not looked up on Packagist (not a valid Composer package name): Acme/Widget" in result["notes"]


def test_unknown_package_selector(workspace: Workspace, packagist: FakePackagist) -> None:
    with pytest.raises(ProviderError, match='no package matching "nothing" under .'):
        run_status(workspace.root, package="nothing")


def test_budget_drops_trailing_rows(workspace: Workspace, packagist: FakePackagist) -> None:
    publish_workspace(packagist)
    full = run_status(workspace.root, offline=True)
    cut = status.run(status.Params(offline=True), context(workspace.root, budget=300))
    assert budget.cost(cut) <= 300
    shown = len(cut["packages"])
    assert cut["packages"] == full["packages"][:shown]
    assert cut["omitted"] == {"packages": len(full["packages"]) - shown}
    assert cut["summary"] == full["summary"]


def test_two_runs_are_byte_identical(workspace: Workspace, packagist: FakePackagist) -> None:
    publish_workspace(packagist)
    first = jsonfmt.compact(run_status(workspace.root))
    assert jsonfmt.compact(run_status(workspace.root)) == first


@pytest.mark.parametrize("budget_s", [4, 301])
def test_budget_limits(budget_s: int) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        status.Params(budget_s=budget_s)


def tagged_package(path: Path, name: str = "acme/widget", origin: str | None = None) -> Path:
    """A one-package repository tagged v1.0.0, with `origin` set to `origin` when given."""
    from tests.helpers import Repo

    repo = Repo(path)
    write_package(repo.path, {"name": name})
    repo.commit("init")
    repo.git("tag", "v1.0.0")
    if origin is not None:
        repo.git("remote", "add", "origin", origin)
    return repo.path


def bare_origin(path: Path, repo: Path) -> str:
    from tests.helpers import git

    git(path.parent, "init", "-q", "--bare", str(path))
    git(repo, "remote", "add", "origin", path.as_uri())
    git(repo, "push", "-q", "origin", "v1.0.0")
    return path.as_uri()


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def only_row(result: dict[str, Any]) -> dict[str, str]:
    [row] = result["packages"]
    return row


def cause_note(result: dict[str, Any], cause: str) -> str:
    [note] = [n for n in result["notes"] if n.startswith(f"{cause}: ")]
    return note


def test_connection_refused_is_named_with_its_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tagged_package(tmp_path / "w")
    bare_origin(tmp_path / "w.git", repo)
    port = closed_port()
    monkeypatch.setenv("SOFIA_PACKAGIST_URL", f"http://127.0.0.1:{port}")
    result = run_status(repo)
    assert only_row(result) | {"dir": ""} == {
        "name": "acme/widget",
        "dir": "",
        "local_tag": "v1.0.0",
        "pushed": "yes",
        "packagist": "",
        "state": "unknown",
        "cause": "packagist-refused",
    }
    assert cause_note(result, "packagist-refused") == (
        f"packagist-refused: connection refused by 127.0.0.1:{port}; {render(status.FIX['packagist-refused'])}"
    )
    assert status.NEXT_STEP["unknown"] in result["notes"]


def test_an_unresolvable_host_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tagged_package(tmp_path / "w")
    bare_origin(tmp_path / "w.git", repo)
    monkeypatch.setenv("SOFIA_PACKAGIST_URL", "http://packagist.invalid")
    result = run_status(repo)
    assert only_row(result)["cause"] == "packagist-dns"
    assert cause_note(result, "packagist-dns") == (
        f"packagist-dns: cannot resolve packagist.invalid; {render(status.FIX['packagist-dns'])}"
    )


def test_a_tls_handshake_failure_is_named(
    tmp_path: Path, packagist: FakePackagist, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tagged_package(tmp_path / "w")
    bare_origin(tmp_path / "w.git", repo)
    secure = packagist.url.replace("http://", "https://")
    monkeypatch.setenv("SOFIA_PACKAGIST_URL", secure)
    result = run_status(repo)
    assert only_row(result)["cause"] == "packagist-tls"
    note = cause_note(result, "packagist-tls")
    assert note.startswith(f"packagist-tls: TLS handshake with {secure.removeprefix('https://')} failed: ")
    assert note.endswith(render(status.FIX["packagist-tls"]))


def test_a_server_error_is_named_with_its_status(tmp_path: Path, packagist: FakePackagist) -> None:
    repo = tagged_package(tmp_path / "w")
    bare_origin(tmp_path / "w.git", repo)
    packagist.serve("acme/widget", Reply(500, b"oops"))
    result = run_status(repo)
    assert only_row(result)["cause"] == "packagist-http-500"
    assert len(packagist.p2_requests("acme/widget")) == 3
    assert cause_note(result, "packagist-http-500") == (
        f"packagist-http-500: HTTP 500 from {packagist.url}; {render(status.FIX['packagist-http-5'])}"
    )


def test_a_forbidden_answer_gets_the_4xx_fix(tmp_path: Path, packagist: FakePackagist) -> None:
    repo = tagged_package(tmp_path / "w")
    bare_origin(tmp_path / "w.git", repo)
    packagist.serve("acme/widget", Reply(403, b"no"))
    result = run_status(repo)
    assert only_row(result)["cause"] == "packagist-http-403"
    assert cause_note(result, "packagist-http-403").endswith(render(status.FIX["packagist-http-4"]))


def test_a_server_slower_than_each_request_is_a_timeout(
    tmp_path: Path, packagist: FakePackagist, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client, "REQUEST_TIMEOUT", 0.3)
    repo = tagged_package(tmp_path / "w")
    bare_origin(tmp_path / "w.git", repo)
    packagist.serve("acme/widget", Reply(200, b"{}", delay=HANG))
    result = run_status(repo, budget_s=30)
    assert only_row(result)["cause"] == "packagist-timeout"
    assert len(packagist.p2_requests("acme/widget")) == 3
    assert cause_note(result, "packagist-timeout") == (
        f"packagist-timeout: no answer within 0.3 s from {packagist.url}; {render(status.FIX['packagist-timeout'])}"
    )


def test_a_server_slower_than_the_budget_is_named_budget(tmp_path: Path, packagist: FakePackagist) -> None:
    repo = tagged_package(tmp_path / "w")
    bare_origin(tmp_path / "w.git", repo)
    packagist.serve("acme/widget", Reply(delay=HANG))
    result = run_status(repo, budget_s=5)
    assert (only_row(result)["state"], only_row(result)["cause"]) == ("unknown", "budget")
    assert cause_note(result, "budget") == (
        f"budget: budget_s=5 ran out before Packagist answered; {render(status.FIX['budget'])}"
    )


def test_no_origin_is_named(tmp_path: Path, packagist: FakePackagist) -> None:
    packagist.publish("acme/widget", "v1.0.0")
    repo = tagged_package(tmp_path / "w")
    result = run_status(repo)
    row = only_row(result)
    assert (row["pushed"], row["state"], row["cause"]) == ("unknown", "in-sync", "origin-missing")
    assert cause_note(result, "origin-missing") == (
        f"origin-missing: .: no remote named origin; {render(status.FIX['origin-missing'])}"
    )


@pytest.mark.parametrize(
    ("origin", "git_says"),
    [
        (
            "file:///nonexistent/widget.git",
            "fatal: '/nonexistent/widget.git' does not appear to be a git repository",
        ),
        (
            "http://127.0.0.1:{port}/widget.git",
            "fatal: unable to access 'http://127.0.0.1:{port}/widget.git/': ",
        ),
    ],
)
def test_an_unreachable_origin_is_named_in_gits_words(
    tmp_path: Path, packagist: FakePackagist, origin: str, git_says: str
) -> None:
    port = closed_port()
    packagist.publish("acme/widget", "v1.0.0")
    repo = tagged_package(tmp_path / "w", origin=origin.format(port=port))
    result = run_status(repo)
    row = only_row(result)
    assert (row["pushed"], row["state"], row["cause"]) == ("unknown", "in-sync", "origin-unreachable")
    note = cause_note(result, "origin-unreachable")
    assert note.startswith(f"origin-unreachable: .: {git_says.format(port=port)}")
    assert note.endswith(render(status.FIX["origin-unreachable"]))


def test_both_sides_failing_name_both_causes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tagged_package(tmp_path / "w")
    monkeypatch.setenv("SOFIA_PACKAGIST_URL", f"http://127.0.0.1:{closed_port()}")
    row = only_row(run_status(repo))
    assert (row["pushed"], row["state"], row["cause"]) == (
        "unknown",
        "unknown",
        "origin-missing packagist-refused",
    )


def test_a_monorepo_s_origin_problem_is_named_once(tmp_path: Path, packagist: FakePackagist) -> None:
    from tests.helpers import Repo

    repo = Repo(tmp_path / "mono")
    for name in ("a", "b", "c"):
        write_package(repo.path / "packages" / name, {"name": f"acme/{name}"})
        packagist.publish(f"acme/{name}", "v1.0.0")
    repo.commit("init")
    repo.git("tag", "v1.0.0")
    result = run_status(tmp_path)
    assert {row["cause"] for row in result["packages"]} == {"origin-missing"}
    assert cause_note(result, "origin-missing") == (
        f"origin-missing: mono: no remote named origin; {render(status.FIX['origin-missing'])}"
    )


def test_cause_details_are_bounded(tmp_path: Path, packagist: FakePackagist) -> None:
    from tests.helpers import Repo

    for index in range(5):
        repo = Repo(tmp_path / f"r{index}")
        write_package(repo.path, {"name": f"acme/w{index}"})
        repo.commit("init")
        repo.git("tag", "v1.0.0")
        repo.git("remote", "add", "origin", f"file:///nonexistent/{'x' * 300}{index}.git")
        packagist.publish(f"acme/w{index}", "v1.0.0")
    result = run_status(tmp_path)
    assert {row["cause"] for row in result["packages"]} == {"origin-unreachable"}
    note = cause_note(result, "origin-unreachable")
    assert note.count("fatal: ") == 3 and "(+2 more)" in note
    assert len(note) < 1000
