"""Where a module specifier points, and which modules pass a name on: path aliases (`@/utils` →
`src/utils`, read by `sofia.syntax.aliases`) and star re-exports (`export * from './x'`, `from .x
import *`). A star barrel does not hold the name, so ripgrep never offers it as a candidate: it is
read here, once per call, the first time a use goes through the module it is."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from sofia.syntax.uses.model import Path as Container

if TYPE_CHECKING:
    from sofia.syntax.aliases import PathAliases

SCRIPTS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".d.ts")
PYTHON = (".py", ".pyi")
MAX_BARREL_BYTES = 1024 * 1024
MAX_DEPTH = 8
"""Star re-exports followed from one module."""


def family(lang: str) -> str:
    """The module system of a language: `python`, `js` (JavaScript, TypeScript, Vue), or ""."""
    if lang == "python":
        return "python"
    return "js" if lang in ("js", "ts", "tsx", "vue") else ""


class Modules:
    """Module paths as the analyzers write them (relative to the search root `cwd`), their files,
    and what those files pass on."""

    def __init__(self, cwd: Path, stop: Path, roots: list[tuple[Container, str]]) -> None:
        self.cwd = cwd
        self.stop = stop
        """The highest directory whose alias configuration applies (the workspace)."""
        self.roots = roots
        """Directory prefixes module paths may be relative to besides the root (a `src/`
        layout), each with the directory below it a module path must start with."""
        self._projects: dict[str, PathAliases] = {}
        self._aliased: dict[tuple[str, str], Container | None] = {}
        self._stars: dict[tuple[str, Container], list[Container]] = {}

    def aliased(self, rel: str, container: Container) -> Container | None:
        """A container read from a non-relative specifier in file `rel`, through the project's
        path aliases, as a path relative to the search root; None when no alias maps it to a
        file or directory that exists."""
        from sofia.syntax.aliases import aliases_for
        from sofia.syntax.uses.js import module_path

        directory = posixpath.dirname(rel)
        specifier = "/".join(container)
        key = (directory, specifier)
        if key not in self._aliased:
            found: Container | None = None
            if directory not in self._projects:
                self._projects[directory] = aliases_for(self.cwd / directory, self.stop)
            aliases = self._projects[directory]
            for target in aliases.targets(specifier):
                if _exists(target, SCRIPTS):
                    relative = os.path.relpath(target, self.cwd).replace(os.sep, "/")
                    found = module_path(relative)
                    break
            self._aliased[key] = found
        return self._aliased[key]

    def passed_on(self, lang: str, module: Container) -> list[Container]:
        """The modules `module`'s file re-exports whole, as module paths."""
        kind = family(lang)
        key = (kind, module)
        if key not in self._stars:
            self._stars[key] = self._read_stars(kind, module) if kind else []
        return self._stars[key]

    def reaches(self, lang: str, module: Container, find: Callable[[Container], int]) -> int:
        """The first value `find` gives >= 0 for a module `module` passes on whole, directly or
        through other barrels; -1 when none."""
        seen: set[Container] = set()
        todo = [(module, 0)]
        while todo:
            current, depth = todo.pop(0)
            if current in seen or depth > MAX_DEPTH:
                continue
            seen.add(current)
            if depth:
                index = find(current)
                if index >= 0:
                    return index
            todo.extend((source, depth + 1) for source in self.passed_on(lang, current))
        return -1

    def _read_stars(self, kind: str, module: Container) -> list[Container]:
        from sofia.syntax.grammars import LanguageUnsupported, ParseUnavailable, parse_bytes
        from sofia.syntax.uses import js, python

        file = self.file(kind, module)
        if file is None:
            return []
        try:
            source = file.read_bytes()
        except OSError:
            return []
        marker = b"import *" if kind == "python" else b"export *"
        if marker not in source or len(source) > MAX_BARREL_BYTES:
            return []
        rel = os.path.relpath(file, self.cwd).replace(os.sep, "/")
        grammar = (
            "python"
            if kind == "python"
            else ("typescript" if file.suffix in (".ts", ".mts", ".cts") else "tsx")
        )
        try:
            root = parse_bytes(source, grammar).root_node
        except (ParseUnavailable, LanguageUnsupported):
            return []
        if kind == "python":
            package = python.package_of(rel)
            return [python.resolve_module(package, text) for text in python.star_sources(root)]
        found: list[Container] = []
        for specifier in js.star_sources(root):
            if specifier.startswith("."):
                found.append(
                    js.module_path(posixpath.normpath(posixpath.join(posixpath.dirname(rel), specifier)))
                )
            else:
                aliased = self.aliased(rel, js.module_path(specifier))
                if aliased is not None:
                    found.append(aliased)
        return found

    def file(self, kind: str, module: Container) -> Path | None:
        """The file of a module path under one of the roots: `a/b.py`, `a/b/__init__.py`;
        `a/b.ts`, `a/b/index.ts` (any script extension)."""
        if not module:
            return None
        for root in [(), *(prefix for prefix, below in self.roots if below == module[0])]:
            base = self.cwd.joinpath(*root, *module)
            if kind == "python":
                candidates = [base.with_name(base.name + e) for e in PYTHON] + [base / "__init__.py"]
            else:
                candidates = [base.with_name(base.name + e) for e in SCRIPTS]
                candidates += [base / f"index{e}" for e in SCRIPTS]
            for candidate in candidates:
                if candidate.is_file():
                    return candidate
        return None


def source_roots(files: list[str]) -> list[tuple[Container, str]]:
    """(directory prefix, the directory below it) of the given files: where a module path
    written from a package's own name (`httpx`) may start (`src/` before `src/httpx`)."""
    roots: dict[tuple[Container, str], None] = {}
    for rel in files:
        parts = PurePosixPath(rel).parent.parts
        for depth in range(1, len(parts)):
            roots.setdefault((tuple(parts[:depth]), parts[depth]), None)
    return list(roots)


def _exists(target: Path, extensions: tuple[str, ...]) -> bool:
    if target.is_dir():
        return True
    return target.is_file() or any(target.with_name(target.name + e).is_file() for e in extensions)
