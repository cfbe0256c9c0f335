"""Reducing kilobytes of check output to the one line that says what failed.

Rules, first match wins: PHPUnit's first failing test and its message; Pest's `FAILED` / `⨯` test;
PHPStan's first table row (`file:line message`) or its `[ERROR] Found N errors` summary; the first
file php-cs-fixer would change; phpcs's first file and violation; a test summary counting failures
(`Tests: 3, Assertions: 3, Failures: 1.`); else the first line with a failure word, else the last
non-empty line.

A check script runs several steps, and the ones that passed print success lines before the one that
failed (`No syntax errors detected in src/Thing.php`, `OK (6 tests, 9 assertions)`, `[OK] No
errors`); a success line is never the failure, whatever words it holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_SCRIPT_FAILED = re.compile(
    r"^Script (?P<cmd>.+) handling the (?P<event>\S+) event returned with error code -?\d+$"
)
_COMPOSER_CHATTER = re.compile(r"^(?:> .*|Script .+ was called via .+)$")

_PHPUNIT_HEADER = re.compile(r"^There (?:was|were) \d+ (?:failures?|errors?|risky tests?)(?: \([^)]*\))?:$")
_PHPUNIT_ITEM = re.compile(r"^\d+\) (?P<test>\S.*)$")
_PEST_FAILED = re.compile(r"^FAILED\s+(?P<test>.+?)(?:\s{2,}\S+)?$")
_PEST_CROSS = re.compile(r"^⨯\s+(?P<test>.+?)(?:\s+\d+(?:\.\d+)?m?s)?$")
_PHPSTAN_HEADER = re.compile(r"^Line\s{2,}(?P<file>\S.*)$")
_PHPSTAN_ROW = re.compile(r"^(?P<line>\d+|:\d+)\s{2,}(?P<message>\S.*)$")
_PHPSTAN_SUMMARY = re.compile(r"^\[ERROR\] Found \d+ errors?$")
_CS_FIXER_FILE = re.compile(r"^\d+\) (?P<file>\S+\.php)\b(?P<rest>.*)$")
_PHPCS_FILE = re.compile(r"^FILE: (?P<file>.+)$")
_PHPCS_ROW = re.compile(r"^(?P<line>\d+)\s*\|\s*(?:ERROR|WARNING)\s*\|\s*(?:\[[ x]\]\s*)?(?P<message>.*)$")
_PHPCS_CONTINUATION = re.compile(r"^\|\s*\|\s*(?P<more>.*)$")
_FAILURE_WORD = re.compile(
    r"\b(?:fail|failed|failures|error|errors|exception|fatal|not ok)\b", re.IGNORECASE | re.ASCII
)
_DECORATION = re.compile(r"^[-─━=\s]*$")
_TEST_SUMMARY = re.compile(
    r"^Tests:\s*\d+\b.*(?:\b(?:Failures|Errors):\s*[1-9]|\b[1-9]\d* (?:failed|errors?)\b)", re.IGNORECASE
)
"""PHPUnit's `Tests: 3, Assertions: 3, Failures: 1.` and Pest's `Tests: 1 failed, 2 passed`."""
_SUCCESS = re.compile(
    r"^(?:No syntax errors? (?:detected|found)\b"  # php -l, php-parallel-lint
    r"|OK \(\d+ tests?, \d+ assertions?\)"  # PHPUnit
    r"|OK, but\b"  # PHPUnit: passed, with skipped, incomplete or risky tests
    r"|\[OK\]"  # PHPStan, Rector, any Symfony console tool
    r"|No errors(?: found)?!?$"  # Psalm
    r"|PASS\s"  # Pest, per test file
    r"|[✓✔]\s"  # Pest and other runners, per test
    r"|No fixable errors were found"  # phpcbf
    r"|\S*composer\.json is valid\b"  # composer validate
    r"|Found 0 of \d+ files? that can be fixed"  # php-cs-fixer --dry-run
    r")",
    re.IGNORECASE,
)
"""Lines a passing step prints: never a failure line, though some hold a failure word."""
_NEGATED = re.compile(r"\b(?:no|0|zero|without)\s+(?:[a-z]+\s+)?$", re.IGNORECASE)
_ZERO_AFTER = re.compile(r"\s*[:=]\s*0\b")


def clean_lines(output: str) -> list[str]:
    """Output lines with ANSI escapes and carriage-return redraws removed, trailing space trimmed."""
    text = _ANSI.sub("", output)
    lines = []
    for raw in text.splitlines():
        if "\r" in raw:
            raw = raw.rsplit("\r", 1)[-1]
        lines.append(raw.rstrip())
    return lines


def failed_step(lines: list[str]) -> str:
    """The command Composer reports as failing first (`Script <cmd> handling the … event …`)."""
    for line in lines:
        match = _SCRIPT_FAILED.match(line.strip())
        if match:
            return match.group("cmd")
    return ""


def first_failure(lines: list[str], package_dir: str = "") -> str:
    """The most telling line of a failing run (not yet cut to length)."""
    stripped = [line.strip() for line in lines]
    for rule in (_phpunit, _pest, _phpstan, _cs_fixer, _phpcs, _test_summary):
        found = rule(stripped)
        if found:
            return _relative(found, package_dir)
    return _relative(_fallback(stripped), package_dir)


def _phpunit(lines: list[str]) -> str:
    for index, line in enumerate(lines):
        if not _PHPUNIT_HEADER.match(line):
            continue
        for position in range(index + 1, len(lines)):
            item = _PHPUNIT_ITEM.match(lines[position])
            if item:
                message = _next_text(lines, position + 1)
                return f"{item.group('test')}: {message}" if message else item.group("test")
    return ""


def _pest(lines: list[str]) -> str:
    for pattern in (_PEST_FAILED, _PEST_CROSS):
        for index, line in enumerate(lines):
            match = pattern.match(line)
            if match:
                test = re.sub(r"\s{2,}", " ", match.group("test"))
                message = _next_text(lines, index + 1) if pattern is _PEST_FAILED else ""
                return f"{test}: {message}" if message else test
    return ""


def _phpstan(lines: list[str]) -> str:
    for index, line in enumerate(lines):
        header = _PHPSTAN_HEADER.match(line)
        if not header:
            continue
        for position in range(index + 1, len(lines)):
            row = _PHPSTAN_ROW.match(lines[position])
            if row:
                message = _joined_continuation(lines, position + 1, row.group("message"), _phpstan_more)
                return f"{header.group('file')}:{row.group('line').lstrip(':')} {message}"
            if _PHPSTAN_HEADER.match(lines[position]):
                break
    for line in lines:
        if _PHPSTAN_SUMMARY.match(line):
            return line
    return ""


def _phpstan_more(line: str) -> str | None:
    """A wrapped continuation of a PHPStan message, or None where the message ends."""
    if not line or _DECORATION.match(line) or _PHPSTAN_ROW.match(line) or line.startswith(("🪪", "💡", "✏️")):
        return None
    return line


def _cs_fixer(lines: list[str]) -> str:
    for line in lines:
        match = _CS_FIXER_FILE.match(line)
        if match:
            return (match.group("file") + match.group("rest")).strip()
    return ""


def _phpcs(lines: list[str]) -> str:
    for index, line in enumerate(lines):
        header = _PHPCS_FILE.match(line)
        if not header:
            continue
        for position in range(index + 1, len(lines)):
            row = _PHPCS_ROW.match(lines[position])
            if row:
                message = _joined_continuation(lines, position + 1, row.group("message"), _phpcs_more)
                return f"{header.group('file')}:{row.group('line')} {message}"
            if _PHPCS_FILE.match(lines[position]):
                break
        return header.group("file")
    return ""


def _phpcs_more(line: str) -> str | None:
    match = _PHPCS_CONTINUATION.match(line)
    return match.group("more") if match else None


def _joined_continuation(lines: list[str], start: int, first: str, more: Callable[[str], str | None]) -> str:
    parts = [first.strip()]
    for line in lines[start:]:
        extra = more(line)
        if extra is None:
            break
        parts.append(extra.strip())
    return " ".join(part for part in parts if part)


def _next_text(lines: list[str], start: int) -> str:
    for line in lines[start:]:
        if line and not _DECORATION.match(line):
            return line
    return ""


def _test_summary(lines: list[str]) -> str:
    return next((line for line in lines if _TEST_SUMMARY.match(line)), "")


def is_success(line: str) -> bool:
    """A line a passing step prints (`No syntax errors detected in …`, `OK (6 tests, …)`), or one
    whose every failure word is counted as none (`0 errors`, `Failures: 0`, `without errors`)."""
    if _SUCCESS.match(line):
        return True
    words = list(_FAILURE_WORD.finditer(line))
    return bool(words) and all(
        _NEGATED.search(line, 0, word.start()) or _ZERO_AFTER.match(line, word.end()) for word in words
    )


def _fallback(lines: list[str]) -> str:
    candidates = [line for line in lines if line and not is_success(line)]
    meaningful = [
        line for line in candidates if not _SCRIPT_FAILED.match(line) and not _COMPOSER_CHATTER.match(line)
    ]
    for line in meaningful:
        if _FAILURE_WORD.search(line) or line.startswith(("✗", "✘")):
            return line
    if meaningful:
        return meaningful[-1]
    return candidates[-1] if candidates else ""


def _relative(text: str, package_dir: str) -> str:
    """Absolute paths inside the package shortened to package-relative ones."""
    if package_dir:
        return text.replace(package_dir.rstrip("/") + "/", "")
    return text
