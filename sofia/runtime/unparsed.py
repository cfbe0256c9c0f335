"""Counting a name where sofia cannot read it: whole-word occurrences in the files a walk keeps
whose type no language record parses, so `refs` and `code … NAME` never answer "not found" for a
name that occurs (docs/languages.md, "Never blind")."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sofia.runtime import proc, rg

SHOWN_TYPES = 6
"""Extensions named in the note; the rest are counted as "…"."""


@dataclass
class Unparsed:
    """Occurrences of one name in files of types sofia does not parse."""

    occurrences: int = 0
    files: int = 0
    by_type: Counter[str] = field(default_factory=Counter)
    """Occurrences per extension (`.c`; `(none)` for a file without one)."""
    partial: bool = False
    """The count ran out of time: the figures are a lower bound."""

    def add(self, path: bytes, hits: int) -> None:
        """One file's count of the name."""
        extension = os.path.splitext(os.fsdecode(path))[1].lower() or "(none)"
        self.occurrences += hits
        self.files += 1
        self.by_type[extension] += hits

    def note(self, name: str, advice: str = "use grep") -> str:
        """`kfree: 61,874 occurrences in 9,912 files of types sofia does not parse (.c, .h) — use
        grep`, or "" when there is none."""
        if not self.occurrences:
            return ""
        types = [t for t, _ in self.by_type.most_common()]
        shown = ", ".join(types[:SHOWN_TYPES]) + (", …" if len(types) > SHOWN_TYPES else "")
        at_least = "at least " if self.partial else ""
        return (
            f"{name}: {at_least}{self.occurrences:,} occurrence{'s' * (self.occurrences != 1)} in "
            f"{self.files:,} file{'s' * (self.files != 1)} of types sofia does not parse ({shown})"
            + (f"; {advice}" if advice else "")
        )


def count(
    word: str,
    paths: Sequence[str],
    *,
    cwd: Path,
    parsed_extensions: Iterable[str],
    ignore_dirs: Iterable[str] = (),
    timeout: float = 20.0,
) -> Unparsed:
    """Whole-word, literal occurrences of `word` under `paths` in files whose extension is not one
    of `parsed_extensions` (with the dot), by one `rg --count-matches` walk."""
    args = [rg.executable(), "--no-config", "--count-matches", "--fixed-strings", "--word-regexp"]
    args += ["--with-filename", "--null", *rg.walk_args(ignore_dirs, cwd=cwd)]
    ends = suffixes(parsed_extensions)
    for extension in ends:
        args.append(f"--iglob=!*{extension}")
    args += ["--regexp", word, "--", *paths]
    found = Unparsed()
    try:
        done = proc.run(args, cwd=cwd, timeout=timeout)
    except proc.ProgramNotFound:
        raise rg.not_found() from None
    except proc.ProgramTimeout:
        found.partial = True
        return found
    for line in done.stdout.split(b"\n"):
        path, nul, number = line.rpartition(b"\0")
        if not nul or not number.strip().isdigit() or parsed(path, ends):
            continue  # a file named in `paths` is searched whatever the globs say
        found.add(path, int(number))
    return found


def suffixes(parsed_extensions: Iterable[str]) -> tuple[str, ...]:
    """What a parsed file's name ends with, lower-cased (`.c`): `parsed` tests a path the way
    ripgrep's `--iglob=*.c` does."""
    return tuple(sorted({extension.lower() for extension in parsed_extensions}))


def parsed(path: bytes, ends: tuple[str, ...]) -> bool:
    """Whether `path` is of a type some language record parses (`ends` from `suffixes`)."""
    return os.fsdecode(os.path.basename(path)).lower().endswith(ends)


def split(counts: dict[bytes, int], ends: tuple[str, ...]) -> tuple[dict[bytes, int], Unparsed]:
    """One count over every file type, parted into the parsed files' counts and the rest's: the
    count of a name that `refs` reads and the note for where it cannot, from one ripgrep walk
    (a second walk for the note cost the kernel's `ret` 0.9 s after the classification)."""
    kept: dict[bytes, int] = {}
    rest = Unparsed()
    for path, hits in counts.items():
        if parsed(path, ends):
            kept[path] = hits
        elif hits:
            rest.add(path, hits)
    return kept, rest
