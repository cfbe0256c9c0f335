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


SUCCESS_LINES = [
    "No syntax errors detected in src/Thing.php",  # php -l
    "No syntax error found",  # php-parallel-lint
    "OK (6 tests, 9 assertions)",  # PHPUnit
    "OK, but incomplete, skipped, or risky tests!",  # PHPUnit, nothing failed
    "[OK] No errors",  # PHPStan
    "No errors found!",  # Psalm
    "PASS  Tests\\Unit\\MoneyTest",  # Pest
    "✓ it adds money of one currency",  # Pest
    "No fixable errors were found",  # phpcbf
    "./composer.json is valid",  # composer validate
    "Found 0 of 12 files that can be fixed in 0.040 seconds",  # php-cs-fixer --dry-run
    "Time: 0.02s, 0 errors, 0 warnings",  # any counter of nothing
    "Errors: 0, Failures: 0",
]


def test_a_passing_lint_then_a_failing_test_run_reports_the_test_run() -> None:
    lines = failures.clean_lines(
        "> php -l src/Thing.php\n"
        "No syntax errors detected in src/Thing.php\n"
        "> vendor/bin/phpunit\n"
        "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\n"
        "..F                                                                 3 / 3 (100%)\n\n"
        "FAILURES!\n"
        "Tests: 3, Assertions: 3, Failures: 1.\n"
        "Script vendor/bin/phpunit handling the check event returned with error code 1\n"
    )
    assert failures.first_failure(lines) == "Tests: 3, Assertions: 3, Failures: 1."


@pytest.mark.parametrize("success", SUCCESS_LINES)
def test_a_success_line_is_never_the_failure(success: str) -> None:
    assert failures.is_success(success)
    before = failures.clean_lines(f"{success}\nmigrations are pending\n{success}\n")
    assert failures.first_failure(before) == "migrations are pending"
    alone = failures.clean_lines(
        f"> php tools/lint.php\n{success}\n"
        "Script php tools/lint.php handling the lint event returned with error code 3\n"
    )
    assert failures.first_failure(alone) == (
        "Script php tools/lint.php handling the lint event returned with error code 3"
    )


@pytest.mark.parametrize("name", ["phpunit-ok", "phpstan-ok"])
def test_a_passing_step_s_summary_is_not_the_failure(name: str) -> None:
    """A script that exits non-zero after a passing step (a later step printed nothing)."""
    found = failures.first_failure(recorded(name))
    assert found and not failures.is_success(found)
    assert found not in ("OK (6 tests, 9 assertions)", "[OK] No errors")


@pytest.mark.parametrize(
    "line",
    [
        "1 error in tests/Unit",
        "Tests: 3, Failures: 1",
        "Tests:    1 failed, 2 passed (3 assertions)",
        "Found 2 errors, no warnings",
        "ERRORS!",
    ],
)
def test_a_failure_line_is_not_taken_for_success(line: str) -> None:
    assert not failures.is_success(line)
