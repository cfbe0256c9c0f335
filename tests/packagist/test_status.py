"""packagist_status against real git repositories, bare origins and a local HTTP server."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sofia.output import budget, jsonfmt
from sofia.providers.contract import ProviderError
from sofia.providers.packagist import client, status
from tests.composer.conftest import context, write_package
from tests.composer.workspace import Workspace
from tests.packagist.server import HANG, FakePackagist, Reply


def run_status(root: Path, **params: Any) -> dict[str, Any]:
    return status.run(status.Params(**params), context(root))


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
    assert result["notes"] == [
        status.NEXT_STEP["no-tags"],
        status.NEXT_STEP["unpublished"],
        status.NEXT_STEP["needs-update"],
        status.NEXT_STEP["local-stale"],
        status.NEXT_STEP["unknown"],
        "unreadable composer.json, not listed: monorepo/packages/broken (sf composer ls shows why)",
        "pushed=no: the local tag is not on origin yet; push it (git push origin TAG)",
    ]
    assert len(packagist.p2_requests("acme/monorepo")) == 3
    assert len(packagist.p2_requests("acme/queue")) == 1
    assert list(result) == ["root", "packages", "summary", "notes", "omitted"]


def test_offline_asks_nobody(
    workspace: Workspace, packagist: FakePackagist, counting_git: Callable[[], list[list[str]]]
) -> None:
    result = run_status(workspace.root, offline=True)
    assert {state for _, _, _, state in rows_by_name(result).values()} == {"skip-net"}
    assert rows_by_name(result)["acme/enum"] == ("v1.1.0", "skip", "", "skip-net")
    assert packagist.requests == []
    assert not any("ls-remote" in call for call in counting_git())
    assert result["summary"] == {"in_sync": 0, "drift": 0, "unknown": 0}
    assert result["notes"][0] == status.NEXT_STEP["skip-net"]


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
    assert rows_by_name(result)["acme/slugger"][3] == "unknown"
    assert "budget_s=5 ran out: unanswered probes are reported unknown" in result["notes"]


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
