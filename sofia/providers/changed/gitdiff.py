"""Reading a diff from git deterministically: the two sides, `--raw --numstat -z`, `-U0` hunks,
untracked files and blob contents. Nothing here interprets what the changes mean."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from sofia.errors import ArgumentError, param
from sofia.providers.contract import Context, ProviderError
from sofia.runtime import argv, git

DIFF_OPTIONS = (
    "--no-ext-diff", "--no-textconv", "--no-color", "--no-relative", "-M", "--ignore-submodules=dirty",
    "--diff-algorithm=myers", "--inter-hunk-context=0", "--src-prefix=a/", "--dst-prefix=b/",
)  # fmt: skip
ZERO_SHA = re.compile(rb"^0+$")
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$")
UNHASHABLE = re.compile(r"^(?:error: (.+): unsupported file type|fatal: cannot hash (.+))$")
"""What git says of a working-tree entry it cannot read as a file (a FIFO or socket where a
tracked file was)."""
MAX_UNHASHABLE = 64
"""Entries git cannot hash that one call steps around before it gives up."""


def literal(path: str) -> str:
    """A pathspec naming exactly the top-level-relative `path`, whatever characters it holds."""
    return f":(top,literal){path}"


@dataclass(frozen=True)
class Selection:
    """The pathspecs of one diff: `include` (none: the whole repository), split over as many git
    runs as the argument list needs, and `exclude`, given to every run."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def without(self, path: str) -> Selection:
        return Selection(self.include, (*self.exclude, f":(top,exclude,literal){path}"))

    def runs(self, fixed: list[str]) -> list[list[str]]:
        """The pathspec arguments of each git run (after `--`)."""
        if not self.include:
            return [list(self.exclude)]
        limit = argv.room(["git", "--no-pager", *git.CONFIG, *fixed, "--", *self.exclude])
        return [[*chunk, *self.exclude] for chunk in argv.chunks(self.include, limit)]


@dataclass(frozen=True)
class Sides:
    """What is compared: `old` is a tree-ish; `new` is a tree-ish, or None for the index / working tree."""

    old: str
    new: str | None
    index: bool
    untracked: bool
    spec: str

    def diff_args(self) -> list[str]:
        if self.new is not None:
            return [self.old, self.new]
        if self.index:
            return ["--cached", self.old]
        return [self.old]


@dataclass
class Entry:
    """One changed file as git reports it in `--raw` and `--numstat`."""

    status: str
    path: str
    old_path: str = ""
    old_mode: str = ""
    new_mode: str = ""
    old_sha: str = ""
    new_sha: str = ""
    adds: int = 0
    dels: int = 0
    binary: bool = False


@dataclass
class Hunks:
    """Changed line ranges of one file on each side, and git's funcname contexts."""

    old: list[tuple[int, int]] = field(default_factory=list)
    new: list[tuple[int, int]] = field(default_factory=list)
    funcnames: list[str] = field(default_factory=list)


class GitFailed(ProviderError):
    """A git command failed; `stderr` keeps what it said."""

    def __init__(self, what: str, stderr: str) -> None:
        last = next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()), "")
        super().__init__(
            f"git {what} failed: {last or 'no reason given'}", "check the repository with git status"
        )
        self.stderr = stderr


def _git(top: Path, args: list[str], ctx: Context, what: str, input: bytes | None = None) -> bytes:
    done = git.run(args, cwd=top, timeout=ctx.timeout(120), input=input)
    if done.returncode != 0:
        raise GitFailed(what, done.err)
    return done.stdout


def _git_runs(top: Path, args: list[str], selection: Selection, ctx: Context, what: str) -> list[bytes]:
    """`git <args> -- <pathspecs>` once per run the selection needs; the outputs in order."""
    outputs = []
    for specs in selection.runs(args):
        outputs.append(_git(top, [*args, "--", *specs], ctx, what))
        ctx.check_deadline()
    return outputs


def resolve_rev(top: Path, rev: str, ctx: Context) -> str | None:
    """The commit id `rev` names, or None."""
    done = git.run(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"],
        cwd=top,
        timeout=ctx.timeout(30),
    )
    return done.out.strip() if done.returncode == 0 else None


def empty_tree(top: Path, ctx: Context) -> str:
    """The empty tree's id in this repository's hash algorithm (valid for SHA-1 and SHA-256)."""
    return _git(top, ["hash-object", "-t", "tree", "--stdin"], ctx, "hash-object", input=b"").decode().strip()


def sides(top: Path, range_: str, staged: bool, ctx: Context) -> Sides:
    """Turn `range` and `staged` into the two sides of the diff (docs/changed.md, "The two sides of
    a diff")."""
    range_ = range_.strip()
    if range_.startswith("-"):
        raise ProviderError(
            f"range must be a revision, not an option: {range_}",
            "pass a revision such as HEAD~3 or main..feature",
        )

    def need(rev: str) -> str:
        commit = resolve_rev(top, rev, ctx)
        if commit is None:
            where = f" in range '{range_}'" if range_ != rev else ""
            raise ProviderError(f"unknown revision '{rev}'{where}", "check it with git log --oneline")
        return commit

    if ".." in range_:
        if staged:
            raise ArgumentError(
                f"{param('staged')} cannot be combined with the range {range_}",
                f"use {param('staged')} with no range or with one revision (index vs that revision)",
            )
        three = "..." in range_
        left, right = range_.split("..." if three else "..", 1)
        left, right = left or "HEAD", right or "HEAD"
        old, new = need(left), need(right)
        if three:
            base = git.run(["merge-base", old, new], cwd=top, timeout=ctx.timeout(30))
            if base.returncode != 0:
                raise ProviderError(
                    f"{left} and {right} have no merge base", f"compare them directly: {left}..{right}"
                )
            return Sides(base.out.strip(), new, False, False, f"merge-base({left}, {right})..{right}")
        return Sides(old, new, False, False, f"{left}..{right}")
    side = "index" if staged else "working tree"
    if range_:
        return Sides(need(range_), None, staged, not staged, f"{side} vs {range_}")
    head = resolve_rev(top, "HEAD", ctx)
    if head is None:
        return Sides(empty_tree(top, ctx), None, staged, not staged, f"{side} vs HEAD (no commits yet)")
    return Sides(head, None, staged, not staged, f"{side} vs HEAD")


@dataclass
class Changes:
    """Every changed file of one diff, and what git could not read along the way."""

    entries: list[Entry]
    selection: Selection
    """The pathspecs every later run of the same diff uses (with what git could not hash left out)."""
    unhashable: dict[str, str] = field(default_factory=dict)
    """Working-tree entries git could not read as files (path → what git said)."""
    runs: int = 1
    """git runs the pathspecs were spread over."""


def _parse_raw_numstat(out: bytes) -> list[Entry]:
    fields = out.split(b"\0")
    entries: list[Entry] = []
    by_key: dict[str, Entry] = {}
    i = 0
    while i < len(fields):
        head = fields[i]
        if not head:
            i += 1
            continue
        if head.startswith(b":"):
            meta = head[1:].split(b" ")
            status = meta[4][:1].decode()
            if status in ("R", "C"):
                old, new = os.fsdecode(fields[i + 1]), os.fsdecode(fields[i + 2])
                i += 3
            else:
                old = new = os.fsdecode(fields[i + 1])
                i += 2
            entry = Entry(
                status=status,
                path=new,
                old_path=old if status in ("R", "C") else "",
                old_mode=meta[0].decode(),
                new_mode=meta[1].decode(),
                old_sha="" if ZERO_SHA.match(meta[2]) else meta[2].decode(),
                new_sha="" if ZERO_SHA.match(meta[3]) else meta[3].decode(),
            )
            entries.append(entry)
            by_key.setdefault(entry.path, entry)
            continue
        adds, dels, name = head.split(b"\t", 2)
        if name:
            path = os.fsdecode(name)
            i += 1
        else:
            path = os.fsdecode(fields[i + 2])
            i += 3
        target = by_key.get(path)
        if target is None:
            continue
        if adds == b"-":
            target.binary = True
        else:
            target.adds += int(adds)
            target.dels += int(dels)
    return entries


def changes(top: Path, sides_: Sides, selection: Selection, ctx: Context) -> Changes:
    """Status, paths, modes, blob ids and churn of every changed file, from NUL-separated runs.

    A working-tree entry git cannot hash (a FIFO where a tracked file was) fails the whole run;
    it is left out of the runs that read contents, kept as a row from `--raw` alone, and named."""
    args = ["diff", "--raw", "--numstat", "-z", "--no-abbrev", *DIFF_OPTIONS, *sides_.diff_args()]
    unhashable: dict[str, str] = {}
    while True:
        try:
            outputs = _git_runs(top, args, selection, ctx, "diff")
            break
        except GitFailed as failure:
            path, said = _unhashable(failure.stderr)
            if path is None or path in unhashable or len(unhashable) >= MAX_UNHASHABLE:
                raise
            unhashable[path] = said
            selection = selection.without(path)
    entries: list[Entry] = []
    seen: set[tuple[str, str, str]] = set()
    for out in outputs:
        for entry in _parse_raw_numstat(out):
            key = (entry.status, entry.path, entry.old_path)
            if key not in seen:
                seen.add(key)
                entries.append(entry)
    if unhashable:
        raw_args = ["diff", "--raw", "-z", "--no-abbrev", *DIFF_OPTIONS, *sides_.diff_args()]
        only = Selection(tuple(literal(path) for path in unhashable))
        for out in _git_runs(top, raw_args, only, ctx, "diff --raw"):
            entries.extend(e for e in _parse_raw_numstat(out) if e.path in unhashable)
    return Changes(entries, selection, unhashable, runs=len(outputs))


def _unhashable(stderr: str) -> tuple[str | None, str]:
    for line in stderr.splitlines():
        match = UNHASHABLE.match(line.strip())
        if match:
            return c_unquote(match.group(1) or match.group(2)), line.strip()
    return None, ""


def unmerged(top: Path, selection: Selection, ctx: Context) -> set[str]:
    """Paths with unresolved merge conflicts in the index."""
    found: set[str] = set()
    for out in _git_runs(top, ["ls-files", "--unmerged", "-z"], selection, ctx, "ls-files"):
        found.update(os.fsdecode(item.split(b"\t", 1)[1]) for item in out.split(b"\0") if b"\t" in item)
    return found


def submodule_head(top: Path, path: str, ctx: Context) -> str:
    """The commit checked out in the submodule at `path`, or "" when it is not checked out."""
    done = git.run(["rev-parse", "--verify", "--quiet", "HEAD"], cwd=top / path, timeout=ctx.timeout(30))
    return done.out.strip() if done.returncode == 0 else ""


def untracked(top: Path, selection: Selection, ctx: Context) -> list[str]:
    """Every untracked, not ignored file, one by one (also inside new directories); an untracked
    nested repository is one entry ending in `/`."""
    names: list[str] = []
    seen: set[str] = set()
    args = ["ls-files", "--others", "--exclude-standard", "-z"]
    for out in _git_runs(top, args, selection, ctx, "ls-files"):
        for raw in out.split(b"\0"):
            name = os.fsdecode(raw)
            if raw and name not in seen:
                seen.add(name)
                names.append(name)
    return names


def c_unquote(text: str) -> str:
    """A path as git writes it in patch headers: C-quoted when it holds special characters."""
    if not (len(text) >= 2 and text.startswith('"') and text.endswith('"')):
        return text
    body = text[1:-1].encode("utf-8", "surrogateescape")
    out = bytearray()
    escapes = {b"n": 10, b"t": 9, b"r": 13, b'"': 34, b"\\": 92, b"a": 7, b"b": 8, b"f": 12, b"v": 11}
    i = 0
    while i < len(body):
        ch = body[i : i + 1]
        if ch == b"\\" and i + 1 < len(body):
            nxt = body[i + 1 : i + 2]
            if nxt in escapes:
                out.append(escapes[nxt])
                i += 2
                continue
            digits = body[i + 1 : i + 4]
            if len(digits) == 3 and all(48 <= c <= 55 for c in digits):
                out.append(int(digits, 8))
                i += 4
                continue
        out += ch
        i += 1
    return os.fsdecode(bytes(out))


def _header_path(line: str, prefix: str) -> str | None:
    """The path of a `--- a/x` / `+++ b/x` line, or None for /dev/null."""
    name = line[4:]
    if name.endswith("\t"):
        name = name[:-1]
    name = c_unquote(name)
    if name == "/dev/null":
        return None
    return name[len(prefix) :] if name.startswith(prefix) else name


@dataclass
class Patch:
    """Hunk ranges from `diff -U0`, keyed by new path and by old path, and the (old, new) pairs
    git diffed (None for /dev/null), which tell whether it paired files as the listing did."""

    by_new: dict[str, Hunks] = field(default_factory=dict)
    by_old: dict[str, Hunks] = field(default_factory=dict)
    pairs: set[tuple[str | None, str | None]] = field(default_factory=set)

    def merge(self, other: Patch) -> None:
        """Add another run's files; a file both runs diffed keeps the first run's hunks."""
        for path, found in other.by_new.items():
            self.by_new.setdefault(path, found)
        for path, found in other.by_old.items():
            self.by_old.setdefault(path, found)
        self.pairs |= other.pairs

    def agrees(self, entries: list[Entry]) -> bool:
        """Whether every entry with changed lines was diffed as the same pair of files."""
        for entry in entries:
            if entry.binary or entry.adds + entry.dels == 0 or entry.status not in "MADR":
                continue
            old = None if entry.status == "A" else entry.old_path or entry.path
            new = None if entry.status == "D" else entry.path
            if (old, new) not in self.pairs:
                return False
        return True


def hunks(top: Path, sides_: Sides, selection: Selection, ctx: Context) -> Patch:
    """Hunk ranges and funcname contexts of every file the selection names."""
    patch = Patch()
    args = ["diff", "-U0", *DIFF_OPTIONS, *sides_.diff_args()]
    for out in _git_runs(top, args, selection, ctx, "diff -U0"):
        patch.merge(_parse_patch(out))
    return patch


def _parse_patch(out: bytes) -> Patch:
    patch = Patch()
    old_name: str | None = None
    new_name: str | None = None
    current_new: Hunks | None = None
    current_old: Hunks | None = None
    for raw in out.split(b"\n"):
        line = raw.decode("utf-8", "surrogateescape")
        if line.startswith("diff --git "):
            old_name = new_name = None
            current_new = current_old = None
        elif line.startswith("--- ") and current_new is None and current_old is None:
            old_name = _header_path(line, "a/")
        elif line.startswith("+++ ") and current_new is None and current_old is None:
            new_name = _header_path(line, "b/")
            patch.pairs.add((old_name, new_name))
            current_new = patch.by_new.setdefault(new_name, Hunks()) if new_name is not None else None
            current_old = patch.by_old.setdefault(old_name, Hunks()) if old_name is not None else None
        elif line.startswith("@@ "):
            match = HUNK.match(line)
            if not match:
                continue
            a, b, c, d, context = match.groups()
            old_count = 1 if b is None else int(b)
            new_count = 1 if d is None else int(d)
            if current_old is not None and old_count:
                current_old.old.append((int(a), int(a) + old_count - 1))
            if current_new is not None and new_count:
                current_new.new.append((int(c), int(c) + new_count - 1))
            target = current_new if current_new is not None else current_old
            context = context.strip()
            if target is not None and context and context not in target.funcnames:
                target.funcnames.append(context)
    return patch


@dataclass
class Blobs:
    """Blob contents by id; the ids left unread, with why (`too_large`, `missing`)."""

    contents: dict[str, bytes] = field(default_factory=dict)
    unread: dict[str, str] = field(default_factory=dict)


def blobs(top: Path, shas: list[str], limit: int, ctx: Context) -> Blobs:
    """Contents of the blobs `shas`; those over `limit` bytes or missing from the object store
    (a partial clone, a damaged repository) are named in `unread` instead."""
    found = Blobs()
    unique = sorted(set(shas))
    if not unique:
        return found
    check = _git(
        top, ["cat-file", "--batch-check"], ctx, "cat-file", input="".join(s + "\n" for s in unique).encode()
    )
    small: list[str] = []
    for line in check.decode("utf-8", "replace").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "blob":
            if int(parts[2]) <= limit:
                small.append(parts[0])
            else:
                found.unread[parts[0]] = "too_large"
        elif parts:
            found.unread[parts[0]] = "missing"
    if not small:
        return found
    data = _git(
        top, ["cat-file", "--batch"], ctx, "cat-file", input="".join(s + "\n" for s in small).encode()
    )
    pos = 0
    while pos < len(data):
        end = data.index(b"\n", pos)
        header = data[pos:end].split()
        if len(header) != 3:
            if header:
                found.unread[header[0].decode("utf-8", "replace")] = "missing"
            pos = end + 1
            continue
        size = int(header[2])
        found.contents[header[0].decode()] = data[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
    return found
