"""Log tails from `gh run view --log-failed`: lines `job<TAB>step<TAB><timestamp> text`, reduced to the
last lines of each failed step with timestamps and terminal escapes removed."""

from __future__ import annotations

import re
from collections import deque

from sofia.providers.github.gh import strip_ansi

TAIL_CHARS = 2_000
"""Character cap of one tail: enough for an assertion message and its stack frame."""

UNKNOWN_STEP = "UNKNOWN STEP"
"""What newer gh prints in the step column when it cannot tell which step a line belongs to."""

_TIMESTAMP = re.compile(r"^\ufeff?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z ?")
_NOISE = ("##[endgroup]",)


def clean(line: str) -> str:
    """One log line without its timestamp, BOM, terminal escapes or trailing blanks."""
    return _TIMESTAMP.sub("", strip_ansi(line).replace("\r", "")).rstrip()


def step_lines(log: str, keep: int) -> dict[tuple[str, str], list[str]]:
    """The last `keep` meaningful lines per (job, step), plus per (job, "") for the whole job."""
    tails: dict[tuple[str, str], deque[str]] = {}
    for raw in log.splitlines():
        parts = raw.split("\t", 2)
        if len(parts) != 3:
            continue
        job, step, rest = parts
        line = clean(rest)
        if line in _NOISE:
            continue
        for key in ((job, step), (job, "")):
            tails.setdefault(key, deque(maxlen=keep)).append(line)
    return {key: _trim_blank(list(lines)) for key, lines in tails.items()}


def tail_for(lines: dict[tuple[str, str], list[str]], job: str, step: str) -> list[str]:
    """The tail of `step` in `job`, falling back to gh's UNKNOWN STEP lines, then the whole job."""
    for key in ((job, step), (job, UNKNOWN_STEP), (job, "")):
        if key in lines:
            return lines[key]
    return []


def render(lines: list[str], keep: int) -> str:
    """The last `keep` lines, cut from the front to at most TAIL_CHARS characters ("" for keep 0)."""
    text = "\n".join(_trim_blank(lines[-keep:] if keep else []))
    if len(text) <= TAIL_CHARS:
        return text
    cut = text[-(TAIL_CHARS - 1) :]
    newline = cut.find("\n")
    if 0 <= newline < len(cut) - 1:
        cut = cut[newline + 1 :]
    return "…" + cut


def _trim_blank(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start]:
        start += 1
    while end > start and not lines[end - 1]:
        end -= 1
    return lines[start:end]
