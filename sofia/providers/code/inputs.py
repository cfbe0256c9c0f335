"""From what the caller typed to the list of files to read: CLI positional classification,
validation, and expansion of directories and globs under the one walking rule set
(docs/architecture.md, "Walking a tree")."""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from sofia.errors import ArgumentError, param
from sofia.providers.code.globs import (
    GlobError,
    compile_glob,
    expand_braces,
    is_glob,
    literal_prefix,
    matches,
)
from sofia.providers.contract import ProviderError
from sofia.runtime import files as filekinds
from sofia.runtime import paths
from sofia.syntax import EXTENSIONS, language_for

MAX_FILES = 250
GO_RECEIVER = re.compile(r"^\(\*?\w+(?:\[[\w, ]*\])?\)\.\w+$")
"""`(*Server).Routes`: a Go method spelling, not a glob, even though it holds `*`."""
SLICE_HINT = (
    f"for bodies pass one file as {param('files', ['FILE'])} with {param('symbols', [...])}; "
    f"for summaries drop {param('symbols')}"
)
SUPPORTED = " ".join(sorted(EXTENSIONS))


@dataclass(frozen=True)
class Input:
    """One file to process: its display path (relative to the workspace root) and absolute path."""

    rel: str
    path: Path


def resolve(root: Path, text: str) -> Path:
    return Path(os.path.normpath(root / text))


def display(root: Path, path: Path) -> str:
    """The path as every tool prints it: relative to the workspace root, `/`-separated, without
    `./`, with `../` when outside it (so any tool accepts it back)."""
    return paths.shown(path, root)


def classify(args: list[str], root: Path) -> tuple[list[str], list[str]]:
    """Split CLI positionals into (files, symbols).

    After an existing regular file, a directory or a glob, words that are neither paths nor globs
    are symbols, looked up in that file or under that directory or glob (a Go
    receiver spelling such as `(*Server).Routes` is a word); when all
    the rest look like paths (exist, are globs, or contain `/`) they are files; a mix is an error.
    """
    first = resolve(root, args[0])
    searchable = first.is_file() or first.is_dir() or (not os.path.lexists(first) and is_glob(args[0]))
    if len(args) <= 1 or not searchable:
        return list(args), []
    rest = args[1:]
    path_like = [
        os.path.lexists(resolve(root, a)) or (is_glob(a) and not GO_RECEIVER.match(a)) or "/" in a
        for a in rest
    ]
    if not any(path_like):
        return [args[0]], rest
    if all(path_like):
        return list(args), []
    words = [a for a, like in zip(rest, path_like, strict=True) if not like]
    raise ProviderError(
        f"mixed files and symbols: {', '.join(words)}",
        "for bodies use sf code FILE SYMBOL..., for summaries pass only paths",
    )


def slice_target(files: list[str], root: Path) -> Input:
    """The one regular file symbols are sliced from, or a ProviderError saying what is wrong."""
    if len(files) != 1:
        raise ArgumentError(
            f"symbols need exactly one file, got {len(files)}: {', '.join(files)}", SLICE_HINT
        )
    text = files[0]
    path = resolve(root, text)
    if path.is_dir():
        raise ProviderError(f"symbols need one file, not a directory: {text}", SLICE_HINT)
    filekinds.require(path, text, what="file", directory=False)
    if not os.path.lexists(path):
        if is_glob(text):
            raise ProviderError(f"symbols need one file, not a glob: {text}", SLICE_HINT)
        raise ProviderError(f"not found: {text}", f"paths are relative to {root}")
    return Input(display(root, path), path)


def expand(
    files: list[str], root: Path, timeout: float = 60.0, notes: list[str] | None = None
) -> list[Input]:
    """Every input as files: existing files kept, directories walked, globs matched; input order
    first, paths sorted within an input, duplicates dropped (first wins); at most MAX_FILES.

    Entries a walk could not read are skipped, and one note per input (into `notes`) says how
    many and names the first. (A FIFO, device or socket named as a file is kept here and becomes
    a skipped row: `documents.read` never opens it.)
    """
    for text in files:
        if not os.path.lexists(resolve(root, text)) and not is_glob(text):
            raise ProviderError(f"not found: {text}", f"paths are relative to {root}")
    found: dict[str, Input] = {}
    skipped: list[str] = []
    for text in files:
        path = resolve(root, text)
        if os.path.lexists(path) and not path.is_dir():
            found.setdefault(display(root, path), Input(display(root, path), path))
            continue
        walker = walk_directory if path.is_dir() else match_glob
        rels = walker(text, path, root, timeout, skipped)
        for rel in rels:
            found.setdefault(rel, Input(rel, resolve(root, rel)))
    if notes is not None:
        notes.extend(skipped)
    if len(found) > MAX_FILES:
        raise too_many(files, list(found))
    return list(found.values())


def _listed(targets: list[str], root: Path, timeout: float, text: str, notes: list[str]) -> list[str]:
    """rg's walk of `targets`; what it could not read becomes one note about `text`, and the
    directories it skipped by default name one more (each can be named to be read)."""
    from sofia.runtime import rg, skips

    listing = rg.walk(targets, cwd=root, timeout=timeout)
    if listing.skipped:
        notes.append(rg.skipped_note(listing.skipped, f"were left out of {text}"))
    notes.extend(skips.notes(listing.defaults, str, "files"))
    return listing.files


def walk_directory(text: str, path: Path, root: Path, timeout: float, notes: list[str]) -> list[str]:
    skipped: list[str] = []
    listed = _listed([display(root, path)], root, timeout, text, skipped)
    kept = [p for p in listed if language_for(p)]
    if not kept:
        if skipped:
            raise ProviderError(f"no readable supported files under {text}", skipped[0])
        raise ProviderError(f"no supported files under {text}", f"code reads {SUPPORTED} files")
    notes.extend(skipped)
    return kept


def match_glob(text: str, path: Path, root: Path, timeout: float, notes: list[str]) -> list[str]:
    """Files matched by a glob, or inside directories it matches, walked under the one walking rule set."""
    pattern = text[2:] if text.startswith("./") else text
    try:
        alternatives = expand_braces(pattern)
        compiled = [(p, compile_glob(p), literal_prefix(p)) for p in alternatives]
    except GlobError as error:
        raise ProviderError(
            f"malformed glob: {text} ({error})",
            "globs support * ? [abc] [!abc] {a,b} and ** across directories",
        ) from None
    matched: set[str] = set()
    skipped: list[str] = []
    for _, regex, prefix in compiled:
        start = resolve(root, prefix or ".")
        if not start.is_dir():
            continue
        for rel in _listed([prefix or "."], root, timeout, text, skipped):
            if matches(regex, rel, prefix):
                matched.add(rel)
    if not matched:
        hint = skipped[0] if skipped else f"paths and globs are relative to {root}"
        raise ProviderError(f"no match: {text}", hint)
    notes.extend(skipped)
    kept = sorted((p for p in matched if language_for(p)), key=os.fsencode)
    if not kept:
        raise ProviderError(f"no supported files match {text}", f"code reads {SUPPORTED} files")
    return kept


def too_many(files: list[str], rels: list[str]) -> ProviderError:
    """The over-the-limit error, naming the largest subdirectories one level below the common prefix."""
    directories = [r.split("/")[:-1] for r in rels]
    common = directories[0]
    for parts in directories[1:]:
        while parts[: len(common)] != common:
            common = common[:-1]
    groups = Counter("/".join(parts[: len(common) + 1]) for parts in directories if len(parts) > len(common))
    ranked = sorted(groups.items(), key=lambda item: (-item[1], item[0]))[:8]
    shown = [f"{name} ({count:,}{' files' if i == 0 else ''})" for i, (name, count) in enumerate(ranked)]
    more = ", …" if len(groups) > len(ranked) else ""
    hint = (
        f"narrow it, e.g. {', '.join(shown)}{more}" if shown else "narrow it to fewer files or one extension"
    )
    return ProviderError(
        f"{', '.join(files)} matched {len(rels):,} files; the limit is {MAX_FILES} per call", hint
    )
