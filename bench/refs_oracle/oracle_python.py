"""Python side of the oracle, run as its own process with jedi on its path: reads one JSON request
per line on stdin (`{"op": "defs"}` or `{"op": "refs", "at": [[file, line, col], ...]}`) and writes
one JSON answer per line. Definitions come from the standard `ast` (names at module and class
level, methods, `self.x` attributes); references from jedi's `Script.get_references` over the
whole project. Positions are 1-based lines and 1-based code-point columns."""

from __future__ import annotations

import ast
import json
import re
import sys
import sysconfig
from pathlib import Path
from typing import Any

import jedi
import jedi.inference.references as jedi_references

# jedi stops a project-wide search after 30 parsed files (an editor's latency trade-off); the
# oracle must see every file.
jedi_references._PARSED_FILE_LIMIT = 1_000_000
jedi_references._OPENED_FILE_LIMIT = 1_000_000

ROOT = Path(sys.argv[1]).resolve()
# The corpus and the standard library only: a copy of the corpus installed in site-packages must
# not take its imports away from the corpus.
STDLIB = [sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib")] + [
    p for p in sys.path if p.endswith("lib-dynload")
]
PROJECT = jedi.Project(
    path=ROOT, sys_path=[str(ROOT), *STDLIB], load_unsafe_extensions=False, smart_sys_path=False
)
HEADER = re.compile(r"(?:async\s+)?(?:def|class)\s+(\w+)")


def files() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if p.is_file())


def name_col(lines: list[str], lineno: int, name: str) -> int:
    """The 1-based code-point column of `name` after `def`/`class` on a header line."""
    for offset in range(0, 20):
        text = lines[lineno - 1 + offset] if lineno - 1 + offset < len(lines) else ""
        match = HEADER.search(text)
        if match and match.group(1) == name:
            return match.start(1) + 1
    raise ValueError(f"no header for {name} at line {lineno}")


def target_names(node: ast.AST) -> list[ast.Name]:
    if isinstance(node, ast.Name):
        return [node]
    if isinstance(node, ast.Tuple | ast.List):
        return [n for elt in node.elts for n in target_names(elt)]
    return []


def byte_to_col(lines: list[str], lineno: int, byte_col: int) -> int:
    return len(lines[lineno - 1].encode()[:byte_col].decode(errors="replace")) + 1


def definitions_in(path: Path) -> list[dict[str, Any]]:
    rel = path.relative_to(ROOT).as_posix()
    source = path.read_text(encoding="utf-8", errors="replace")
    lines = source.splitlines()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found: list[dict[str, Any]] = []

    def add(name: str, kind: str, container: str | None, line: int, col: int) -> None:
        found.append(
            {"name": name, "kind": kind, "container": container, "file": rel, "line": line, "col": col}
        )

    def assigned(stmt: ast.stmt, kind: str, container: str | None) -> None:
        targets: list[ast.AST] = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, ast.AnnAssign):
            targets = [stmt.target]
        for target in targets:
            for name in target_names(target):
                add(name.id, kind, container, name.lineno, byte_to_col(lines, name.lineno, name.col_offset))

    def self_attributes(func: ast.AST, container: str) -> None:
        for node in ast.walk(func):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == "self"
                    ):
                        end = target.end_col_offset or 0
                        start = end - len(target.attr.encode())
                        add(
                            target.attr,
                            "field",
                            container,
                            target.end_lineno or target.lineno,
                            byte_to_col(lines, target.end_lineno or target.lineno, start),
                        )

    def body(stmts: list[ast.stmt], container: str | None) -> None:
        for stmt in stmts:
            if isinstance(stmt, ast.ClassDef):
                add(stmt.name, "class", container, stmt.lineno, name_col(lines, stmt.lineno, stmt.name))
                body(stmt.body, stmt.name)
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "method" if container else "function"
                add(stmt.name, kind, container, stmt.lineno, name_col(lines, stmt.lineno, stmt.name))
                if container:
                    self_attributes(stmt, container)
            elif isinstance(stmt, ast.Assign | ast.AnnAssign):
                assigned(stmt, "field" if container else "variable", container)
            elif isinstance(stmt, ast.If | ast.Try | ast.With):
                for block in ("body", "orelse", "finalbody"):
                    body(getattr(stmt, block, []), container)
                for handler in getattr(stmt, "handlers", []):
                    body(handler.body, container)

    body(tree.body, None)
    return found


def references(file: str, line: int, col: int) -> list[list[Any]]:
    path = ROOT / file
    script = jedi.Script(path.read_text(encoding="utf-8", errors="replace"), path=path, project=PROJECT)
    out = []
    for name in script.get_references(line, col - 1, include_builtins=False, scope="project"):
        if name.module_path is None or name.line is None or name.column is None:
            continue
        module = Path(name.module_path).resolve()
        if ROOT not in module.parents:
            continue
        out.append([module.relative_to(ROOT).as_posix(), name.line, name.column + 1])
    return out


def main() -> None:
    for request_line in sys.stdin:
        request = json.loads(request_line)
        if request["op"] == "defs":
            every = [d for p in files() for d in definitions_in(p)]
            answer: Any = {"definitions": every, "files": len(files()), "oracle": f"jedi {jedi.__version__}"}
        else:
            answer = {"uses": [references(*at) for at in request["at"]]}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
