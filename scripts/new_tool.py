"""Scaffold a new tool: its module, its registry record, its tests and its docs page.

    python scripts/new_tool.py todos --description "Open TODO comments of the workspace, ..."
    python scripts/new_tool.py stats --group cc --description "..."

Writes `sofia/providers/<name>/__init__.py` (or `sofia/providers/<group>/<name>.py`) and the JSON
shape of its answer in `sofia/providers/shapes/<tool>.py`, inserts one
record into `sofia/providers/registry.py` (beside its group's records, or above the marker at the
end), writes `tests/<folder>/test_<name>.py` and the tool's entries in `tests/<folder>/served.py`
(the folder is the group's, or the tool's own), and for a tool of its own `docs/<name>.md` and its
line in `docs/README.md`. Nothing in `sofia/server`, `sofia/workers` or `sofia/cli` changes: they
know tools only through the registry. docs/adding-a-tool.md walks through what to do next.
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
import textwrap
from pathlib import Path

MARKER = "    # New records go above this line; scripts/new_tool.py inserts them here.\n"
LINE = 110
"""ruff's line length (pyproject.toml): what the scaffold writes is already formatted."""

MODULE = '''"""`{tool}`: {description}"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from sofia.errors import param, quote
from sofia.output.budget import Shrink, fit, note, with_omitted
from sofia.providers.contract import Cli, Context, Implementation, ProviderError
from sofia.providers.params import Input, PathParam
from sofia.runtime import paths


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
    """One row per entry of the directory, by name. Read-only: it returns data and never prints; a
    problem the caller can fix is a ProviderError whose hint names the parameter with `param()`."""
    base = ctx.root / params.{path_param}
    if not base.is_dir():
        raise ProviderError(
            f"not a directory: {{quote(params.{path_param})}}",
            f"pass a directory of the workspace as {{param('{path_param}')}}",
        )
    where = paths.shown(base, ctx.root)
    names = sorted(entry.name for entry in base.iterdir())
    wanted = min(params.limit, len(names)) if params.limit else len(names)

    def build(knobs: dict[str, int]) -> dict[str, Any]:
        kept = knobs["rows"]
        notes = []
        if kept < len(names):
            budget = ctx.budget if kept < wanted else None
            limit = param("limit", params.limit) if wanted < len(names) else ""
            hint = f"pass {{param('limit', 0)}} for all"
            notes.append(note("rows", kept, len(names), "entries", budget, hint, limit=limit))
        rows = [{{"path": paths.under(where, name)}} for name in names[:kept]]
        return with_omitted({{"rows": rows, "total": len(names), "notes": notes}}, {{"rows": len(names) - kept}})

    return fit(build, {{"rows": wanted}}, [Shrink("rows")], ctx.budget)


IMPLEMENTATION = Implementation(params=Params, run=run)
'''

TEST = '''"""`{tool}`: in process, through its limit, from the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

{imports}


def test_it_lists_a_directory_relative_to_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "b.txt").write_text("b\\n")
    (tmp_path / "src" / "a.txt").write_text("a\\n")
    result = run(Params({path_param}="src"), Context(root=tmp_path))
    assert result == {{"rows": [{{"path": "src/a.txt"}}, {{"path": "src/b.txt"}}], "total": 2, "notes": []}}


def test_the_limit_shortens_the_rows_and_says_how_to_see_all(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / name).write_text(name)
    result = render_all(run(Params(limit=1), Context(root=tmp_path)))
    assert result["rows"] == [{{"path": "a"}}]
    assert result["omitted"] == {{"rows": 2}}
    assert result["notes"] == ["rows: showing 1 of 3 entries (limit=1); pass limit=0 for all"]


def test_a_missing_directory_is_a_provider_error_naming_the_parameter(tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match="not a directory") as raised:
        run(Params({path_param}="nowhere"), Context(root=tmp_path))
    assert render(raised.value.hint) == "pass a directory of the workspace as {path_param}"


def test_the_cli_reaches_it(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\\n")
    done = run_sf({cli_words}, "--{path_flag}", ".", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rows"] == [{{"path": "a.txt"}}]
'''

SERVED = '''"""What the tests over every served tool call and check for {title} (see tests/served.py)."""

from __future__ import annotations

from tests.served import Case, Row

ROWS: dict[str, Row] = {{}}
CASES: list[Case] = []
'''

SHAPE = '''"""The JSON shape of `{tool}`'s answer (sofia/output/shape.py says how a shape is written)."""

from __future__ import annotations

from sofia.providers.shapes.common import NOTES, OMITTED

SHAPES = {{
    "{tool}": {{"rows": [{{"path": "str"}}], "total": "int", "notes": NOTES, "omitted?": OMITTED}},
}}
'''

ENTRIES = """
ROWS["{tool}"] = Row({{"{path_param}": "."}}, ("rows", "total"), lambda p: '"rows":[' in p)
CASES.append(
    Case(
        "{tool}",
        {{"{path_param}": "nowhere"}},
        [{cli_words}, "--{path_flag}", "nowhere"],
        "pass a directory of the workspace as {path_param})",
        "pass a directory of the workspace as --{path_flag})",
        error=True,
    )
)
"""

DOC = """# `{tool}`

{description}

What it answers, when an agent should use it, what it leaves out and why. The parameters and
examples are in [the reference](reference/{page}.md), generated from the registry.
"""


def identifier(text: str, what: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", text) or keyword.iskeyword(text):
        raise SystemExit(f"new_tool: {what} must be a lower-case Python name, not {text!r}")
    return text


def string_field(name: str, value: str, indent: int) -> str:
    """`name="value",` on one line when it fits, else the value split into implicitly joined
    strings inside parentheses, as ruff formats a long one."""
    pad = " " * indent
    line = f'{pad}{name}="{value}",\n'
    if len(line) - 1 <= LINE:
        return line
    width = LINE - indent - 6
    parts = textwrap.wrap(value, width, drop_whitespace=False, break_long_words=False)
    body = "".join(f'{pad}    "{part}"\n' for part in parts)
    return f"{pad}{name}=(\n{body}{pad}),\n"


def cli_tuple(words: list[str]) -> str:
    inner = ", ".join(f'"{word}"' for word in words)
    return f"({inner},)" if len(words) == 1 else f"({inner})"


def record(tool: str, words: list[str], module: str, description: str, guide: str) -> str:
    lines = [
        "    Provider(\n",
        f'        name="{tool}",\n',
        f"        cli={cli_tuple(words)},\n",
        f'        module="{module}",\n',
        string_field("description", description, 8),
    ]
    if guide:
        lines.append(string_field("guide", guide, 8))
    lines.append(f'        examples=("sf {" ".join(words)}",),\n')
    lines.append("    ),\n")
    return "".join(lines)


def insert_record(text: str, entry: str, group: str) -> str:
    """Beside the group's records (after its last), or above the marker for a tool of its own."""
    if group:
        starts = [found.start() for found in re.finditer(rf'\n        cli=\("{group}", ', text)]
        if starts:
            end = text.index("\n    ),\n", starts[-1]) + len("\n    ),\n")
            return text[:end] + entry + text[end:]
    return text.replace(MARKER, entry + MARKER)


def test_imports(package: str) -> str:
    lines = [
        "from sofia.errors import ProviderError, render, render_all",
        "from sofia.providers.contract import Context",
        f"from {package} import Params, run",
        "from tests.helpers import run_sf",
    ]
    return "\n".join(sorted(lines, key=lambda line: line.split()[1]))


def readme_row(readme: str, name: str, description: str) -> str:
    """docs/README.md with a row for the new page, above the reference row."""
    about = description.split(". ")[0].rstrip(".")
    row = f"| [{name}.md]({name}.md) | `{name}`: {about[0].lower() + about[1:]} |\n"
    anchor = "| [reference/](reference/)"
    return readme.replace(anchor, row + anchor, 1) if anchor in readme else readme + row


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
    words = [group, name] if group else [name]
    folder = group or name
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
    sys.path.insert(0, str(root))
    from sofia.providers.registry import group_named

    found = group_named(group) if group else None
    if group and found is None:
        raise SystemExit(f"new_tool: there is no group {group} in sofia/providers/registry.py's GROUPS")
    if module_file.exists():
        raise SystemExit(f"new_tool: {module_file} already exists")
    shape_file = root / "sofia" / "providers" / "shapes" / f"{tool}.py"
    if shape_file.exists():
        raise SystemExit(f"new_tool: {shape_file} already exists")
    description = " ".join(args.description.split()).replace('"', "'").replace("\\", "/")
    cli_words = ", ".join(f'"{word}"' for word in words)
    values = {
        "tool": tool,
        "description": description,
        "path_param": path_param,
        "path_flag": path_param.replace("_", "-"),
        "cli_words": cli_words,
        "imports": test_imports(package),
        "title": f"`{tool}`",
        "page": folder,
    }
    guide = (
        "" if found is not None and found.guide else f"`{tool}`: " + description.split(". ")[0].rstrip(".")
    )
    module_file.parent.mkdir(parents=True, exist_ok=True)
    module_file.write_text(MODULE.format(**values))
    shape_file.write_text(SHAPE.format(**values))
    registry.write_text(insert_record(text, record(tool, words, package, description, guide), group))
    tests = root / "tests" / folder
    tests.mkdir(parents=True, exist_ok=True)
    (tests / "__init__.py").touch()
    test_file = tests / f"test_{name}.py"
    test_file.write_text(TEST.format(**values))
    served = tests / "served.py"
    if not served.exists():
        served.write_text(SERVED.format(**values))
    with served.open("a") as out:
        out.write(ENTRIES.format(**values))
    written = [module_file, shape_file, registry, test_file, served]
    doc = root / "docs" / f"{folder}.md"
    if not doc.exists():
        doc.write_text(DOC.format(**values))
        index = root / "docs" / "README.md"
        index.write_text(readme_row(index.read_text(), folder, description))
        written += [doc, index]
    for path in written:
        print(path.relative_to(root))
    print(
        "next: python scripts/docs.py && python -m tests.server.snapshot && "
        f"pytest tests/{folder} tests/house tests/server/test_tools_list.py tests/server/test_calls.py "
        "tests/hints tests/cli"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
