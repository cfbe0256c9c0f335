"""Which session is the latest: the one rule `cc_ls`'s order, `last` and a project selector share.

A session's time is its `updated`: the last timestamp inside the transcript, else the file's
modification time (an empty or timestamp-less file). Sessions sort newest first on the full
`updated` value (not the minute `cc_ls` prints), then on the file's mtime, then on the full id and
path, so two sessions updated within the same minute still have one order, and the first row of
`cc_ls` is the session `cc_show` and `cc_resume` pick for `last`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sofia.providers.cc.digest import Digest
from sofia.providers.cc.discovery import Session

if TYPE_CHECKING:
    from sofia.providers.cc.loading import Loader


def updated(session: Session, digest: Digest) -> float:
    """Epoch seconds of the session's last activity."""
    return digest.end if digest.end is not None else session.file.mtime


def newest_first(session: Session, digest: Digest) -> tuple[float, int, str, str]:
    """The sort key of "newest first"."""
    return (-updated(session, digest), -session.file.mtime_ns, session.full_id, session.file.path)


def newest(sessions: Sequence[Session], loader: Loader) -> Session:
    """The latest of `sessions` (reading their digests, from the cache when it holds them); a session
    whose transcript cannot be read is no candidate, unless none can be read."""
    digests = loader.digests(((s.file, None) for s in sessions), "sessions")
    readable = [(s, digests[s.file.path]) for s in sessions if s.file.path in digests]
    if not readable:
        return sessions[0]
    return min(readable, key=lambda pair: newest_first(*pair))[0]
