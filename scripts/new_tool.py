"""Scaffold a new tool: its module, its registry record, its test file and its docs page.

    python scripts/new_tool.py todos --description "Open TODO comments of the workspace, ..."
    python scripts/new_tool.py stats --group cc --description "..."

Writes `sofia/providers/<name>/__init__.py` (or `sofia/providers/<group>/<name>.py`), inserts one
record into `sofia/providers/registry.py`, writes `tests/<name>/test_<name>.py` and
`docs/<name>.md`. Nothing in `sofia/server`, `sofia/workers` or `sofia/cli` changes: they know
tools only through the registry. docs/adding-a-tool.md walks through what to do next.
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from pathlib import Path

MARKER = "    # New records go above this line; scripts/new_tool.py inserts them here.\n"

MODULE = '''"""`{tool}`: {description}"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from sofia.errors import quote
from sofia.providers.contract import Cli, Context, Implementation, ProviderError
from sofia.providers.params import Input, PathParam


class Params(Input):
    """Input of `{tool}`."""

    {path_param}: Annotated[
        str,
        Field(description="Directory to look at, relative to the workspace."),
        Cli(flag="--{path_flag}", metavar="DIR"),
        PathParam(),
    ] = "."
    limit: Annotated[int, Field(ge=0, description="Rows shown; 0 = all the budget allows.")] = 30


def run(params: Params, ctx: Context) -> dict[str, Any]:
    """Read-only: return data, never print; a problem the caller can fix is a ProviderError."""
    base = (ctx.root / params.{path_param}).resolve()
    if not base.is_dir():
        raise ProviderError(f"not a directory: {{quote(params.{path_param})}}", f"paths are relative to {{ctx.root}}")
    rows: list[dict[str, Any]] = [{{"path": _shown(base, ctx.root)}}]
    return {{"rows": rows, "notes": []}}


def _shown(path: Path, root: Path) -> str:
    """Every path a tool prints is relative to the workspace root."""
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()


IMPLEMENTATION = Implementation(params=Params, run=run)
'''

RECORD = """    Provider(
        name="{tool}",
        cli={cli},
        module="{module}",
        description=(
            "{description}"
        ),
        guide="`{tool}`: {guide}",
        examples=("sf {words}",),
    ),
"""

TEST = '''"""`{tool}`: in process, from the CLI and through the registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sofia.errors import ProviderError
from sofia.providers.contract import Context
from {package} import Params, run
from tests.helpers import run_sf


def test_it_answers_in_process(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    result = run(Params({path_param}="src"), Context(root=tmp_path))
    assert result["rows"] == [{{"path": "src"}}]


def test_a_missing_directory_is_a_provider_error(tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match="not a directory"):
        run(Params({path_param}="nowhere"), Context(root=tmp_path))


def test_the_cli_reaches_it(tmp_path: Path) -> None:
    done = run_sf({cli_words}, "--{path_flag}", ".", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rows"] == [{{"path": "."}}]
'''

DOC = """# `{tool}`

{description}

What it answers, when an agent should use it, what it leaves out and why. The parameters and
examples are in [the reference](reference/{page}.md), generated from the registry.
"""


def identifier(text: str, what: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", text) or keyword.iskeyword(text):
        raise SystemExit(f"new_tool: {what} must be a lower-case Python name, not {text!r}")
    return text


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/new_tool.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="the command (a lower-case name): sf NAME, or sf GROUP NAME")
    parser.add_argument("--group", default="", help="an existing CLI group to put it in (cc, composer, ...)")
    parser.add_argument("--description", required=True, help="one or two sentences for the agent")
    parser.add_argument("--path-param", default="root", help="name of the tool's path parameter")
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]), help="the checkout")
    args = parser.parse_args(argv)
    name = identifier(args.name, "the name")
    path_param = identifier(args.path_param, "--path-param")
    root = Path(args.root)
    group = identifier(args.group, "--group") if args.group else ""
    tool = f"{group}_{name}" if group else name
    words = f"{group} {name}" if group else name
    if group:
        module_file = root / "sofia" / "providers" / group / f"{name}.py"
        package = f"sofia.providers.{group}.{name}"
    else:
        module_file = root / "sofia" / "providers" / name / "__init__.py"
        package = f"sofia.providers.{name}"
    registry = root / "sofia" / "providers" / "registry.py"
    text = registry.read_text()
    if f'name="{tool}"' in text:
        raise SystemExit(f"new_tool: a tool named {tool} is already registered")
    if MARKER not in text:
        raise SystemExit("new_tool: the insertion marker is missing from sofia/providers/registry.py")
    if module_file.exists():
        raise SystemExit(f"new_tool: {module_file} already exists")
    description = args.description.strip().replace('"', "'")
    values = {
        "tool": tool,
        "description": description,
        "path_param": path_param,
        "path_flag": path_param.replace("_", "-"),
        "package": package,
        "page": group or name,
        "cli_words": ", ".join(f'"{word}"' for word in words.split()),
    }
    module_file.parent.mkdir(parents=True, exist_ok=True)
    module_file.write_text(MODULE.format(**values))
    record = RECORD.format(
        tool=tool,
        cli=repr(tuple(words.split())),
        module=package,
        description=description,
        guide=description.split(". ")[0].rstrip(".").lower(),
        words=words,
    )
    registry.write_text(text.replace(MARKER, record + MARKER))
    test_file = root / "tests" / tool / f"test_{tool}.py"
    test_file.parent.mkdir(parents=True, exist_ok=True)
    (test_file.parent / "__init__.py").touch()
    test_file.write_text(TEST.format(**values))
    doc = root / "docs" / f"{group or name}.md"
    if not doc.exists():
        doc.write_text(DOC.format(**values))
    for path in (module_file, registry, test_file, doc):
        print(path.relative_to(root))
    print("next: python scripts/docs.py && python -m tests.server.snapshot && pytest tests/" + tool)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
