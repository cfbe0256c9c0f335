"""What `origin` holds, asked with `git ls-remote` (the one network call git makes for us)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sofia.errors import quote
from sofia.runtime import git, proc

LS_REMOTE_TIMEOUT = 10.0


@dataclass(frozen=True)
class RemoteTags:
    tags: frozenset[str]
    error: str = ""
    """What went wrong, in git's words where it gave some; "" when origin answered."""
    cause: str = ""
    """Why origin's tags are unknown, "" when origin answered: `origin-missing` (no remote named
    origin), `origin-unreachable` (`git ls-remote` failed; git says why) or `origin-timeout` (no
    answer in time)."""
    detail: str = ""
    """git's own words for the failure (its first stderr line, bounded); "" without them."""

    @property
    def ok(self) -> bool:
        return not self.error


def remote_tags(repo: Path, timeout: float = LS_REMOTE_TIMEOUT) -> RemoteTags:
    """Tag names on `origin` (peeled `^{}` entries folded in); `error` and `cause` set when they
    cannot be listed."""
    try:
        done = git.run(["ls-remote", "--tags", "origin"], cwd=repo, timeout=timeout)
    except proc.ProgramTimeout:
        return RemoteTags(
            frozenset(), f"git ls-remote origin gave no answer within {timeout:g} s", "origin-timeout"
        )
    if done.returncode != 0:
        if not _has_origin(repo):
            return RemoteTags(frozenset(), "no remote named origin", "origin-missing")
        reason = quote(_first_line(done.err) or f"exit status {done.returncode}")
        return RemoteTags(frozenset(), f"git ls-remote origin failed: {reason}", "origin-unreachable", reason)
    names = set()
    for line in done.out.splitlines():
        _, _, ref = line.partition("\t")
        if ref.startswith("refs/tags/"):
            names.add(ref.removeprefix("refs/tags/").removesuffix("^{}"))
    return RemoteTags(frozenset(names))


def default_branch(repo: Path, timeout: float = LS_REMOTE_TIMEOUT) -> str:
    """The branch `origin`'s HEAD points at (`main`), `""` when it cannot be told."""
    try:
        done = git.run(["ls-remote", "--symref", "origin", "HEAD"], cwd=repo, timeout=timeout)
    except proc.ProgramTimeout:
        return ""
    if done.returncode != 0:
        return ""
    for line in done.out.splitlines():
        if line.startswith("ref: refs/heads/") and line.endswith("\tHEAD"):
            return line.removeprefix("ref: refs/heads/").removesuffix("\tHEAD")
    return ""


def _has_origin(repo: Path) -> bool:
    """Whether the repository configures a remote named origin (asked only after ls-remote failed)."""
    try:
        done = git.run(["config", "--get", "remote.origin.url"], cwd=repo, timeout=5.0)
    except proc.ProgramTimeout:
        return True
    return done.returncode == 0


def _first_line(text: str) -> str:
    """The first non-blank line: git and ssh put the specific reason first, generic advice after."""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")
