"""Scaffold a query-driven language (docs/adding-a-language.md).

    python scripts/new_language.py NAME --title TITLE --ext .x [--ext .y] --grammar GRAMMAR
        [--distribution PKG --module MOD [--function FN]] [--separator SEP] [--query FILE]
        [--comments TYPE ...] [--strings TYPE ...]

Writes `sofia/syntax/languages/NAME.py` (its Spec), `NAME.scm` (its query: `--query` copies a file
of yours, else a commented skeleton), the grammar's record when the grammar is new, the language's
record at the end of `LANGUAGES` in `sofia/syntax/registry.py`, a test of its symbols with a fixture
to fill in (`tests/fixtures/code/NAME/`, where every language keeps its fixtures), and regenerates
the docs. Refuses a name or extension the registry already has.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = ROOT / "sofia" / "syntax" / "registry.py"
LANGUAGES = ROOT / "sofia" / "syntax" / "languages"
TESTS = ROOT / "tests" / "syntax"
FIXTURES = ROOT / "tests" / "fixtures" / "code"
"""Every language's fixtures live here, one directory per language (`tests.code.conftest`)."""

SKELETON_QUERY = """\
; {title} declarations for sofia (docs/adding-a-language.md): @definition.<kind> on a declaration,
; @name on its name; @scope.<kind> for a container that qualifies members without being a symbol;
; @package (with @name) and @import for the summary header; @binding with @binding.name,
; @binding.type and @binding.value for refs' typed receivers.
"""

MODULE = '''"""{title}: what its query captures and how its declarations attach docs (docs/adding-a-language.md)."""

from __future__ import annotations

from sofia.syntax.queried import Spec

SPEC = Spec(
    query="{name}.scm",
    comments=frozenset({{{comments}}}),
    strings=frozenset({{{strings}}}),
)
'''

TEST = '''"""{title}: the symbols its query gives (docs/adding-a-language.md)."""

from __future__ import annotations

from sofia.syntax import parse
from tests.code.conftest import FIXTURES

FIXTURE = FIXTURES / "{name}" / "example{ext}"


def test_the_fixture_parses_into_symbols() -> None:
    tree = parse(FIXTURE.read_bytes(), "{name}", FIXTURE.name)
    assert tree.symbols, "write declarations into the fixture and the query that captures them"
'''


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="the lang every tool prints (lower case)")
    parser.add_argument("--title", required=True)
    parser.add_argument("--ext", action="append", required=True, dest="extensions")
    parser.add_argument("--grammar", required=True, help="a grammar name (new or in GRAMMARS)")
    parser.add_argument("--distribution", default="")
    parser.add_argument("--module", default="")
    parser.add_argument("--function", default="language")
    parser.add_argument("--separator", default=".")
    parser.add_argument("--query", type=Path)
    parser.add_argument("--comments", nargs="+", default=["comment"])
    parser.add_argument("--strings", nargs="+", default=["string"])
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from sofia.syntax import registry

    name: str = args.name
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        parser.error(f"{name!r}: a language name is lower case letters, digits and _")
    if registry.language(name) is not None:
        parser.error(f"{name} is already a language in sofia/syntax/registry.py")
    extensions = [e.lower() if e.startswith(".") else f".{e.lower()}" for e in args.extensions]
    taken = [e for e in extensions if e in registry.EXTENSIONS]
    if taken:
        parser.error(f"{', '.join(taken)} already read as {registry.EXTENSIONS[taken[0]]}")
    text = REGISTRY.read_text()
    if registry.grammar(args.grammar) is None:
        if not (args.distribution and args.module):
            parser.error(f"{args.grammar} is a new grammar: give --distribution and --module")
        function = f', "{args.function}"' if args.function != "language" else ""
        record = f'    Grammar("{args.grammar}", "{args.distribution}", "{args.module}"{function}),\n'
        text = _insert_before_close(text, "GRAMMARS: tuple[Grammar, ...] = (", record)
    written = ", ".join(f'"{e}"' for e in extensions) + ("," if len(extensions) == 1 else "")
    separator = f'        separator="{args.separator}",\n' if args.separator != "." else ""
    language = (
        f'    Language(\n        "{name}",\n        "{args.title}",\n        ({written}),\n'
        f'        "{args.grammar}",\n        spec="sofia.syntax.languages.{name}",\n{separator}    ),\n'
    )
    text = _insert_before_close(text, "LANGUAGES: tuple[Language, ...] = (", language)
    REGISTRY.write_text(text)

    query = args.query.read_text() if args.query else SKELETON_QUERY.format(title=args.title)
    (LANGUAGES / f"{name}.scm").write_text(query)
    (LANGUAGES / f"{name}.py").write_text(
        MODULE.format(
            title=args.title,
            name=name,
            comments=", ".join(f'"{c}"' for c in args.comments),
            strings=", ".join(f'"{s}"' for s in args.strings),
        )
    )
    fixtures = FIXTURES / name
    fixtures.mkdir(parents=True, exist_ok=True)
    fixture = fixtures / f"example{extensions[0]}"
    if not fixture.exists():
        fixture.write_text("")
    (TESTS / f"test_{name}.py").write_text(TEST.format(title=args.title, name=name, ext=extensions[0]))
    subprocess.run([sys.executable, str(ROOT / "scripts" / "docs.py")], check=True)
    print(
        f"wrote sofia/syntax/languages/{name}.py, {name}.scm, tests/syntax/test_{name}.py; fill in the fixture"
    )
    return 0


def _insert_before_close(text: str, opening: str, record: str) -> str:
    """`record` added as the last item of the tuple that `opening` starts."""
    start = text.index(opening)
    close = text.index("\n)\n", start)
    return text[: close + 1] + record + text[close + 1 :]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
