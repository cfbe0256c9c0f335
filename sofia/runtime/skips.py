"""What every walk skips by default, as ripgrep rules, and the one note that counts what a call
skipped (docs/architecture.md, "Walking a tree").

Directories named like build output or dependencies (`vendor`, `build`, `target`, …) are skipped
only where git tracks no file in them: the kernel keeps sources in `drivers/target`, Go projects
commit `vendor/`. The names go to ripgrep as an ignore file of the lowest precedence, so a
repository's own `.gitignore` decides first, with one re-inclusion line per tracked directory of
such a name (`!/drivers/target/`). The tracked directories come from one `git ls-files` limited
to those names, kept per repository and index (a commit, a checkout or an `add` rewrites the
index, which gives it a new inode), and the rules file is named after that key, so a repeated
call in an unchanged repository runs no git at all.

A run with `COUNT` (ripgrep's `--debug`) names each directory it skipped by these rules and each
binary file it stopped reading at a NUL byte; `read` picks those lines out of its stderr and
`notes` says what was skipped and how to include it.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sofia.errors import param

VCS_DIRS = (".git", ".hg", ".svn")
"""Version control data: always skipped (an rg override, above every ignore file), never noted."""
NAMED_DIRS = (
    ".idea",
    ".vscode",
    "node_modules",
    "vendor",
    "var",
    "dist",
    "build",
    "target",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".next",
    ".nuxt",
    "coverage",
)
"""Skipped at any depth below the starting point unless git tracks a file in them."""
COUNT = "--debug"
"""The rg option under which it names what it skipped (on stderr, read by `read`)."""
RULES_VERSION = "1"
"""Part of every rules file's name: a change of the rules' form never reuses an old file."""
KEPT_FILES = 256
"""Rules files kept in the cache directory; past that, those unused for STALE go when a new one is
written (a walk's rules file must not vanish under it: rg would warn and skip nothing by name)."""
STALE = 7 * 86400.0
FRESHEN = 86400.0
"""A rules file in use has its modification time (its "last used" mark) renewed this often."""
SHOWN = 5
"""Paths named in a note; the rest are counted."""
GIT_TIMEOUT = 20.0

_DEBUG = b"rg: DEBUG|"
_IGNORED = re.compile(rb"^rg: DEBUG\|ignore::walk\|[^ ]*: ignoring (?P<path>.*): Ignore\(IgnoreMatch\(")
_BINARY = re.compile(
    rb"^rg: DEBUG\|grep_printer::[a-z]+\|[^ ]*: ignoring (?P<path>.*): found binary data at offset \d+$"
)
_OURS = re.compile(rb'Gitignore\(Glob \{ from: Some\(".*/walk-[0-9a-f]{20}\.ignore"\)')
"""A skip by a rules file of `rules_file` (whichever index stamp it was written for)."""
_GLOB_SPECIAL = re.compile(r"([\\*?\[\]!#])")

_tracked: dict[tuple[str, tuple[int, int, int]], tuple[str, ...]] = {}
"""Per repository top level and index stamp: the tracked directories bearing a skipped name."""
_rules: dict[str, Path] = {}
"""Per key (see `rules_file`): the rules file written or found for it by this process."""


@dataclass
class Skips:
    """What a walk left out by default: directories by name, binary files (rg's paths)."""

    dirs: set[str] = field(default_factory=set)
    binary: set[str] = field(default_factory=set)

    def update(self, other: Skips) -> None:
        self.dirs |= other.dirs
        self.binary |= other.binary

    def __bool__(self) -> bool:
        return bool(self.dirs or self.binary)


def rules(cwd: Path) -> list[str]:
    """The rg options of the default skips for a walk run in `cwd`."""
    return [*(f"--glob=!{name}/" for name in VCS_DIRS), f"--ignore-file={rules_file(cwd)}"]


def repository_args(cwd: Path) -> list[str]:
    """`--no-require-git` outside a git work tree, so .gitignore files are honoured there too;
    nothing inside one, so the ignore files of directories above its top level do not apply
    (with the option, ripgrep reads every parent's up to `/`: a checkout kept inside another
    repository would take that repository's `build/` line)."""
    return [] if in_work_tree(cwd) else ["--no-require-git"]


def read(stderr: bytes) -> tuple[Skips, bytes]:
    """The skips a `COUNT` run named on `stderr` (paths without `./`), and the rest of its stderr
    (what the error handling reads)."""
    if _DEBUG not in stderr:
        return Skips(), stderr
    found = Skips()
    rest: list[bytes] = []
    for line in stderr.splitlines(keepends=True):
        if not line.startswith(_DEBUG):
            rest.append(line)
            continue
        text = line.rstrip(b"\r\n")
        ignored = _IGNORED.match(text)
        if ignored is not None:
            if _OURS.search(text, ignored.end()):
                found.dirs.add(_clean(ignored.group("path")))
            continue
        binary = _BINARY.match(text)
        if binary is not None:
            found.binary.add(_clean(binary.group("path")))
    return found, b"".join(rest)


def notes(skips: Skips, shown: Callable[[str], str], include: str, *, binary: bool = True) -> list[str]:
    """One note per kind of default skip: how many, the first few (printed by `shown`), and how
    to include one, `include` being the parameter that names it (a root, a file)."""
    found: list[str] = []
    if skips.dirs:
        dirs = sorted((shown(d) for d in skips.dirs), key=os.fsencode)
        found.append(
            f"{_count(len(dirs), 'directory', 'directories')} skipped by name (git tracks no file in "
            f"them): {_listed(dirs)}; to search one, give it as {_example(include, dirs[0])}"
        )
    if binary and skips.binary:
        files = sorted((shown(f) for f in skips.binary), key=os.fsencode)
        found.append(
            f"{_count(len(files), 'binary file', 'binary files')} skipped (a NUL byte: ripgrep stops "
            f"reading): {_listed(files)}; to search one as text, give it as {_example(include, files[0])}"
        )
    return found


def tracked_dirs(cwd: Path) -> tuple[str, ...]:
    """Directories below `cwd` (relative to it, `/`-separated) that bear a skipped name and hold a
    file git tracks; empty outside a git work tree."""
    found = _repository(cwd)
    if found is None:
        return ()
    top, stamp = found
    key = (str(top), stamp)
    dirs = _tracked.get(key)
    if dirs is None:
        dirs = _tracked[key] = _ls_files(top)
    prefix = os.path.relpath(cwd, top).replace(os.sep, "/")
    if prefix == ".":
        return dirs
    return tuple(d[len(prefix) + 1 :] for d in dirs if d.startswith(prefix + "/"))


def rules_file(cwd: Path) -> Path:
    """The ignore file of the default skips for a walk in `cwd`: found by its key (the rules'
    version, `cwd`, its repository and that repository's index stamp) or written once."""
    found = _repository(cwd)
    where = f"{found[0]}\0{found[1]}" if found is not None else "-"
    key = hashlib.sha1(f"{RULES_VERSION}\0{cwd}\0{where}".encode("utf-8", "surrogateescape")).hexdigest()
    name = f"walk-{key[:20]}.ignore"
    for target in (_rules.get(key), *_directories(name)):
        if target is None:
            continue
        try:
            if not target.exists():
                _write(target, rules_text(tracked_dirs(cwd)))
            _freshen(target)
        except OSError:
            continue
        _rules[key] = target
        return target
    raise OSError("no writable directory for the walk rules (set SOFIA_CACHE_DIR)")


def rules_text(tracked: Iterable[str]) -> str:
    """The ignore file's text: every skipped name, then each tracked one taken back, anchored."""
    lines = [f"{name}/" for name in NAMED_DIRS]
    for rel in sorted(tracked):
        if rel.isprintable() and _encodable(rel):
            lines.append("!/" + _GLOB_SPECIAL.sub(r"\\\1", rel) + "/")
    return "\n".join(lines) + "\n"


def in_work_tree(cwd: Path) -> bool:
    """Whether `cwd` is inside a git work tree (its .gitignore files then stop at the top level,
    as git's own do, instead of ripgrep's reading every parent's up to `/`)."""
    return _work_tree(cwd) is not None


def _work_tree(cwd: Path) -> tuple[Path, Path] | None:
    """The top level of the work tree holding `cwd` and its git directory; None outside one."""
    for directory in (cwd, *cwd.parents):
        dot = directory / ".git"
        try:
            if dot.is_dir():
                return directory, dot
            if dot.is_file():
                text = dot.read_text("utf-8", "replace").strip()
                if not text.startswith("gitdir:"):
                    return None
                return directory, Path(directory, text.removeprefix("gitdir:").strip())
        except OSError:
            return None
    return None


def _repository(cwd: Path) -> tuple[Path, tuple[int, int, int]] | None:
    """The work tree holding `cwd` and its index's stamp (inode, size, mtime); None outside one
    (or before anything was ever added: no index, nothing tracked)."""
    found = _work_tree(cwd)
    if found is None:
        return None
    top, gitdir = found
    try:
        status = os.stat(gitdir / "index")
    except OSError:
        return None
    return top, (status.st_ino, status.st_size, status.st_mtime_ns)


_SEGMENTS = tuple(name.encode() + end for name in NAMED_DIRS for end in (b"/", b"\0"))
"""A skipped name ending a path segment in git's NUL-separated listing: before a `/` (a directory
holding the entry) or the NUL (a gitlink, itself a directory)."""


def _ls_files(top: Path) -> tuple[str, ...]:
    """Tracked directories bearing a skipped name, relative to `top`: git lists the index (one
    `git ls-files`, with no pathspec: matching dozens of globs against every entry costs git ten
    times the listing) and a scan of it picks out the few paths through such a name (a gitlink
    named so counts: it is a directory). ripgrep is not used here: `rg` walks
    with these rules, so this module stays below it."""
    from sofia.runtime import git, proc

    try:
        listed = git.run(["ls-files", "-z"], cwd=top, timeout=GIT_TIMEOUT)
        if listed.returncode != 0 or not listed.stdout:
            return ()
    except (proc.ProgramTimeout, OSError):
        return ()
    data = listed.stdout
    found: set[str] = set()
    for segment in _SEGMENTS:  # `bytes.find` per name: twice as fast as one alternation regex
        at = data.find(segment)
        while at >= 0:
            if at == 0 or data[at - 1] in b"\0/":  # the whole segment, not the end of a longer one
                start = data.rfind(b"\0", 0, at) + 1
                found.add(os.fsdecode(data[start : at + len(segment) - 1]))
            at = data.find(segment, at + 1)
    return tuple(sorted(found))


def _directories(name: str) -> list[Path]:
    """Where the rules file `name` may be: the cache directory, else a private temporary one."""
    import tempfile

    from sofia import settings

    base: str = settings.get("SOFIA_CACHE_DIR")
    if base:
        cache = Path(base).expanduser() / "walk"
    else:
        import platformdirs

        cache = Path(platformdirs.user_cache_dir("sofia")) / "walk"
    private = Path(tempfile.gettempdir()) / f"sofia-walk-{os.getuid() if hasattr(os, 'getuid') else 0}"
    return [cache / name, private / name]


def _freshen(target: Path) -> None:
    import time

    now = time.time()
    if now - target.stat().st_mtime > FRESHEN:
        os.utime(target, (now, now))


def _write(target: Path, text: str) -> None:
    """Written atomically (a concurrent walk reads a whole file or none); the oldest rules files
    past KEPT_FILES go."""
    import time

    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}")
    temporary.write_text(text, "utf-8")
    os.replace(temporary, target)
    try:
        entries = [(p.stat().st_mtime, p) for p in target.parent.glob("walk-*.ignore")]
    except OSError:
        return
    if len(entries) <= KEPT_FILES:
        return
    stale = time.time() - STALE
    for mtime, old in sorted(entries)[: len(entries) - KEPT_FILES]:
        if mtime < stale and old != target:
            old.unlink(missing_ok=True)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _clean(raw: bytes) -> str:
    text = os.fsdecode(raw)
    return text[2:] if text.startswith("./") else text


def _count(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _listed(paths: Sequence[str]) -> str:
    more = f" (+{len(paths) - SHOWN:,} more)" if len(paths) > SHOWN else ""
    return ", ".join(paths[:SHOWN]) + more


def _example(include: str, path: str) -> str:
    return param(include, [path]) if include == "files" else param(include, path)
