"""The four reference finders behind one interface: every definition of the corpus, then the uses
of the definitions asked for, as locations in the one convention of `locations`."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from . import corpora
from .locations import Corpus
from .lsp import Client
from .model import Definition, Location

HERE = Path(__file__).resolve().parent


@dataclass
class Found:
    """What an oracle says about one definition: its uses, and declarations it also returned
    (definitions of related members, never uses)."""

    uses: list[Location] = field(default_factory=list)
    declarations: list[Location] = field(default_factory=list)


class Oracle(Protocol):
    name: str
    files: int
    unresolved: list[str]

    def definitions(self) -> list[Definition]: ...

    def references(self, definitions: list[Definition]) -> list[Found]: ...

    def close(self) -> None: ...


def snapped(corpus: Corpus, places: list[list[Any]]) -> list[Location]:
    out = []
    for file, line, col in places:
        location = corpus.snap(file, int(line), int(col))
        if location is not None:
            out.append(location)
    return out


def as_definition(raw: dict[str, Any]) -> Definition:
    return Definition(
        name=raw["name"],
        kind=raw["kind"],
        container=raw.get("container"),
        file=raw["file"],
        line=int(raw["line"]),
        col=int(raw["col"]),
        oracle_id=str(raw.get("oracle_id", "")),
    )


class LinesProcess:
    """An oracle process that answers one JSON request per line."""

    def __init__(self, command: list[str], env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1
        )

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"oracle process {self.process.args[0]} ended (exit {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class LinesOracle:
    """jedi and the TypeScript language service: a long-lived process per corpus."""

    def __init__(self, corpus: Corpus, command: list[str], env: dict[str, str] | None = None) -> None:
        self.corpus = corpus
        self.process = LinesProcess(command, env)
        self.name = ""
        self.files = 0
        self.unresolved: list[str] = []

    def definitions(self) -> list[Definition]:
        answer = self.process.ask({"op": "defs"})
        self.name, self.files = answer["oracle"], int(answer["files"])
        return [as_definition(d) for d in answer["definitions"]]

    def position(self, definition: Definition) -> list[Any]:
        return [definition.file, definition.line, definition.col]

    def references(self, definitions: list[Definition]) -> list[Found]:
        answer = self.process.ask({"op": "refs", "at": [self.position(d) for d in definitions]})
        declarations = answer.get("declarations") or [[] for _ in definitions]
        return [
            Found(snapped(self.corpus, uses), snapped(self.corpus, decls))
            for uses, decls in zip(answer["uses"], declarations, strict=True)
        ]

    def close(self) -> None:
        self.process.close()


class PythonOracle(LinesOracle):
    def __init__(self, corpus: Corpus) -> None:
        import os
        import sys

        env = {**os.environ, "PYTHONPATH": str(corpora.jedi_path())}
        super().__init__(corpus, [sys.executable, str(HERE / "oracle_python.py"), str(corpus.root)], env)


class TsOracle(LinesOracle):
    def __init__(self, corpus: Corpus) -> None:
        import os

        env = {**os.environ, "ORACLE_TYPESCRIPT": str(corpora.node_modules() / "typescript")}
        super().__init__(corpus, ["node", str(HERE / "oracle_ts.js"), str(corpus.root)], env)

    def position(self, definition: Definition) -> list[Any]:
        file, _, offset = definition.oracle_id.rpartition(":")
        return [file, int(offset)]


class GoOracle:
    """go/types: one run indexes every use of every object; `references` looks them up."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        corpora.say("type-checking the Go corpus with go/types")
        done = subprocess.run(
            ["go", "run", str(HERE / "oracle_go" / "main.go"), str(corpus.root)],
            env=corpora.go_env(),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"the go/types oracle failed: {done.stderr[-1000:]}")
        self.answer: dict[str, Any] = json.loads(done.stdout)
        self.name = self.answer["oracle"]
        self.files = int(self.answer["files"])
        self.unresolved = list(self.answer["unresolved"])

    def definitions(self) -> list[Definition]:
        return [as_definition(d) for d in self.answer["definitions"]]

    def references(self, definitions: list[Definition]) -> list[Found]:
        return [Found(snapped(self.corpus, self.answer["uses"].get(d.oracle_id, []))) for d in definitions]

    def close(self) -> None:
        pass


LSP_KINDS = {
    5: "class",
    11: "interface",
    10: "enum",
    6: "method",
    9: "method",
    12: "function",
    7: "property",
    8: "property",
    14: "constant",
    22: "constant",
    13: "variable",
}
"""LSP SymbolKind numbers as definition kinds (a trait is reported as a class)."""


COMMENT_LINE = ("*", "/*", "//", "#")
"""intelephense also returns the types named in PHPDoc (`@throws X`, `@param X $x`) and callable
strings (`'twig_slice'`): a use on a line that opens or continues a comment, or a name that is a
whole quoted string, is left out, as refs counts comments and strings apart."""


class PhpOracle:
    """intelephense over LSP stdio: documentSymbol per file for the definitions,
    textDocument/references (declaration excluded) for the uses."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.unresolved: list[str] = []
        self.paths = sorted(p for p in corpus.root.rglob("*.php") if p.is_file())
        self.files = len(self.paths)
        package = corpora.node_modules() / "intelephense"
        version = json.loads((package / "package.json").read_text())["version"]
        self.name = f"intelephense {version} textDocument/references"
        storage = corpora.TOOLS / "intelephense-storage"
        self.settings = {
            "intelephense": {
                "telemetry": {"enabled": False},
                "files": {"maxSize": 10_000_000, "exclude": []},
                "diagnostics": {"enable": False},
            }
        }
        self.client = Client(
            ["node", str(package / "lib" / "intelephense.js"), "--stdio"], corpus.root, self.reply
        )
        uri = corpus.root.as_uri()
        corpora.say(f"indexing the PHP corpus with {self.name}")
        self.client.request(
            "initialize",
            {
                "processId": None,
                "rootUri": uri,
                "workspaceFolders": [{"uri": uri, "name": "corpus"}],
                "capabilities": {
                    "workspace": {"configuration": True},
                    "textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": True}},
                },
                "initializationOptions": {
                    "storagePath": str(storage / "local"),
                    "globalStoragePath": str(storage / "global"),
                    "clearCache": True,
                },
            },
        )
        self.client.notify("initialized", {})
        self.client.notify("workspace/didChangeConfiguration", {"settings": self.settings})
        self.client.wait_for("indexingEnded", timeout=600)

    def reply(self, method: str, params: Any) -> Any:
        if method == "workspace/configuration":
            return [self.settings.get(item.get("section", "")) or self.settings for item in params["items"]]
        return None

    def rel(self, uri: str) -> str | None:
        path = Path(uri.removeprefix("file://"))
        try:
            return path.relative_to(self.corpus.root).as_posix()
        except ValueError:
            return None

    def open(self, rel: str) -> str:
        """Open a file in the server (it answers documentSymbol and references on open files only)."""
        path = self.corpus.root / rel
        uri = path.as_uri()
        text = path.read_text(encoding="utf-8", errors="replace")
        self.client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "php", "version": 1, "text": text}},
        )
        return uri

    def definitions(self) -> list[Definition]:
        out: list[Definition] = []
        for path in self.paths:
            rel = path.relative_to(self.corpus.root).as_posix()
            uri = self.open(rel)
            symbols = self.client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) or []
            self.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

            def walk(items: list[dict[str, Any]], container: str | None, rel: str = rel) -> None:
                for item in items:
                    kind = LSP_KINDS.get(int(item["kind"]))
                    start = dict(item["selectionRange"]["start"])
                    if str(item["name"]).startswith("$"):
                        start["character"] = int(start["character"]) + 1  # the name after `$`
                    line = int(start["line"]) + 1
                    name = str(item["name"]).lstrip("$").rpartition("\\")[2]
                    if kind is not None:
                        col = self.corpus.from_utf16(rel, line, int(start["character"]))
                        where = self.corpus.snap(rel, line, col)
                        if where is not None:
                            if kind == "function" and container:
                                kind = "method"
                            out.append(
                                Definition(
                                    name,
                                    kind,
                                    container,
                                    rel,
                                    where.line,
                                    where.col,
                                    f"{rel}:{start['line']}:{start['character']}",
                                )
                            )
                    inner = name if kind in ("class", "interface", "enum") else container
                    walk(item.get("children", []), inner)

            walk(symbols, None)
        return out

    def references(self, definitions: list[Definition]) -> list[Found]:
        found = []
        for definition in definitions:
            file, line, character = definition.oracle_id.rsplit(":", 2)
            uri = self.open(file)
            position = {"line": int(line), "character": int(character)}
            result = self.client.request(
                "textDocument/references",
                {
                    "textDocument": {"uri": uri},
                    "position": position,
                    "context": {"includeDeclaration": False},
                },
            )
            self.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            uses = []
            for place in result or []:
                rel = self.rel(place["uri"])
                if rel is None:
                    continue
                start = place["range"]["start"]
                at = int(start["line"]) + 1
                where = self.corpus.snap(rel, at, self.corpus.from_utf16(rel, at, int(start["character"])))
                if where is not None and not self.in_comment_or_string(where):
                    uses.append(where)
            found.append(Found(uses))
        return found

    def in_comment_or_string(self, where: Location) -> bool:
        text = self.corpus.line(where.file, where.line)
        if text.lstrip().startswith(COMMENT_LINE):
            return True
        start = end = where.col - 1
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_\\"):
            start -= 1
        while end < len(text) and (text[end].isalnum() or text[end] in "_\\"):
            end += 1
        return start > 0 and text[start - 1] in "'\"" and text[end : end + 1] in ("'", '"')

    def close(self) -> None:
        self.client.close()


def start(corpus: Corpus) -> Oracle:
    kinds: dict[str, type[Any]] = {"python": PythonOracle, "ts": TsOracle, "go": GoOracle, "php": PhpOracle}
    if corpus.lang == "java":
        from .javac import JavaOracle

        kinds["java"] = JavaOracle
    if corpus.lang in ("c", "cpp"):
        from .clangd import ClangdOracle

        kinds[corpus.lang] = ClangdOracle
    oracle: Oracle = kinds[corpus.lang](corpus)
    return oracle
