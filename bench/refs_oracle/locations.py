"""One convention for both sides: a use is the file, the 1-based line and the 1-based code-point
column where its identifier starts. Every tool's position is converted to it here and then snapped
to the start of the identifier token under it (for a PHP qualified name, its last segment), so a
tool that points at `Foo` in `\\App\\Foo` or at the start of `$this->foo` still meets the other."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from .model import Location

IDENTIFIER = {
    "python": re.compile(r"\w+"),
    "go": re.compile(r"\w+"),
    "ts": re.compile(r"[\w$]+"),
    "php": re.compile(r"[\w\\]+"),
    "java": re.compile(r"[\w$]+"),
    "c": re.compile(r"\w+"),
    "cpp": re.compile(r"\w+"),
}


class Corpus:
    """The text of a corpus's files, read once, to convert and snap positions."""

    def __init__(self, root: Path, lang: str) -> None:
        self.root = root
        self.lang = lang
        self.token = IDENTIFIER[lang]

    @cache  # noqa: B019 - one Corpus per run
    def lines(self, file: str) -> list[str]:
        data = (self.root / file).read_bytes()
        return data.decode("utf-8", errors="replace").splitlines()

    def line(self, file: str, line: int) -> str:
        lines = self.lines(file)
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def from_bytes(self, file: str, line: int, byte_col: int) -> int:
        """A 1-based byte column as a 1-based code-point column."""
        raw = self.line(file, line).encode("utf-8")
        return len(raw[: byte_col - 1].decode("utf-8", errors="replace")) + 1

    def from_utf16(self, file: str, line: int, unit_col: int) -> int:
        """A 0-based UTF-16 column (LSP's default) as a 1-based code-point column."""
        raw = self.line(file, line).encode("utf-16-le")
        return len(raw[: 2 * unit_col].decode("utf-16-le", errors="replace")) + 1

    def snap(self, file: str, line: int, col: int) -> Location | None:
        """The location of the identifier token at (line, col), or None when no identifier is there
        (a position neither side should produce)."""
        text = self.line(file, line)
        index = col - 1
        for match in self.token.finditer(text):
            if match.start() <= index < match.end():
                start = match.start()
                if self.lang == "php":
                    start += match.group().rfind("\\") + 1
                return Location(file, line, start + 1)
        return None

    def text(self, location: Location) -> str:
        return self.line(location.file, location.line).strip()
