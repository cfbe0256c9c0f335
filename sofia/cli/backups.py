"""Replacing a client's configuration file safely: every previous version kept, none in the project.

Before `sf init` changes a file, the version it replaces is copied to sofia's own state directory
(`platformdirs.user_state_dir("sofia")`: `~/.local/state/sofia` on Linux, `~/Library/Application
Support/sofia` on macOS, `%LOCALAPPDATA%\\sofia` on Windows), under `init-backups/` followed by the
file's absolute path, numbered: `….json.1` is the file as it was before sofia first changed it,
`.2` the next, and so on — a backup is never overwritten, and nothing appears in the project's
`git status`. The new text is written to a temporary file beside the original and renamed over
it, so a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

BACKUPS = "init-backups"


def backup_root() -> Path:
    import platformdirs

    return Path(platformdirs.user_state_dir("sofia")) / BACKUPS


def backup_dir_for(path: Path) -> Path:
    """Where the backups of `path` go: its absolute path mirrored below the backup root (a Windows
    drive becomes a folder of its own: `C:` is `C`)."""
    absolute = Path(os.path.abspath(path))
    drive = absolute.drive.rstrip(":").replace("\\", "_").replace("/", "_")
    parts = absolute.parts[1:] if absolute.anchor else absolute.parts
    return backup_root().joinpath(*([drive] if drive else []), *parts[:-1])


def keep_backup(path: Path) -> Path:
    """Copy `path` to its next numbered backup and return where it went."""
    folder = backup_dir_for(path)
    folder.mkdir(parents=True, exist_ok=True)
    number = 1 + max(
        (
            int(found.name.rsplit(".", 1)[1])
            for found in folder.glob(f"{path.name}.*")
            if _numbered(found, path)
        ),
        default=0,
    )
    while True:
        target = folder / f"{path.name}.{number}"
        try:
            with open(target, "xb") as out, open(path, "rb") as source:
                shutil.copyfileobj(source, out)
        except FileExistsError:  # another sf init got there first
            number += 1
            continue
        shutil.copystat(path, target)
        return target


def _numbered(found: Path, original: Path) -> bool:
    suffix = found.name[len(original.name) + 1 :]
    return suffix.isdigit()


def replace_file(path: Path, data: bytes) -> Path | None:
    """Replace `path` with `data` in one rename, its previous version kept first; returns the
    backup (None when there was no file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = None
    backup = None
    if path.exists():
        mode = path.stat().st_mode & 0o7777
        backup = keep_backup(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return backup
