"""Which files a bundler's module loader names, resolved statically as the bundler would at build
time: Vite's `import.meta.glob` patterns (picomatch semantics) and webpack's `require.context`.

Vite: `*` and `?` stay within one path segment, `**` spans any number of directories, `{a,b}`
alternates, `[...]` is a class; wildcards skip names starting with `.` and `node_modules` is never
searched (unless `exhaustive`); `!pattern` excludes; the importing file itself is left out; files
come sorted. webpack: every file under the directory (its subdirectories too when the flag is
true) whose `./`-relative name the regular expression matches.

Patterns are translated by `sofia.runtime.globs` (its Vite dialect). Listing is bounded: at most
MAX_LISTED directory entries per loader, never outside the root.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from sofia.runtime import globs as shared
from sofia.runtime.globs import GlobError as GlobError

MAX_LISTED = 20_000
"""Directory entries one loader may list before it stops (and says so)."""


@dataclass
class Listing:
    """The files a loader matched, in the bundler's order, keyed as the bundler keys them."""

    entries: list[tuple[str, Path]] = field(default_factory=list)
    truncated: bool = False


def expand_braces(pattern: str) -> list[str]:
    """`a/{b,c}/*.ts` → `a/b/*.ts`, `a/c/*.ts` (nested braces too; `\\{` is literal)."""
    return shared.expand_braces(pattern, shared.VITE)


EXTGLOB = re.compile(r"[@!?+*]\(")


def glob_regex(pattern: str, dot: bool = False) -> re.Pattern[str]:
    """A brace-free absolute posix pattern as a regex matched against whole absolute paths."""
    if EXTGLOB.search(pattern):
        raise GlobError(f"extglob patterns are not interpreted: {pattern}")
    return shared.compile_glob(pattern, shared.VITE, dot=dot)


def literal_base(pattern: str) -> str:
    """The leading directories of an absolute pattern that hold no wildcard."""
    kept: list[str] = []
    segments = pattern.split("/")
    for segment in segments[:-1]:
        if any(c in segment for c in "*?[{\\") or EXTGLOB.search(segment):
            break
        kept.append(segment)
    return "/".join(kept) or "/"


def common_base(paths: list[str]) -> str:
    return os.path.commonpath(paths) if paths else "/"


def list_files(base: Path, recursive: bool, skip_hidden: bool, skip_modules: bool) -> Listing:
    """Every file under `base`, bounded by MAX_LISTED entries, in path order; symlinks not followed."""
    listing = Listing()
    seen = 0
    stack = [base]
    files: list[Path] = []
    while stack:
        directory = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > MAX_LISTED:
                listing.truncated = True
                stack.clear()
                break
            if skip_hidden and entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if recursive and not (skip_modules and entry.name == "node_modules"):
                        stack.append(Path(entry.path))
                elif entry.is_file():
                    files.append(Path(entry.path))
            except OSError:
                continue
    listing.entries = [("", path) for path in sorted(files, key=lambda p: p.as_posix())]
    return listing


def vite_glob(
    patterns: list[str],
    importer: Path,
    root: Path,
    resolve_alias: object,
    exhaustive: bool = False,
    base: str = "",
) -> Listing:
    """The files `import.meta.glob(patterns)` in `importer` matches, keyed as Vite keys them.

    `resolve_alias(pattern)` returns the absolute posix form of an alias pattern, or None.
    """
    directory = importer.parent.resolve().as_posix()
    root_posix = root.resolve().as_posix()
    if base:
        if base.startswith("/"):
            key_dir = root_posix + base.rstrip("/")
        else:
            key_dir = os.path.normpath(os.path.join(directory, base)).replace(os.sep, "/")
        directory = key_dir
    positive: list[str] = []
    negative: list[str] = []
    for raw in patterns:
        exclude = raw.startswith("!")
        pattern = raw[1:] if exclude else raw
        for one in expand_braces(pattern):
            absolute = _absolute(one, directory, root_posix, resolve_alias)
            (negative if exclude else positive).append(absolute)
    if not positive:
        raise GlobError("no positive pattern")
    cwd = common_base([literal_base(p) for p in positive if not p.startswith("**")] or [root_posix])
    negative = [f"{cwd.rstrip('/')}/{p}" if p.startswith("**") else p for p in negative]
    positive = [f"{cwd.rstrip('/')}/{p}" if p.startswith("**") else p for p in positive]
    outside = [p for p in positive if not _within(literal_base(p), root_posix)]
    if outside:
        raise GlobError(f"pattern reaches outside the root: {outside[0]}")
    include = [glob_regex(p, dot=exhaustive) for p in positive]
    exclude_res = [glob_regex(p, dot=True) for p in negative]
    depth = cwd.rstrip("/").count("/") + 1
    recursive = any("**" in p or p.count("/") > depth for p in positive)
    hidden = exhaustive or any(re.search(r"/\.[^./]", p) for p in positive)
    listing = list_files(Path(cwd), recursive, skip_hidden=not hidden, skip_modules=not exhaustive)
    importer_posix = importer.resolve().as_posix()
    relative_keys = all(raw[:1] in (".", "!") for raw in patterns) or bool(base)
    entries: list[tuple[str, Path]] = []
    for _, path in listing.entries:
        text = path.as_posix()
        if text == importer_posix:
            continue
        if not any(r.fullmatch(text) for r in include) or any(r.fullmatch(text) for r in exclude_res):
            continue
        if relative_keys:
            key = os.path.relpath(text, directory).replace(os.sep, "/")
            key = key if key.startswith("../") else "./" + key
        else:
            key = "/" + os.path.relpath(text, root_posix).replace(os.sep, "/")
        entries.append((key, path))
    listing.entries = entries
    return listing


def _absolute(pattern: str, directory: str, root: str, resolve_alias: object) -> str:
    if pattern.startswith("/"):
        return root + pattern
    if pattern.startswith("./"):
        return _join(directory, pattern[2:])
    if pattern.startswith("../"):
        return _join(directory, pattern)
    if pattern.startswith("**"):
        return pattern
    resolved = resolve_alias(pattern) if callable(resolve_alias) else None
    if isinstance(resolved, str):
        return resolved
    raise GlobError(f"a glob must start with ./, ../, / or a known alias: {pattern}")


def _join(directory: str, relative: str) -> str:
    """posix join that folds `..` in the literal head but leaves wildcards alone."""
    parts = directory.split("/")
    rest = relative.split("/")
    while rest and rest[0] in ("..", "."):
        if rest[0] == "..":
            parts.pop()
        rest.pop(0)
    return "/".join(parts + rest)


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def webpack_context(directory: Path, root: Path, recursive: bool, regex: re.Pattern[str]) -> Listing:
    """The files `require.context(directory, recursive, regex)` names, keyed `./relative/name`."""
    if not _within(directory.resolve().as_posix(), root.resolve().as_posix()):
        raise GlobError(f"directory outside the root: {directory}")
    if not directory.is_dir():
        raise GlobError(f"no such directory: {directory}")
    listing = list_files(directory, recursive, skip_hidden=False, skip_modules=False)
    entries = []
    for _, path in listing.entries:
        key = "./" + path.relative_to(directory).as_posix()
        if regex.search(key):
            entries.append((key, path))
    listing.entries = entries
    return listing


def js_regex(pattern: str, flags: str) -> re.Pattern[str]:
    """A JavaScript regular expression literal as a Python one (the common subset)."""
    python_flags = 0
    for flag in flags:
        if flag == "i":
            python_flags |= re.IGNORECASE
        elif flag == "m":
            python_flags |= re.MULTILINE
        elif flag == "s":
            python_flags |= re.DOTALL
        elif flag not in "gudy":
            raise GlobError(f"regular expression flag {flag!r} is not interpreted")
    translated = re.sub(r"\(\?<([A-Za-z_$][\w$]*)>", r"(?P<\1>", pattern)
    try:
        return re.compile(translated, python_flags)
    except re.error as error:
        raise GlobError(f"regular expression /{pattern}/ is not interpreted: {error}") from error
