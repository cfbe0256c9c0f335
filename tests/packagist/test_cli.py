"""`sf packagist status` end to end through the real command line."""

from __future__ import annotations

import json

from tests.composer.workspace import Workspace
from tests.helpers import run_sf
from tests.packagist.server import FakePackagist


def test_status_offline(workspace: Workspace) -> None:
    done = run_sf("packagist", "status", "--offline", "--json", cwd=workspace.root)
    assert done.returncode == 0, done.stderr
    assert {row["state"] for row in json.loads(done.stdout)["packages"]} == {"skip-net"}


def test_status_against_the_local_server(workspace: Workspace, packagist: FakePackagist) -> None:
    packagist.publish("acme/slugger", "v2.0.0")
    done = run_sf(
        "packagist",
        "status",
        "slugger",
        "--budget",
        "20",
        cwd=workspace.root,
        env={"SOFIA_PACKAGIST_URL": packagist.url},
    )
    assert done.returncode == 0, done.stderr
    assert "acme/slugger,standalone,v2.0.0,no,v2.0.0,in-sync" in done.stdout
