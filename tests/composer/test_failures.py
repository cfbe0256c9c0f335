"""The first meaningful failure line and the failing step, from recorded tool output."""

from __future__ import annotations

import pytest

from sofia.providers.composer import failures
from tests.composer.recordings import EXPECTED, PACKAGE_DIR, RECORDINGS


def recorded(name: str) -> list[str]:
    text = (RECORDINGS / f"{name}.txt").read_text().replace("{cwd}", PACKAGE_DIR)
    return failures.clean_lines(text)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_first_failure_of_recorded_output(name: str) -> None:
    assert failures.first_failure(recorded(name), PACKAGE_DIR) == EXPECTED[name]


def test_every_failing_recording_has_an_expectation() -> None:
    names = {path.stem for path in RECORDINGS.glob("*.txt")} - {"phpunit-ok", "phpstan-ok"}
    assert names == set(EXPECTED)


def test_ansi_colour_does_not_change_the_answer() -> None:
    coloured = [
        f"\x1b[37;41m{line}\x1b[0m" if line.startswith("There") else line
        for line in recorded("phpunit-error")
    ]
    coloured = failures.clean_lines("\n".join(coloured))
    assert failures.first_failure(coloured) == EXPECTED["phpunit-error"]


def test_phpunit_beats_a_later_phpstan_table() -> None:
    lines = recorded("phpunit-failures") + recorded("phpstan-errors")
    assert failures.first_failure(lines, PACKAGE_DIR) == EXPECTED["phpunit-failures"]


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("compiling\nok 1 - parses\nnot ok 2 - renders\n", "not ok 2 - renders"),
        ("step one\n✘ migrations are pending\nsummary\n", "✘ migrations are pending"),
        (
            "PHP Fatal error:  Allowed memory size exhausted\n",
            "PHP Fatal error:  Allowed memory size exhausted",
        ),
        ("1 failure in suite\n", "1 failure in suite"),
        ("errorless\nfailure\nfine\n", "fine"),
        ("", ""),
    ],
)
def test_fallback_rules(output: str, expected: str) -> None:
    assert failures.first_failure(failures.clean_lines(output)) == expected


def test_composer_lines_are_not_the_failure() -> None:
    lines = failures.clean_lines(
        "> php tools/lint.php\n"
        "Script php tools/lint.php handling the lint event returned with error code 3\n"
        "Script @lint was called via check\n"
    )
    assert failures.failed_step(lines) == "php tools/lint.php"
    assert failures.first_failure(lines) == "Script @lint was called via check"


def test_failed_step_takes_the_innermost_command() -> None:
    lines = failures.clean_lines(
        "Script vendor/bin/phpstan analyse --memory-limit=1G handling the phpstan event returned with error code 1\n"
        "Script @phpstan was called via check\n"
        "Script @check handling the check event returned with error code 1\n"
    )
    assert failures.failed_step(lines) == "vendor/bin/phpstan analyse --memory-limit=1G"
    assert failures.failed_step([]) == ""
