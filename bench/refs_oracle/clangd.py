"""The C and C++ reference finder: clangd (Debian) over LSP stdio with its background index over a
generated `compile_commands.json`. `documentSymbol` per file lists the declarations, clangd's
`textDocument/symbolInfo` names the entity each one declares (its USR), so a prototype and its
definition are one symbol; `textDocument/references` gives the uses."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty
from typing import Any

import harness

from . import corpora
from .locations import Corpus
from .lsp import Client, LspError
from .model import Definition, Location
from .oracles import Found

SOURCES = {"c": (".c",), "cpp": (".cpp", ".cc", ".cxx")}
HEADERS = (".h", ".hh", ".hpp", ".hxx")

KINDS = {
    5: "class",
    23: "class",
    10: "enum",
    11: "interface",
    26: "type",
    6: "method",
    12: "function",
    8: "field",
    7: "property",
    13: "variable",
    14: "constant",
    22: "constant",
}
"""LSP SymbolKind numbers as definition kinds: a struct, union or class is a `class`, a typedef or
`using` alias a `type` (clangd 14 reports it as a class: see `kind_of`), an enumerator a
constant. Namespaces (3) are walked into, not listed; constructors (9) and destructors are the
class's own name written at a member, never chosen and never a use."""
CONSTRUCTOR = 9
GUARD = re.compile(r"^\s*#\s*(ifndef|if\s+!\s*defined|pragma\s+once)\b", re.MULTILINE)
"""A header without an include guard is a textual template, included several times under
different macros (Brotli's `*_inc.h`): clangd's index holds no reference in it, so it is listed
as unresolved (a use refs returns there is not judged)."""
MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.MULTILINE)


def flags(corpus: Corpus) -> list[str]:
    """The compiler flags of every translation unit of the corpus."""
    if corpus.lang == "c":
        # Brotli's shared-dictionary code is built only with BROTLI_EXPERIMENTAL: without it that
        # code is an inactive preprocessor region, which clangd does not see.
        return ["-x", "c", "-std=c99", "-DBROTLI_EXPERIMENTAL", f"-I{corpus.root / 'c' / 'include'}"]
    sdist = harness.pypi_sdist(corpora.CPP_SDIST) / "external_libs"
    return [
        "-x",
        "c++",
        "-std=c++17",
        f"-I{corpus.root / 'include'}",
        # arrow.h includes its template bodies from arrow.tpp, a suffix refs does not read: it
        # stays in the sdist, outside the corpus, found on the include path.
        f"-I{sdist.parent / 'include' / 'LightGBM'}",
        f"-I{sdist.parent / 'include'}",  # likewise LightGBM/cuda/*.hu
        f"-I{sdist / 'fmt' / 'include'}",
        f"-I{sdist / 'fast_double_parser' / 'include'}",
        f"-I{sdist / 'eigen'}",
        "-DEIGEN_MPL2_ONLY",
        "-DEIGEN_DONT_PARALLELIZE",
        "-DUSE_SOCKET",
        "-DMM_PREFETCH",
        "-DMM_MALLOC",
    ]


@dataclass
class Entity:
    """One C/C++ entity (one USR): where it is defined, and every other place it is declared."""

    definition: Definition
    sites: set[Location] = field(default_factory=set)


class ClangdOracle:
    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.unresolved: list[str] = []
        binary = corpora.apt_tool("clangd", corpora.CLANGD)
        version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True)
        self.name = version.stdout.splitlines()[0].replace("Debian ", "") + " textDocument/references"
        suffixes = SOURCES[corpus.lang] + HEADERS
        self.paths = sorted(p for p in corpus.root.rglob("*") if p.is_file() and p.name.endswith(suffixes))
        self.files = len(self.paths)
        self.unresolved = [
            p.relative_to(corpus.root).as_posix()
            for p in self.paths
            if p.name.endswith(HEADERS) and not GUARD.search(p.read_text(encoding="utf-8", errors="replace"))
        ]
        self.database = corpora.TOOLS / f"clangd-{corpus.lang}"
        self.write_database()
        self.client = Client(
            [
                binary,
                f"--compile-commands-dir={self.database}",
                "--background-index",
                "-j=2",
                "--log=error",
                "--pch-storage=memory",
                "--header-insertion=never",
                "--limit-references=0",
                "--limit-results=0",
            ],
            corpus.root,
            lambda method, params: None,
        )
        uri = corpus.root.as_uri()
        server = self.client.request(
            "initialize",
            {
                "processId": None,
                "rootUri": uri,
                "workspaceFolders": [{"uri": uri, "name": "corpus"}],
                "capabilities": {
                    "window": {"workDoneProgress": True},
                    "textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": True}},
                },
            },
        )
        self.client.notify("initialized", {})
        legend = server["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"]
        self.inactive_type = legend.index("comment")
        self.unresolved_lines: dict[str, list[int]] = {}
        self.opened: set[str] = set()
        self.errors: dict[str, int] = {}
        corpora.say(f"indexing the {corpus.lang} corpus with {self.name} ({self.files} files)")
        started = time.perf_counter()
        first = next(p for p in self.paths if p.name.endswith(SOURCES[corpus.lang]))
        uri = self.open(first.relative_to(corpus.root).as_posix())
        self.wait_for_index(timeout=1800)
        corpora.say(f"{corpus.lang}: clangd indexed in {time.perf_counter() - started:.0f} s")
        self.entities: dict[str, Entity] = {}

    def write_database(self) -> None:
        """compile_commands.json beside the corpus (not in it: refs and rg must not search it),
        one entry per translation unit; headers are indexed through the units that include them."""
        self.database.mkdir(parents=True, exist_ok=True)
        compiler = "clang" if self.corpus.lang == "c" else "clang++"
        entries = [
            {
                "directory": str(path.parent),
                "file": str(path),
                "arguments": [compiler, *flags(self.corpus), "-c", str(path)],
            }
            for path in self.paths
            if path.name.endswith(SOURCES[self.corpus.lang])
        ]
        database = self.database / "compile_commands.json"
        text = json.dumps(entries, indent=1) + "\n"
        if not database.exists() or database.read_text() != text:
            shutil.rmtree(self.database / ".cache", ignore_errors=True)  # indexed under other flags
        database.write_text(text)

    def wait_for_index(self, timeout: float) -> None:
        """Until clangd's background index reports its end (a `$/progress` of kind `end` on the
        token it created for the index)."""
        deadline = time.monotonic() + timeout
        begun = False
        while time.monotonic() < deadline:
            try:
                message = self.client.notifications.get(timeout=5 if begun else 60)
            except Empty:
                if not begun:
                    return  # nothing to index (every unit was cached) or no progress reported
                continue
            self.note(message)
            if message.get("method") != "$/progress":
                continue
            value = message["params"].get("value", {})
            if value.get("kind") == "begin":
                begun = True
            elif value.get("kind") == "end" and begun:
                return
        raise LspError(f"clangd's background index did not finish in {timeout:.0f} s")

    def note(self, message: dict[str, Any]) -> None:
        """Remember the errors clangd reports for an open file (its latest diagnostics)."""
        if message.get("method") == "textDocument/publishDiagnostics":
            params = message["params"]
            rel = self.rel(str(params["uri"]))
            if rel is not None:
                self.errors[rel] = sum(1 for d in params.get("diagnostics", []) if d.get("severity") == 1)

    def collect_errors(self, timeout: float = 300) -> None:
        """Translation units clangd reports an error in (a header it cannot find ends the parse)
        are unresolved, as go/types' and javac's are: a use refs returns there is not judged."""
        deadline = time.monotonic() + timeout
        while len(self.errors) < len(self.opened) and time.monotonic() < deadline:
            try:
                self.note(self.client.notifications.get(timeout=max(0.1, deadline - time.monotonic())))
            except Empty:
                break
        while not self.client.notifications.empty():
            self.note(self.client.notifications.get_nowait())
        # A header opened alone may lack what its includer declares first; its uses are indexed
        # in the translation units that include it, whose errors (an include that fails is
        # reported at the `#include`) are what counts.
        broken = sorted(
            rel for rel, count in self.errors.items() if count and rel.endswith(SOURCES[self.corpus.lang])
        )
        if broken:
            corpora.say(
                f"{self.corpus.lang}: clangd reports errors in {len(broken)} files: {', '.join(broken[:8])}"
            )
        self.unresolved = sorted(set(self.unresolved) | set(broken))

    def rel(self, uri: str) -> str | None:
        path = Path(uri.removeprefix("file://"))
        try:
            return path.relative_to(self.corpus.root).as_posix()
        except ValueError:
            return None

    def open(self, rel: str) -> str:
        """Open a file in clangd once: it stays open, so clangd keeps its preamble (the parsed
        headers) and answers later requests on it without parsing them again."""
        path = self.corpus.root / rel
        uri = path.as_uri()
        if rel in self.opened:
            return uri
        self.opened.add(rel)
        text = path.read_text(encoding="utf-8", errors="replace")
        language = "c" if self.corpus.lang == "c" and not rel.endswith(".hpp") else "cpp"
        self.client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}},
        )
        return uri

    def location(self, rel: str, position: dict[str, Any]) -> Location | None:
        line = int(position["line"]) + 1
        return self.corpus.snap(rel, line, self.corpus.from_utf16(rel, line, int(position["character"])))

    def definitions(self) -> list[Definition]:
        """One definition per entity, at its definition if the corpus holds one (else at its first
        declaration); every other declaration of it is a site (never a use)."""
        declared: dict[str, list[tuple[Location, str, str | None, str]]] = defaultdict(list)
        constructors: dict[str, list[Location]] = defaultdict(list)
        for path in self.paths:
            rel = path.relative_to(self.corpus.root).as_posix()
            uri = self.open(rel)
            symbols = self.client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) or []
            unparsed = sorted(set(self.inactive_lines(uri)) | set(macro_bodies(self.corpus.lines(rel))))
            if unparsed:
                self.unresolved_lines[rel] = unparsed
            for item, parent in walk(symbols, None):
                start = dict(item["selectionRange"]["start"])
                if self.corpus.line(rel, int(start["line"]) + 1)[int(start["character"]) :].startswith("~"):
                    start["character"] = int(start["character"]) + 1  # a destructor: the name after ~
                where = self.location(rel, start)
                if where is None:
                    continue
                if int(item["kind"]) == CONSTRUCTOR or str(item["name"]).rpartition("::")[2].startswith("~"):
                    # A constructor's or destructor's name is its class's (`Foo(…)`, `~Foo()`,
                    # `Foo<T>::Foo(…)`): a declaration, never a use of the class.
                    constructors[self.written(where)].append(where)
                    continue
                info = self.client.request(
                    "textDocument/symbolInfo",
                    {"textDocument": {"uri": uri}, "position": item["selectionRange"]["start"]},
                )
                own = str(item["name"]).rpartition("::")[2]
                entry = entity_named(info or [], own, str(item.get("detail") or ""))
                written = self.corpus.token.match(self.corpus.line(rel, where.line)[where.col - 1 :])
                if entry is None or written is None or written.group() != own.lstrip("~"):
                    # An anonymous struct or union (no name of its own is written), or a
                    # declaration a macro wrote (symbolInfo names the macro).
                    continue
                usr, name = str(entry["usr"]), own
                kind = "constant" if parent == "enum" else kind_of(item)
                if kind is None:
                    continue
                container = str(entry.get("containerName") or "").rstrip(":").rpartition("::")[2] or None
                if kind == "function" and parent is not None and parent in ("class", "enum"):
                    kind = "method"
                if kind == "method" and container is None:
                    kind = "function"
                if kind == "function":
                    container = None
                declared[usr].append((where, kind, container))
        out = []
        for usr, places in declared.items():
            sites = {place for place, *_ in places}
            defined = self.definition_of(places[0][0]) if len(places) > 1 else places[0][0]
            where, kind, container = next((p for p in places if p[0] == defined), places[0])
            name = self.corpus.line(where.file, where.line)[where.col - 1 :]
            name = self.corpus.token.match(name).group()  # type: ignore[union-attr]
            definition = Definition(name, kind, container, where.file, where.line, where.col, usr)
            self.entities[usr] = Entity(definition, sites - {where})
            out.append(definition)
        out += self.macros()
        self.collect_errors()
        for owner, places in constructors.items():
            for entity in self.entities.values():
                if entity.definition.name == owner and entity.definition.kind == "class":
                    entity.sites.update(places)
        return out

    def inactive_lines(self, uri: str) -> list[int]:
        """The 1-based lines of the file's inactive preprocessor branches (`#if 0`, the `#else` not
        taken): clangd parses none of their code, so a use refs returns there is not judged.
        clangd 14 sends them as semantic tokens of the type `comment` (it sends no token for a
        real comment)."""
        answer = self.client.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})
        data = (answer or {}).get("data", [])
        lines, line = [], 0
        for index in range(0, len(data), 5):
            line += int(data[index])
            if int(data[index + 3]) == self.inactive_type:
                lines.append(line + 1)
        return sorted(set(lines))

    def macros(self) -> list[Definition]:
        """Every `#define`d name, as a constant: clangd 14 lists no macro among document symbols,
        and a name that is also a macro is never asked (a use of the macro is not a use of the
        function or type of the same name, and refs cannot tell them apart)."""
        out = []
        for path in self.paths:
            rel = path.relative_to(self.corpus.root).as_posix()
            text = path.read_text(encoding="utf-8", errors="replace")
            for match in MACRO.finditer(text):
                line = text.count("\n", 0, match.start(1)) + 1
                col = match.start(1) - (text.rfind("\n", 0, match.start(1)) + 1) + 1
                out.append(
                    Definition(match.group(1), "constant", None, rel, line, col, f"macro:{rel}:{line}")
                )
        return out

    def definition_of(self, where: Location) -> Location | None:
        """Where clangd's go-to-definition leads from a declaration (clangd 14's symbolInfo gives
        no definition range)."""
        uri = self.open(where.file)
        answer = self.client.request(
            "textDocument/definition", {"textDocument": {"uri": uri}, "position": self.position(where)}
        )
        for target in answer or []:
            rel = self.rel(str(target.get("uri") or target.get("targetUri") or ""))
            span = target.get("range") or target.get("targetSelectionRange")
            if rel is not None and span:
                return self.location(rel, span["start"])
        return None

    def written(self, where: Location) -> str:
        token = self.corpus.token.match(self.corpus.line(where.file, where.line)[where.col - 1 :])
        return token.group() if token else ""

    def position(self, where: Location) -> dict[str, int]:
        """A location as an LSP position (0-based line, 0-based UTF-16 column)."""
        line = self.corpus.line(where.file, where.line)
        return {"line": where.line - 1, "character": len(line[: where.col - 1].encode("utf-16-le")) // 2}

    def references(self, definitions: list[Definition]) -> list[Found]:
        """clangd's references, less the declarations. For a method, clangd answers for the whole
        hierarchy (the base's declaration and the calls through the base's type come with an
        override); each use is then kept only where clangd's `symbolInfo` names the method asked,
        so a use is the one member it statically binds to, as javac, go/types and jedi see it."""
        raw: list[list[tuple[str, dict[str, Any]]]] = []
        for definition in definitions:
            uri = self.open(definition.file)
            position = self.position(definition.location())
            places = self.client.request(
                "textDocument/references",
                {
                    "textDocument": {"uri": uri},
                    "position": position,
                    "context": {"includeDeclaration": False},
                },
            )
            raw.append(
                [
                    (rel, place["range"]["start"])
                    for place in places or []
                    if (rel := self.rel(place["uri"])) is not None
                ]
            )
        bound = self.bound_to(
            [
                (rel, at)
                for d, places in zip(definitions, raw, strict=True)
                if d.kind == "method"
                for rel, at in places
            ]
        )
        found = []
        for definition, places in zip(definitions, raw, strict=True):
            entity = self.entities[definition.oracle_id]
            uses = set()
            for rel, at in places:
                if definition.kind == "method" and definition.oracle_id not in bound.get(
                    (rel, at["line"], at["character"]), ()
                ):
                    continue
                where = self.location(rel, at)
                if where is not None and self.written(where) == definition.name:
                    # (Not written there: a use in a macro's body, which clangd places where the
                    # macro is expanded.)
                    uses.add(where)
            sites = entity.sites | {definition.location()}
            found.append(Found(sorted(uses - sites), sorted(entity.sites)))
        return found

    def bound_to(self, places: list[tuple[str, dict[str, Any]]]) -> dict[tuple[str, int, int], set[str]]:
        """The USRs clangd's symbolInfo names at each place, each file opened once."""
        by_file: dict[str, set[tuple[int, int]]] = defaultdict(set)
        for rel, at in places:
            by_file[rel].add((int(at["line"]), int(at["character"])))
        out: dict[tuple[str, int, int], set[str]] = {}
        for rel, positions in sorted(by_file.items()):
            uri = self.open(rel)
            for line, character in sorted(positions):
                info = self.client.request(
                    "textDocument/symbolInfo",
                    {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
                )
                out[(rel, line, character)] = {str(i["usr"]) for i in info or [] if i.get("usr")}
        return out

    def close(self) -> None:
        self.client.close()


def macro_bodies(lines: list[str]) -> list[int]:
    """The 1-based lines of every `#define` with its continuation lines: a name in a macro's body
    is resolved only where the macro is expanded, so a use refs returns there is not judged."""
    out, open_ = [], False
    for number, text in enumerate(lines, 1):
        if open_ or MACRO.match(text):
            out.append(number)
            open_ = text.rstrip().endswith("\\")
    return out


def walk(items: list[dict[str, Any]], parent: str | None) -> Any:
    """Every document symbol with the kind of the symbol it is nested in."""
    for item in items:
        yield item, parent
        kind = KINDS.get(int(item["kind"]))
        inner = kind if kind in ("class", "enum", "interface") else parent if int(item["kind"]) == 3 else kind
        yield from walk(item.get("children", []) or [], inner)


def kind_of(item: dict[str, Any]) -> str | None:
    kind = KINDS.get(int(item["kind"]))
    if kind == "class" and item.get("detail") == "type alias":
        return "type"
    return kind


def entity_named(infos: list[dict[str, Any]], name: str, detail: str) -> dict[str, Any] | None:
    """The entity a document symbol declares among what symbolInfo names at its position: at
    `typedef struct S T;` it names both `S` and `T`, and at `typedef enum {…} E` both the enum
    and the typedef, the typedef last."""
    named = [i for i in infos if i.get("usr") and i.get("name") == name]
    if not named:
        return None
    return named[-1] if detail == "type alias" else named[0]
