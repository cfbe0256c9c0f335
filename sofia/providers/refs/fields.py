"""Fields declared in another file than the use: C++'s `train_data_->num_data()` in
`void Application::Init() { … }` of `application.cpp`, `train_data_` declared in the class in
`application.h`. The classifier marks such a receiver (`Occurrence.field_of`) and lists the
file's includes; here the class is looked for in those files, as the include path would find
them, and the field's declared type read there, through the class's parents where it inherits
the field. Each file is parsed once per search, and only so many, so a search stays bounded."""

from __future__ import annotations

import os
import re
from pathlib import Path as FilePath
from typing import TYPE_CHECKING

from sofia.runtime.files import looks_binary, read_regular
from sofia.syntax import MAX_PARSE_BYTES
from sofia.syntax.uses.model import Occurrence, Path, ends_alike

if TYPE_CHECKING:
    from sofia.syntax.uses.model import FileUses
    from sofia.syntax.uses.queried import Analyzer

MAX_FILES = 64
"""Included files parsed per search at most: past them a field's type stays unknown (a `name`
match, as before), never wrong."""
MAX_DEPTH = 3
"""Parents followed at most for an inherited field."""
UP_LEVELS = 8
"""Directories above the including file tried as the include path's roots (each, and its
`include/` directory)."""


class Fields:
    """Field types read off included files, for one search (`cwd`: where rg's paths start), shared
    by its names: each include resolved and each file parsed once."""

    def __init__(self, cwd: FilePath, workspace: FilePath) -> None:
        self.cwd = cwd
        self.workspace = workspace.resolve()
        """Included files are read inside it only: a search reads nothing of the machine beyond."""
        self.analyzers: dict[FilePath, Analyzer | None] = {}
        self.sources: dict[FilePath, bytes | None] = {}
        self.found: dict[tuple[str, Path, str, str], Path | None] = {}
        self.resolved: dict[tuple[FilePath, str], FilePath | None] = {}

    def type_of(self, rel: str, uses: FileUses, occurrence: Occurrence) -> Path | None:
        """The type of the field a use's receiver names (`Occurrence.field_of`) in the file at
        `rel`, None where the files it includes do not tell."""
        if occurrence.field_of is None:
            return None
        owner, name, how = occurrence.field_of
        key = (rel, owner, name, how)
        if key not in self.found:
            file = self.cwd / rel
            included = self._included(file, uses.includes)
            here = next((b for b in uses.classes if ends_alike(b.path, owner)), None)
            if here is not None:  # the class is the file's own: its field is inherited
                self.found[key] = self._inherited(here.parents, name, how, included, 1)
            else:
                self.found[key] = self._search(owner, name, how, included, 0)
        return self.found[key]

    def _search(self, owner: Path, name: str, how: str, files: list[FilePath], depth: int) -> Path | None:
        declares = re.compile(rb"\b(?:class|struct)\s+(?:\w+\s+)*" + re.escape(owner[-1].encode()) + rb"\b")
        for file in files:
            source = self._source(file)
            if source is None or not declares.search(source):
                continue  # parse only a file that may declare the class
            analyzer = self._analyzer(file)
            if analyzer is None:
                continue
            declaration, typed = analyzer.declared_field(owner, name, how)
            if declaration is None:
                continue
            if typed is not None:
                return typed
            more = [file, *self._included(file, analyzer.includes()), *files]
            return self._inherited(analyzer.parents_of(declaration), name, how, more, depth + 1)
        return None

    def _inherited(
        self, parents: tuple[Path, ...] | list[Path], name: str, how: str, files: list[FilePath], depth: int
    ) -> Path | None:
        if depth > MAX_DEPTH:
            return None
        for parent in parents:
            typed = self._search(parent, name, how, list(dict.fromkeys(files)), depth)
            if typed is not None:
                return typed
        return None

    def _included(self, file: FilePath, specs: tuple[str, ...] | list[str]) -> list[FilePath]:
        """The files `specs` name, each where the include path would find it first: beside the
        including file, else under a directory above it or its `include/`."""
        found: list[FilePath] = []
        for spec in specs:
            key = (file.parent, spec)
            if key not in self.resolved:
                self.resolved[key] = _resolve(file.parent, spec, self.workspace)
            resolved = self.resolved[key]
            if resolved is not None:
                found.append(resolved)
        return list(dict.fromkeys(found))

    def _source(self, file: FilePath) -> bytes | None:
        if file not in self.sources:
            try:
                source: bytes | None = read_regular(file)
            except OSError:
                source = None
            if source is not None and (len(source) > MAX_PARSE_BYTES or looks_binary(source)):
                source = None
            self.sources[file] = source
        return self.sources[file]

    def _analyzer(self, file: FilePath) -> Analyzer | None:
        if file in self.analyzers:
            return self.analyzers[file]
        source = self._source(file)
        analyzer = None
        if source is not None and len(self.analyzers) < MAX_FILES:
            analyzer = _read(file, source)
        self.analyzers[file] = analyzer
        return analyzer


def _resolve(directory: FilePath, spec: str, workspace: FilePath) -> FilePath | None:
    """Where the include path would find `spec` first from a file in `directory`, or None: also
    where that is outside the workspace or of a type no language reads (`<vector>`)."""
    from sofia.syntax import language_for

    if not spec or os.path.isabs(spec) or language_for(spec) is None:
        return None
    for base in _bases(directory):
        candidate = base / spec
        if candidate.is_file():
            found = candidate.resolve()
            return found if found.is_relative_to(workspace) else None
    return None


def _bases(start: FilePath) -> list[FilePath]:
    bases = [start]
    for parent in list(start.parents)[:UP_LEVELS]:
        bases.extend((parent, parent / "include"))
    return bases


def _read(file: FilePath, source: bytes) -> Analyzer | None:
    """The analyser of an included file, None where it is not one refs reads this way."""
    from sofia.syntax import ParseUnavailable, language_for, registry
    from sofia.syntax.uses import syntax_of
    from sofia.syntax.uses.queried import Analyzer

    lang = language_for(file)
    record = registry.language(lang) if lang is not None else None
    if lang is None or record is None or record.uses != "queried":
        return None
    try:
        syntax = syntax_of(source, lang)
    except ParseUnavailable:
        return None
    analyzer = Analyzer(syntax, file.name)
    return analyzer if analyzer.tables.included is not None else None
