"""What kind of thing a path names, so no provider ever opens a FIFO, a device or a socket.

Opening a FIFO for reading blocks until a writer appears; `/dev/zero` and `/dev/urandom` never end;
`/dev/stdout` in a server is the protocol stream. Every path a caller names (a root, a file, a
session, a manifest) is classified before anything opens it, and `read_regular` is the one way to
read a file that was found rather than named: it opens without blocking and checks the open file
itself, so a path swapped for a FIFO after a check is still refused.
"""

from __future__ import annotations

import os
import stat

from sofia.errors import ProviderError, quote

BINARY_PROBE = 8000
"""How many leading bytes are looked at for a NUL (git's own rule for a binary file)."""

FILE = "regular file"
DIRECTORY = "directory"
MISSING = "missing"

_KINDS = (
    (stat.S_ISREG, FILE),
    (stat.S_ISDIR, DIRECTORY),
    (stat.S_ISFIFO, "FIFO (named pipe)"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)


def kind_of_mode(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "special file"


def kind(path: str | os.PathLike[str]) -> str:
    """`regular file`, `directory`, `missing` (or a dangling link), or the special kind it is.

    Symbolic links are followed: a link to a regular file is a regular file.
    """
    try:
        return kind_of_mode(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return MISSING
    except ValueError:  # an embedded NUL: nothing by that name can exist
        return MISSING
    except OSError as error:
        if error.errno == 36:  # ENAMETOOLONG
            return MISSING
        raise


def refuse(shown: str, found: str, what: str, wanted: str) -> ProviderError:
    """The error for `what` (root, file, session…) `shown` being a `found` instead of `wanted`."""
    return ProviderError(
        f"{what} is a {found}, not a {wanted}: {quote(shown)}",
        f"pass a {wanted}; sofia never reads FIFOs, devices or sockets, which can block or never end",
    )


def require(
    path: str | os.PathLike[str], shown: str, *, what: str = "path", directory: bool = True, file: bool = True
) -> str:
    """The kind of `path` when it is one of the allowed kinds (or missing: callers word that
    themselves); a ProviderError naming `shown` and its kind otherwise."""
    found = kind(path)
    if found == MISSING or (found == FILE and file) or (found == DIRECTORY and directory):
        return found
    wanted = " or ".join(name for name, ok in ((FILE, file), (DIRECTORY, directory)) if ok)
    raise refuse(shown, found, what, wanted)


class NotRegular(OSError):
    """`read_regular` met something that is not a regular file; `kind` says what it is. Internal, an
    OSError like every other failed read (see the drawing in `sofia.errors`)."""

    def __init__(self, path: str | os.PathLike[str], found: str) -> None:
        super().__init__(f"not a regular file ({found}): {os.fspath(path)}")
        self.kind = found


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file; NotRegular (an OSError) for anything else, without blocking.

    `O_NONBLOCK` makes opening a FIFO return at once and `O_NOCTTY` keeps a terminal from becoming
    ours; the kind is then checked on the open descriptor, so nothing is read from the wrong thing.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(path, kind_of_mode(mode))
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    finally:
        os.close(fd)


def looks_binary(source: bytes) -> bool:
    """Whether a file's bytes are binary: a NUL in the first `BINARY_PROBE`."""
    return b"\0" in source[:BINARY_PROBE]
