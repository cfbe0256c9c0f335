"""The `sf` command line: command tree from the registry, formats, exit codes, lazy imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sofia import __version__
from sofia.providers.registry import GROUPS, PROVIDERS
from tests.helpers import Repo, run_sf


def imported_modules_after(argv: list[str]) -> set[str]:
    """The top-level modules imported by running `sf <argv>` in a fresh interpreter."""
    script = (
        "import sys\n"
        "from sofia.cli.main import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stdout.flush()\n"
        "print('\\n'.join(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    return set(done.stderr.split())


def test_help_lists_every_registered_command() -> None:
    done = run_sf("--help")
    assert done.returncode == 0
    heads = {p.cli[0] for p in PROVIDERS} | {"mcp", "doctor"}
    listed = {
        line.split()[0] for line in done.stdout.splitlines() if line.startswith("    ") and line.strip()
    }
    assert heads <= listed
    flat = " ".join(done.stdout.split())
    for group in GROUPS:
        if any(p.cli[0] == group.name and len(p.cli) == 2 for p in PROVIDERS):
            assert " ".join(group.help.split()) in flat


def test_help_imports_no_provider_models_and_never_mcp_or_loky() -> None:
    modules = imported_modules_after(["--help"])
    assert "sofia" in modules
    assert {"pydantic", "mcp", "loky", "tree_sitter", "toon_format", "orjson"}.isdisjoint(modules)


@pytest.mark.parametrize("module", sorted({p.head_start for p in PROVIDERS if p.head_start}))
def test_a_head_start_runs_before_pydantic_is_imported(module: str) -> None:
    """A head start is only worth having if it starts ripgrep before the input model's imports."""
    code = f"import sys, {module}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_command_imports_neither_mcp_nor_loky(tmp_path: Path) -> None:
    modules = imported_modules_after(["changed", "--help"])
    assert "pydantic" in modules  # its arguments come from the input model
    assert {"mcp", "loky"}.isdisjoint(modules)


def test_group_help_lists_its_subcommands() -> None:
    done = run_sf("vue", "--help")
    assert done.returncode == 0
    assert "routes" in done.stdout


def test_group_without_subcommand_is_a_usage_error() -> None:
    done = run_sf("vue")
    assert done.returncode == 2
    assert "routes" in done.stderr


def test_no_command_prints_help_and_exits_2() -> None:
    done = run_sf()
    assert done.returncode == 2
    assert "COMMAND" in done.stderr


def test_version() -> None:
    done = run_sf("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"sf {__version__}"


def test_command_help_shows_fields_defaults_and_examples() -> None:
    done = run_sf("changed", "--help")
    assert done.returncode == 0
    for text in (
        "RANGE",
        "--staged",
        "--root",
        "--no-symbols",
        "--json",
        "--md",
        "--format",
        "examples:",
        "(default: .)",
    ):
        assert text in done.stdout, text


def test_unknown_flag_is_a_usage_error() -> None:
    done = run_sf("changed", "--frobnicate")
    assert done.returncode == 2
    assert "unrecognized arguments: --frobnicate" in done.stderr


def test_provider_error_format_and_exit_code(tmp_path: Path) -> None:
    done = run_sf("changed", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    line = done.stderr.strip().splitlines()[0]
    assert line.startswith("sf changed: error: not a git repository: ")
    assert line.endswith("(run inside a repository or pass --root DIR, a directory inside one)")


def test_format_aliases_agree(repo: Repo) -> None:
    repo.write("a.py", "def f():\n    return 1\n")
    repo.commit("one")
    repo.write("a.py", "def f():\n    return 2\n")
    assert (
        run_sf("changed", "--json", cwd=repo.path).stdout
        == run_sf("changed", "--format", "json", cwd=repo.path).stdout
    )
    assert (
        run_sf("changed", "--md", cwd=repo.path).stdout
        == run_sf("changed", "--format=md", cwd=repo.path).stdout
    )
    toon = run_sf("changed", cwd=repo.path).stdout
    assert toon == run_sf("changed", "--format", "toon", cwd=repo.path).stdout
    assert toon.startswith("spec: working tree vs HEAD\nfiles[1]{")
    document = json.loads(run_sf("changed", "--json", cwd=repo.path).stdout)
    assert document["files"][0]["symbols"] == "f"


def test_footer_goes_to_stderr_and_never_with_json(repo: Repo) -> None:
    repo.write("a.txt", "x\n")
    done = run_sf("changed", cwd=repo.path, env={"SOFIA_FOOTER": "on"})
    assert done.stderr.startswith("# sf ≈")
    assert "# sf" not in done.stdout
    assert "# sf" not in run_sf("changed", "--json", cwd=repo.path, env={"SOFIA_FOOTER": "on"}).stderr
    assert run_sf("changed", cwd=repo.path, env={"SOFIA_FOOTER": "off"}).stderr == ""


def test_negative_budget_is_a_usage_error(repo: Repo) -> None:
    done = run_sf("changed", "--max-output-tokens", "-5", cwd=repo.path)
    assert done.returncode == 2
    assert "--max-output-tokens" in done.stderr


@pytest.mark.parametrize("provider", PROVIDERS, ids=lambda p: p.name)
def test_registry_names_follow_the_cli_path(provider: object) -> None:
    from sofia.providers.registry import Provider

    assert isinstance(provider, Provider)
    assert provider.name == "_".join((*provider.cli, *([provider.mode_flag] if provider.mode_flag else [])))
    assert provider.description.strip()
    model = provider.params
    for name, field in model.model_fields.items():
        assert field.description, f"{provider.name}.{name} has no description"
    assert model.model_config.get("extra") == "forbid"


@pytest.mark.parametrize("provider", [p for p in PROVIDERS if p.familiar], ids=lambda p: p.name)
def test_a_familiar_flag_is_one_letter_the_command_does_not_take(provider: object) -> None:
    """An explained flag that the command also accepted would never be explained; one that is not
    a single letter could never be bundled (`-rn`) as the table is read."""
    import argparse

    from sofia.cli import arguments
    from sofia.providers.registry import Provider

    assert isinstance(provider, Provider)
    parser = argparse.ArgumentParser()
    taken = {
        flag
        for spec in arguments.add_model_arguments(parser, provider.cli_params)
        for flag in (spec.cli.short, spec.cli.off_short)
    }
    taken |= {option for action in parser._actions for option in action.option_strings}
    for flag, why in provider.familiar.items():
        assert len(flag) == 2 and flag[0] == "-" and flag[1].isalpha(), flag
        assert flag not in taken, f"{provider.name} takes {flag}, so its explanation is never shown"
        assert why.strip()


def test_doctor_reports_each_check(tmp_path: Path) -> None:
    done = run_sf("doctor", "--json", cwd=tmp_path)
    document = json.loads(done.stdout)
    checks = {row["check"]: row for row in document["checks"]}
    for name in (
        "python",
        "git",
        "ripgrep",
        "tree-sitter",
        "gh",
        "php",
        "composer",
        "claude code data",
        "mcp server",
    ):
        assert name in checks
    assert checks["git"]["status"] == "ok"
    assert checks["ripgrep"]["status"] == "ok"
    assert checks["claude code data"]["status"] == "missing"
    broken = [r for r in document["checks"] if r["required"] and r["status"] != "ok"]
    assert document["ok"] is (not broken)
    assert done.returncode == (1 if broken else 0)
    for row in document["checks"]:
        if row["status"] != "ok":
            assert row["fix"], row


REPO_ROOT = Path(__file__).resolve().parents[2]
FAULTY = {"SOFIA_TEST_PROVIDERS": "tests.server.faulty", "PYTHONPATH": str(REPO_ROOT)}


def test_interrupt_exits_130(tmp_path: Path) -> None:
    import os
    import signal
    import time

    env = dict(os.environ, **FAULTY)
    proc = subprocess.Popen(
        [sys.executable, "-m", "sofia", "test", "sleep", "--seconds", "30"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert out == ""
    assert "interrupted" in err


def test_unexpected_exception_is_an_internal_error_line(tmp_path: Path) -> None:
    done = run_sf("test", "boom", cwd=tmp_path, env=FAULTY)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("sf test boom: internal error: ")
    assert "SOFIA_DEBUG=1" in done.stderr


def test_validation_error_names_the_option(tmp_path: Path) -> None:
    done = run_sf("test", "sleep", "--seconds", "-1", cwd=tmp_path, env=FAULTY)
    assert done.returncode == 2
    assert "sf test sleep: error: --seconds: 0 or more, not -1" in done.stderr
    assert "https://" not in done.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["grpe", "x"], "sf: error: unknown command 'grpe'; did you mean grep"),
        (["cc", "shwo"], "sf cc: error: unknown subcommand 'shwo'; did you mean show"),
        (["grep", "x", "--max-per-patern", "3"], "--max-per-patern (did you mean --max-per-pattern?)"),
        (["github", "ci", "--wacth"], "--wacth (did you mean --watch?)"),
    ],
)
def test_a_mistyped_command_or_option_suggests_the_right_one(
    tmp_path: Path, args: list[str], said: str
) -> None:
    done = run_sf(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert said in done.stderr


def test_a_bad_setting_is_a_usage_error_in_the_cli_too(tmp_path: Path) -> None:
    done = run_sf("grep", "x", env={"SOFIA_MAX_OUTPUT_TOKENS": "abc"}, cwd=tmp_path)
    assert done.returncode == 2
    assert "SOFIA_MAX_OUTPUT_TOKENS must be a whole number, not 'abc'" in done.stderr


def test_a_tilde_path_means_the_home_directory_as_in_a_shell(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("needle\n")
    done = run_sf("grep", "needle", "--root", "~", "--json", env={"HOME": str(tmp_path)}, cwd="/")
    assert done.returncode == 0, done.stderr
