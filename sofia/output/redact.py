"""Secret redaction for text that leaves sofia: transcripts, PR titles, CI log tails.

Each secret becomes `[REDACTED:<kind>]`; what surrounds it (a variable name, an auth scheme, a URL's
user name) is kept so the text still reads. Rules run in a fixed order, specific token shapes first,
so `GITHUB_TOKEN=ghp_…` is reported as `github`, not as a generic assignment. Values that are only a
shell variable reference (`$TOKEN`, `${TOKEN}`, `$(cat file)`) are no secrets and stay.

A `Redactor` replaces and counts by kind: `redactor.redact(text) -> (text, count)`.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable

REDACTION_VERSION = 1
"""Bumped whenever the rules change: caches of redacted text key on it."""

MARKER = "[REDACTED:{}]"

_NAME_WORDS = r"(?:TOKEN|SECRET|PASSWORD|PASSWD|API[_-]?KEY|ACCESS[_-]KEY|PRIVATE[_-]KEY)"
_FLAG_NAMES = r"(?:password|passwd|token|api[-_]?key)"
_VALUE = r"(?P<v>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'`;&|]+)"
"""A command-line value: double-quoted, single-quoted or bare."""

_HINT = re.compile(
    r"sk-|_live_|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|akia|asia|aiza|eyj|private key|authorization"
    r"|://|token|secret|passw|api[_-]?key|access[_-]key|private[_-]key|sshpass|mysql|mariadb"
)
"""A cheap first look at the lower-cased text (case-sensitive matching is several times faster):
text without any of these needles cannot hold a secret the rules know."""

# (kind, pattern). A pattern with a group named `v` replaces only that group; otherwise the whole match.
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "private-key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|.*\Z)",
            re.DOTALL,
        ),
    ),
    ("anthropic", re.compile(r"(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{8,}")),
    (
        "openai",
        re.compile(r"(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}"),
    ),
    ("stripe", re.compile(r"(?<![A-Za-z0-9_])(?:sk|rk)_live_[A-Za-z0-9]{10,}")),
    ("github", re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})")),
    ("gitlab", re.compile(r"(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}")),
    ("slack", re.compile(r"(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,}")),
    ("aws", re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])")),
    (
        "aws",
        re.compile(r"(?i:aws_secret_access_key)[\"']?\s*[=:]\s*[\"']?(?P<v>[A-Za-z0-9/+=]{30,})"),
    ),
    ("google", re.compile(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}")),
    (
        "jwt",
        re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}"),
    ),
    (
        "auth-header",
        re.compile(
            r"(?i:\b(?:proxy-)?authorization)\s*:\s*"
            r"(?:(?i:basic|bearer|token|digest|negotiate|ntlm|apikey|aws4-hmac-sha256)\s+)?"
            r"(?P<v>[^\s\"'`\\]+)"
        ),
    ),
    (
        "url-credentials",
        re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@\[\]\"'`]+:(?P<v>[^\s/?#@\"'`]+)@"),
    ),
    (
        "password-flag",
        re.compile(r"(?<![A-Za-z0-9_-])--(?i:" + _FLAG_NAMES + r")(?:=|\s+)" + _VALUE),
    ),
    ("password-flag", re.compile(r"\bsshpass\s+(?:-[a-oq-zA-Z]\S*\s+)*-p\s*" + _VALUE)),
    ("password-flag", re.compile(r"\b(?:mysql|mysqldump|mariadb)\b[^\n|;&]*?\s-p" + _VALUE)),
    (
        "assignment",
        re.compile(
            r"(?<![A-Za-z0-9_])(?i:[A-Za-z0-9_]*" + _NAME_WORDS + r"[A-Za-z0-9_]*)="
            r"(?P<v>\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|[^\s\"'`;&|)]+)"
        ),
    ),
    (
        "assignment",
        re.compile(
            r"\"(?i:[A-Za-z0-9_.-]*" + _NAME_WORDS + r"[A-Za-z0-9_.-]*)\"\s*:\s*"
            r"\"(?P<v>(?:[^\"\\\n]|\\.)+)\""
        ),
    ),
    (
        "assignment",
        re.compile(r"'(?i:[A-Za-z0-9_.-]*" + _NAME_WORDS + r"[A-Za-z0-9_.-]*)'\s*:\s*'(?P<v>[^'\\\n]+)'"),
    ),
)

_NOT_A_SECRET = re.compile(r"""^["']?(?:\$|\[REDACTED:|["']?$)""")
"""Values left alone: empty, a shell variable or command substitution, or an earlier redaction."""


class Redactor:
    """Replaces secrets with `[REDACTED:<kind>]` and counts them by kind across calls.

    One redactor may be shared by the threads of one call (GitHub's parallel probes): the counts
    of each text are gathered apart and added under a lock.
    """

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._lock = threading.Lock()

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def __call__(self, text: str) -> str:
        return self.redact(text)[0]

    def redact(self, text: str) -> tuple[str, int]:
        """`text` with its secrets replaced, and how many were replaced."""
        if not text or not _HINT.search(text.lower()):
            return text, 0
        found: Counter[str] = Counter()
        for kind, pattern in _RULES:
            text = pattern.sub(_replacer(kind, found), text)
        if found:
            with self._lock:
                self.counts.update(found)
        return text, sum(found.values())


def _replacer(kind: str, counts: Counter[str]) -> Callable[[re.Match[str]], str]:
    """The `re.sub` callback of one rule: replaces the value (or the whole match) and counts it."""
    marker = MARKER.format(kind)

    def replace(match: re.Match[str]) -> str:
        if "v" not in match.re.groupindex:
            counts[kind] += 1
            return marker
        value = match.group("v")
        if _NOT_A_SECRET.match(value):
            return match.group(0)
        start, end = match.start("v") - match.start(), match.end("v") - match.start()
        if len(value) >= 2 and value[0] in "\"'" and value[-1] == value[0]:
            start, end = start + 1, end - 1
        counts[kind] += 1
        whole = match.group(0)
        return whole[:start] + marker + whole[end:]

    return replace
