"""`param` and `tool` references, and how each edge spells them: the MCP parameter spelling, and
the command line's, taken from the very parser each command builds."""

from __future__ import annotations

from typing import Any

import pytest

from sofia.errors import CLOSE, MESSAGE_LIMIT, OPEN, ProviderError, bounded, param, render, render_all, tool
from sofia.output.tokens import estimate
from tests.hints.spelling import command_line

FORMS: list[tuple[str, Any, str]] = [
    ("exts", None, "exts"),
    ("root", ..., "root=…"),
    ("paths", [...], "paths=[…]"),
    ("limit", 0, "limit=0"),
    ("regex", True, "regex=true"),
    ("case", False, "case=false"),
    ("scope", "repo", 'scope="repo"'),
    ("paths", ["src/", "a b"], 'paths=["src/","a b"]'),
    ("message", 'say "hi" – ok', 'message="say \\"hi\\" – ok"'),
]


def reference(name: str, value: Any) -> str:
    return param(name) if value is None else param(name, value)


@pytest.mark.parametrize(("name", "value", "spelled"), FORMS)
def test_mcp_spells_name_equals_json_value(name: str, value: Any, spelled: str) -> None:
    assert render(f"pass {reference(name, value)} now") == f"pass {spelled} now"


@pytest.mark.parametrize(("name", "value", "spelled"), FORMS)
def test_a_reference_never_costs_fewer_tokens_than_its_mcp_spelling(
    name: str, value: Any, spelled: str
) -> None:
    # A result is fitted to the budget with its references in it; spelled, it must still fit.
    assert estimate(f"pass {reference(name, value)} now") >= estimate(f"pass {spelled} now")


@pytest.mark.parametrize(
    ("command", "name", "value", "spelled"),
    [
        (("grep",), "regex", True, "--regex"),
        (("grep",), "case", False, "--no-case"),
        (("grep",), "word", True, "--word"),
        (("grep",), "max_per_pattern", 5, "--max-per-pattern 5"),
        (("grep",), "max_per_pattern", None, "--max-per-pattern"),
        (("grep",), "exts", None, "--ext"),
        (("grep",), "exts", ["php", "ts"], "--ext php,ts"),
        (("grep",), "ignore_dirs", ["a", "b"], "--ignore-dir a,b"),
        (("code",), "symbols", ["A::b", "c d"], "--symbol A::b --symbol 'c d'"),
        (("grep",), "root", ..., "--root DIR"),
        (("grep",), "root", "src app", "--root 'src app'"),
        (("grep",), "patterns", ["deleteUser"], "deleteUser"),
        (("grep",), "patterns", [...], "PATTERN..."),
        (("changed",), "paths", [...], "-- PATH..."),
        (("changed",), "paths", None, "-- PATH..."),
        (("changed",), "paths", ["src/"], "-- src/"),
        (("changed",), "root", ..., "--root DIR"),
        (("changed",), "range", ..., "RANGE"),
        (("changed",), "staged", None, "--staged"),
        (("changed",), "scope", "repo", "--scope repo"),
        (("changed",), "scope", ..., "--scope {workspace,repo}"),
        (("vue", "routes"), "file", ..., "FILE"),
        (("vue", "routes"), "file", "src/router.ts", "src/router.ts"),
        (("cc", "prompts"), "offset", 20, "--offset 20"),
        (("cc", "ls"), "limit", 0, "--limit 0"),
        (("cc", "bash"), "min_count", None, "--min-count"),
        (("composer", "check"), "timeout_s", 300, "--timeout 300"),
        (("composer", "check"), "budget_s", None, "--budget"),
        (("composer", "check"), "package", None, "PACKAGE"),
        (("packagist", "status"), "offline", True, "--offline"),
        (("packagist", "release"), "dry_run", True, "--dry-run"),
        (("code",), "symbols", [...], "--symbol NAME"),
        (("code",), "files", ["FILE"], "FILE"),
        (("code",), "brief", True, "--brief"),
        (("github", "branches"), "refs", 100, "--refs 100"),
        (("github", "ci"), "log_lines", None, "--log-lines"),
        (("github", "ci"), "timeout", ..., "--timeout DURATION"),  # a CLI-only mode's option
    ],
)
def test_the_cli_spells_the_flag_its_parser_has(
    command: tuple[str, ...], name: str, value: Any, spelled: str
) -> None:
    assert render(f"pass {reference(name, value)}", command_line(*command)) == f"pass {spelled}"


def test_a_name_the_command_does_not_have_keeps_the_plain_spelling() -> None:
    spell = command_line("grep")
    assert render(param("limit", 0), spell) == "limit=0"
    assert render(param("paths", [...]), spell) == "paths=[…]"
    # A flag that is off by default has no form that says "off".
    assert render(param("regex", False), spell) == "regex=false"


def test_tools_are_named_as_each_caller_calls_them() -> None:
    text = f"{tool('cc_ls')} lists sessions; {tool('grep')} finds lines; {tool('no_such_tool')}"
    assert render(text) == "cc_ls lists sessions; grep finds lines; no_such_tool"
    assert (
        render(text, command_line("cc", "show"))
        == "sf cc ls lists sessions; sf grep finds lines; no_such_tool"
    )


def test_provider_error_str_is_the_parameter_spelling_and_text_takes_a_spelling() -> None:
    error = ProviderError(f"bad {param('ignore_dirs')}", f"narrow with {param('root', ...)}")
    assert str(error) == "bad ignore_dirs (narrow with root=…)"
    assert error.text(command_line("grep")) == "bad --ignore-dir (narrow with --root DIR)"


def test_render_all_spells_every_string_of_a_result_and_changes_nothing_in_place() -> None:
    shared_notes = [f"pass {param('limit', 0)}"]  # a provider's constant, say
    untouched = {"path": "a.php", "lines": [1, 2]}
    result: dict[str, Any] = {
        "notes": shared_notes,
        "rows": [{"hint": param("regex", True), "n": 3, "ok": True, "none": None}],
        "pair": (param("exts"), 1),
        "plain": untouched,
    }
    rendered = render_all(result)
    assert rendered == {
        "notes": ["pass limit=0"],
        "rows": [{"hint": "regex=true", "n": 3, "ok": True, "none": None}],
        "pair": ("exts", 1),
        "plain": {"path": "a.php", "lines": [1, 2]},
    }
    assert shared_notes == [f"pass {param('limit', 0)}"]
    assert result["rows"][0]["hint"] == param("regex", True)
    assert rendered["plain"] is untouched  # nothing to spell: not copied
    assert render_all(untouched) is untouched


def test_text_with_no_reference_is_left_as_it_is() -> None:
    # Noncharacters that do not form a reference written by `param` are content, not marks.
    odd = f"{OPEN}x{CLOSE}"  # a complete reference shape, so it is spelled
    assert render(odd) == "x"
    for content in (f"a{OPEN}b", f"{OPEN}Name{CLOSE}", f"{OPEN}n\ufdd1not json{CLOSE}", "plain"):
        assert render(content) == content


def test_bounded_never_cuts_a_reference_in_half() -> None:
    for start in range(MESSAGE_LIMIT - 30, MESSAGE_LIMIT + 2):
        message = "x" * start + param("max_per_pattern", 5) + " tail"
        cut = bounded(message)
        if len(message) > MESSAGE_LIMIT:
            assert cut.count(OPEN) == cut.count(CLOSE), start
            assert render(cut).count("max_per_pattern=5") <= 1
            assert OPEN not in render(cut)


@pytest.mark.parametrize("name", ["", "Root", "max-per-pattern", "a b", "root=x"])
def test_a_name_no_edge_could_spell_is_refused_where_it_is_written(name: str) -> None:
    with pytest.raises(ValueError, match="not a parameter or tool name"):
        param(name)
    with pytest.raises(ValueError, match="not a parameter or tool name"):
        tool(name)
