"""Running `gh` the one way the GitHub providers do: an argument vector, captured output, a bounded
timeout, and every failure turned into an error that says what to do (install gh, log in, wait for
the rate limit, or gh's own last stderr line)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sofia.providers.contract import Context, ProviderError
from sofia.runtime import proc

ENV_ADD = {
    "GH_PROMPT_DISABLED": "1",
    "GH_NO_UPDATE_NOTIFIER": "1",
    "GH_SPINNER_DISABLED": "1",
    "NO_COLOR": "1",
    "CLICOLOR": "0",
    "GIT_TERMINAL_PROMPT": "0",
}
"""No prompts, no update checks, no colour: gh must behave like a library call."""

ENV_REMOVE = ("GH_PAGER", "PAGER", "GH_FORCE_TTY", "CLICOLOR_FORCE")

NOT_FOUND_HINT = "install GitHub CLI (https://cli.github.com/), then run gh auth login"
AUTH_HINT = "run gh auth login (or set GH_TOKEN)"
RATE_LIMIT_HINT = "wait until the limit resets (gh api rate_limit shows when), then retry"


class GhUnavailable(ProviderError):
    """gh cannot work at all (not installed, not logged in): no point asking it about other repositories."""


_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def strip_ansi(text: str) -> str:
    """`text` without terminal colour and cursor sequences."""
    return _ANSI.sub("", text) if "\x1b" in text else text


def run(
    args: Sequence[str],
    ctx: Context,
    *,
    subcommand: str,
    timeout: float,
    cwd: Path | None = None,
    keep_last_bytes: int | None = None,
) -> str:
    """gh's stdout for `gh <args>`, or a ProviderError classifying what went wrong.

    `subcommand` names the call in messages (`run list`, `api graphql`); `keep_last_bytes` bounds
    what is decoded of a large output (log tails only need its end).
    """
    ctx.check_deadline()
    wanted = ctx.timeout(timeout)
    env = proc.environment(add=ENV_ADD, remove=ENV_REMOVE)
    try:
        done = proc.run(["gh", *args], timeout=wanted, cwd=cwd, env=env)
    except proc.ProgramNotFound:
        raise GhUnavailable("gh not found on PATH", NOT_FOUND_HINT) from None
    except proc.ProgramTimeout:
        raise ProviderError(
            f"gh {subcommand} timed out after {round(wanted, 1):g} s",
            "GitHub may be slow or unreachable; retry later",
        ) from None
    if done.returncode != 0:
        raise classify_failure(subcommand, done.returncode, strip_ansi(done.err))
    stdout = done.stdout
    if keep_last_bytes is not None and len(stdout) > keep_last_bytes:
        stdout = stdout[-keep_last_bytes:]
        stdout = stdout[stdout.find(b"\n") + 1 :]
    return stdout.decode("utf-8", "replace")


def classify_failure(subcommand: str, returncode: int, stderr: str) -> ProviderError:
    """The error for a non-zero gh exit: authentication, rate limit, or gh's own last line."""
    if returncode == 4 or "gh auth login" in stderr:
        return GhUnavailable("gh is not authenticated", AUTH_HINT)
    last = _last_line(stderr)
    if "API rate limit exceeded" in stderr or "secondary rate limit" in stderr:
        return ProviderError(f"gh {subcommand} hit the GitHub API rate limit: {last}", RATE_LIMIT_HINT)
    detail = last or f"exit status {returncode}"
    return ProviderError(
        f"gh {subcommand} failed: {detail}",
        "the message is gh's own; check the repository's GitHub remote and gh auth status",
    )


def run_json(
    args: Sequence[str],
    ctx: Context,
    *,
    subcommand: str,
    timeout: float,
    cwd: Path | None = None,
) -> Any:
    """gh's stdout parsed as JSON; anything else is `unexpected output from gh <subcommand>`."""
    from sofia.output.jsonfmt import loads

    out = run(args, ctx, subcommand=subcommand, timeout=timeout, cwd=cwd)
    try:
        return loads(out)
    except ValueError:
        raise unexpected(subcommand, out) from None


def unexpected(subcommand: str, output: str) -> ProviderError:
    """The error for gh output that is not what the command documents."""
    sample = " ".join(output.split())[:60]
    return ProviderError(
        f"unexpected output from gh {subcommand}",
        f"expected JSON, got {sample!r}; check gh --version (2.23 or newer)",
    )


def viewer_login(ctx: Context) -> str:
    """The authenticated user's login (`gh api user --jq .login`)."""
    login = run(["api", "user", "--jq", ".login"], ctx, subcommand="api user", timeout=10).strip()
    if not login or any(c.isspace() for c in login):
        raise unexpected("api user", login)
    return login


def _last_line(text: str) -> str:
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def minutes(timestamp: str) -> str:
    """`2026-05-31T06:00:12Z` → `2026-05-31T06:00Z` (index rows carry minutes); "" when unparsable."""
    parsed = parse_time(timestamp)
    return parsed.strftime("%Y-%m-%dT%H:%MZ") if parsed else ""


def parse_time(timestamp: str) -> datetime | None:
    """A GitHub ISO-8601 timestamp as an aware UTC datetime, or None."""
    if not isinstance(timestamp, str) or not timestamp:
        return None
    try:
        parsed = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def text(value: Any) -> str:
    """A JSON string field, "" for null or another type (gh prints nulls for missing values)."""
    return value if isinstance(value, str) else ""


def obj(value: Any) -> dict[str, Any]:
    """A JSON object field, {} for null or another type."""
    return value if isinstance(value, dict) else {}


def integer(value: Any) -> int:
    """A JSON integer field, 0 for null or another type."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
