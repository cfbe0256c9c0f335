"""github_ci in repository mode against the fake gh: states and ordering, failure rows from a jobs
document, log tails (timestamps, ANSI, last N, character cap, secrets), the 3-log limit, budgets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sofia.errors import render_all
from sofia.providers.contract import ProviderError
from sofia.providers.github import ci, logs
from sofia.providers.github import watch as watching
from tests.github.fakegh import FakeGh, go_json
from tests.github.helpers import context, gh_jobs, gh_run, github_repo, record_api_repo, run_list_args

SECRETS = ("AKIAIOSFODNN7EXAMPLE", "hunter2secret", "ghp_Zx9Lk2Mn4Bv6Cx8Qw1Er3Ty5Ui7Op9As1Df3")


@pytest.fixture
def api(tmp_path: Path, fake_gh: FakeGh) -> Path:
    repo = github_repo(tmp_path / "api").path
    record_api_repo(fake_gh, repo)
    return repo


def test_states_order_and_failure_rows(api: Path, fake_gh: FakeGh) -> None:
    result = ci.run(ci.Params(), context(api))
    assert isinstance(result, dict)
    assert list(result) == [
        "mode",
        "repo_dir",
        "runs",
        "failures",
        "summary",
        "redactions",
        "notes",
    ]
    assert result["mode"] == "repository"
    assert result["repo_dir"] == "."
    assert [(r["id"], r["state"]) for r in result["runs"]] == [
        (9123, "fail"),
        (9124, "running"),
        (9120, "fixed"),
        (9125, "ok"),
        (9119, "ok"),
    ]
    first = result["runs"][0]
    assert first == {
        "package": "",
        "id": 9123,
        "workflow": "CI",
        "state": "fail",
        "status": "completed",
        "conclusion": "failure",
        "branch": "fix/retry",
        "event": "push",
        "title": "Fix retry; revoke [REDACTED:aws]",
        "created": "2026-05-31T06:00Z",
        "url": "https://github.com/acme/api/actions/runs/9123",
    }
    assert [(f["run_id"], f["job"], f["step"]) for f in result["failures"]] == [
        (9123, "tests (8.3)", "Run phpunit"),
        (9123, "phpstan", "Run phpstan"),
    ]
    assert result["summary"] == {"fail": 1, "fixed": 1, "running": 1, "ok": 2, "error": 0}
    assert result["notes"] == [] and "omitted" not in result


def test_log_tail_is_clean_last_lines_with_secrets_redacted(api: Path) -> None:
    result = ci.run(ci.Params(log_lines=6), context(api))
    assert isinstance(result, dict)
    tail = result["failures"][0]["log_tail"]
    assert tail.splitlines() == [
        "Request log: POST https://deploy:[REDACTED:url-credentials]@hooks.acme.test/retry returned 503",
        "Retry headers: Authorization: Bearer [REDACTED:github]",
        "",
        "FAILURES!",
        "Tests: 118, Assertions: 301, Failures: 1.",
        "##[error]Process completed with exit code 1.",
    ]
    assert "\x1b" not in tail and "2026-05-31T" not in tail and "\ufeff" not in tail
    phpstan = result["failures"][1]["log_tail"]
    assert phpstan.endswith(" [ERROR] Found 1 error\n\n##[error]Process completed with exit code 1.")
    assert result["redactions"] == 3


@pytest.mark.parametrize("fmt", ["toon", "json", "md"])
def test_no_planted_secret_reaches_any_format(api: Path, fmt: str) -> None:
    from sofia.output import render

    result = ci.run(ci.Params(log_lines=100), context(api))
    text = render.render(result, fmt)
    for secret in (*SECRETS, "ghp_R8mQ2vN5xK7wL3pT9yH4cF6jD1sA0bE2gU5i"):
        assert secret not in text
    assert isinstance(result, dict) and result["redactions"] == 4
    assert "[REDACTED:github]" in text


def test_character_cap_keeps_the_end() -> None:
    lines = [f"line {i} " + "x" * 300 for i in range(20)]
    text = logs.render(lines, 20)
    assert len(text) <= logs.TAIL_CHARS
    assert text.startswith("…line ")
    assert text.endswith(lines[-1])


def test_log_lines_zero_downloads_no_log(api: Path, fake_gh: FakeGh) -> None:
    result = ci.run(ci.Params(log_lines=0), context(api))
    assert isinstance(result, dict)
    assert [f["log_tail"] for f in result["failures"]] == ["", ""]
    assert not any("--log-failed" in argv for argv in fake_gh.argvs())
    assert ["run", "view", "9123", "--json", "jobs"] in fake_gh.argvs()


def test_five_failing_runs_download_three_logs(tmp_path: Path, fake_gh: FakeGh) -> None:
    repo = github_repo(tmp_path / "api").path
    runs = [gh_run(100 + i, created=f"2026-05-2{i}T06:00:00Z", workflow=f"W{i}") for i in range(5)]
    fake_gh.add(run_list_args(5), cwd=repo, stdout=go_json(runs))
    for i in range(5):
        run_id = str(100 + i)
        fake_gh.add(["run", "view", run_id, "--json", "jobs"], cwd=repo, stdout=gh_jobs("tests", "Run tests"))
        fake_gh.add(
            ["run", "view", run_id, "--log-failed"],
            cwd=repo,
            stdout=f"tests\tRun tests\t2026-05-31T06:01:00.0000000Z failure of run {run_id}\n",
        )
    result = ci.run(ci.Params(), context(repo))
    assert isinstance(result, dict)
    assert [r["id"] for r in result["runs"]] == [104, 103, 102, 101, 100]
    logged = sorted(argv[2] for argv in fake_gh.argvs() if "--log-failed" in argv)
    assert logged == ["102", "103", "104"]
    assert [f["log_tail"] for f in result["failures"]] == [
        "failure of run 104",
        "failure of run 103",
        "failure of run 102",
        "",
        "",
    ]


def test_a_subdirectory_selects_its_repository(api: Path, fake_gh: FakeGh) -> None:
    sub = api / "src" / "Http"
    sub.mkdir(parents=True)
    result = ci.run(ci.Params(root="src/Http"), context(api))
    assert isinstance(result, dict)
    assert result["mode"] == "repository" and result["repo_dir"] == "."
    assert {call["cwd"] for call in fake_gh.calls()} == {str(api.resolve())}


def test_empty_run_list(tmp_path: Path, fake_gh: FakeGh) -> None:
    repo = github_repo(tmp_path / "api").path
    fake_gh.add(run_list_args(5), cwd=repo, stdout_file="run_list_empty.json")
    result = ci.run(ci.Params(), context(repo))
    assert isinstance(result, dict)
    assert result["runs"] == [] and result["failures"] == []
    assert result["summary"] == {"fail": 0, "fixed": 0, "running": 0, "ok": 0, "error": 0}


def test_failing_detail_call_becomes_a_note(tmp_path: Path, fake_gh: FakeGh) -> None:
    repo = github_repo(tmp_path / "api").path
    fake_gh.add(run_list_args(5), cwd=repo, stdout=go_json([gh_run(7)]))
    fake_gh.add(["run", "view", "7", "--json", "jobs"], cwd=repo, stdout=gh_jobs("tests", "Run tests"))
    fake_gh.add(
        ["run", "view", "7", "--log-failed"],
        cwd=repo,
        stderr="failed to get run log: log not found\n",
        exit=1,
    )
    result = ci.run(ci.Params(), context(repo))
    assert isinstance(result, dict)
    assert result["failures"] == [{"run_id": 7, "job": "tests", "step": "Run tests", "log_tail": ""}]
    assert result["notes"] == [
        "run 7: log unavailable: gh run view failed: failed to get run log: log not found"
    ]


def test_budget_ladder_keeps_counts_exact(api: Path) -> None:
    full = ci.run(ci.Params(log_lines=100), context(api))
    small = render_all(ci.run(ci.Params(log_lines=100), context(api, budget=300)))
    assert isinstance(full, dict) and isinstance(small, dict)
    from sofia.output.budget import cost

    assert cost(small) <= 300
    assert all(f["log_tail"] == "" for f in small["failures"])
    assert len(small["runs"]) + small.get("omitted", {}).get("runs", 0) == len(full["runs"])
    assert len(small["failures"]) + small.get("omitted", {}).get("failures", 0) == len(full["failures"])
    assert small["summary"] == full["summary"]
    hint = "narrow with package, limit or log_lines"
    assert small["omitted"]["failures"] == 2, "no failure row fits, so no tail is shown"
    assert small["notes"] == [
        f"failures: showing 0 of 2 failure rows (budget 300 tok); {hint}",
        f"runs: showing {len(small['runs'])} of 5 runs (budget 300 tok); {hint}",
    ]


def test_tails_shortened_first(api: Path) -> None:
    from sofia.output.budget import cost

    full = ci.run(ci.Params(log_lines=100), context(api))
    assert isinstance(full, dict)
    budget = cost(full) - 50
    result = render_all(ci.run(ci.Params(log_lines=100), context(api, budget=budget)))
    assert isinstance(result, dict)
    assert len(result["runs"]) == 5 and len(result["failures"]) == 2
    assert all(0 < len(f["log_tail"].splitlines()) <= 5 for f in result["failures"])
    assert result["notes"] == [
        f"log_tail: 2 log tails cut to 5 lines (budget {budget} tok); narrow with package, limit or log_lines"
    ]
    assert "omitted" not in result


def test_two_runs_are_byte_identical(api: Path) -> None:
    from sofia.output.jsonfmt import compact

    first = ci.run(ci.Params(), context(api))
    second = ci.run(ci.Params(), context(api))
    assert compact(first) == compact(second)


def test_gh_errors_fail_repository_mode(tmp_path: Path, fake_gh: FakeGh) -> None:
    repo = github_repo(tmp_path / "api").path
    fake_gh.add(run_list_args(5), cwd=repo, stdout="<html>Unicorn!</html>")
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(), context(repo))
    assert raised.value.message == "unexpected output from gh run list"


def test_missing_root(tmp_path: Path) -> None:
    with pytest.raises(ProviderError) as raised:
        ci.run(ci.Params(root="nowhere"), context(tmp_path))
    assert raised.value.message == "root not found: nowhere"


def test_mcp_model_has_no_watch_fields() -> None:
    schema = json.dumps(ci.Params.model_json_schema())
    assert set(ci.Params.model_fields) == {"package", "root", "limit", "log_lines"}
    assert "watch" not in schema and "timeout" not in schema
    assert {"watch", "timeout"} <= set(watching.Params.model_fields)


def test_the_read_only_module_cannot_reach_the_blocking_mode() -> None:
    """`github_ci` is read-only by construction: its module imports nothing that waits."""
    source = Path(ci.__file__).read_text()
    assert "watch" not in source


@pytest.mark.parametrize(("text", "seconds"), [("90", 90), ("90s", 90), ("15m", 900), ("1h30m", 5400)])
def test_durations(text: str, seconds: float) -> None:
    assert watching.parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "0", "soon", "15x", "-5m"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ValueError):
        watching.parse_duration(text)
