"""The front-end's pure parts, in process: schema flattening, argument messages, confinement rules,
the repeat-call memory and option parsing."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from sofia.errors import UsageError
from sofia.providers.params import PathParam
from sofia.providers.registry import served
from sofia.server.confine import Confinement, _literal_prefix
from sofia.server.dedup import Dedup
from sofia.server.options import parse
from sofia.server.schema import input_schema
from sofia.server.tools import instructions
from sofia.server.validation import validate
from sofia.workers.pool import describe_exit


class Inner(BaseModel):
    depth: Annotated[int, Field(ge=0, description="how deep")] = 1


class Sample(BaseModel):
    """A docstring that must not reach the schema."""

    model_config = ConfigDict(extra="forbid")

    files: Annotated[list[str], Field(min_length=1, description="files to read"), PathParam(glob=True)]
    exts: Annotated[list[str], Field(default_factory=list, description="extensions")]
    mode: Annotated[Literal["fast", "full"], Field(description="how")] = "fast"
    projects_dir: Annotated[str | None, Field(description="a directory"), PathParam()] = None
    inner: Annotated[Inner, Field(default_factory=Inner, description="nested options")]


def test_schema_is_flat_without_titles_and_shows_every_default() -> None:
    schema = input_schema(Sample)
    assert schema == {
        "type": "object",
        "properties": {
            "files": {
                "type": "array",
                "description": "files to read",
                "items": {"type": "string"},
                "minItems": 1,
            },
            "exts": {
                "type": "array",
                "description": "extensions",
                "default": [],
                "items": {"type": "string"},
            },
            "mode": {"type": "string", "description": "how", "default": "fast", "enum": ["fast", "full"]},
            "projects_dir": {"type": "string", "description": "a directory"},
            "inner": {
                "type": "object",
                "description": "nested options",
                "default": {"depth": 1},
                "properties": {
                    "depth": {"default": 1, "description": "how deep", "minimum": 0, "type": "integer"}
                },
            },
        },
        "required": ["files"],
        "additionalProperties": False,
    }


def test_validation_names_each_parameter_once_without_urls() -> None:
    params, problems = validate(Sample, {"files": "a.php", "mode": "slow", "colour": 1})
    assert params is None
    assert problems == [
        'files: a list, e.g. ["a", "b"], not "a.php"',
        'mode: unknown "slow"; one of: fast, full',
        "colour: unknown parameter (known: files, exts, mode, projects_dir, inner)",
    ]
    _, missing = validate(Sample, {})
    assert missing == ["files: required"]
    _, nested = validate(Sample, {"files": ["a", 3]})
    assert nested == ['files[1]: text, e.g. "src", not 3']


def test_long_inputs_are_cut_in_messages() -> None:
    _, problems = validate(Sample, {"files": ["a"], "mode": "x" * 500})
    assert len(problems[0]) < 120 and problems[0].startswith('mode: unknown "xxx') and "…" in problems[0]


def test_a_json_encoded_list_is_decoded_only_for_list_parameters() -> None:
    params, _ = validate(Sample, {"files": '["a.php", "b.php"]'})
    assert isinstance(params, Sample) and params.files == ["a.php", "b.php"]
    params, problems = validate(Sample, {"files": ["x"], "mode": '["fast"]'})
    assert params is None and problems[0].startswith("mode: ")


@pytest.mark.parametrize(
    ("pattern", "prefix"),
    [
        ("src/**/*.php", "src"),
        ("*.php", "."),
        ("/etc/*", "/etc"),
        ("/*", "/"),
        ("a/b/c.php", "a/b/c.php"),
        ("app/{A,B}", "app"),
    ],
)
def test_glob_literal_prefix(pattern: str, prefix: str) -> None:
    assert _literal_prefix(pattern) == prefix


def test_confinement_resolves_symlinks_and_allows_a_tools_extra_roots(tmp_path: Path) -> None:
    workspace, outside, projects = tmp_path / "ws", tmp_path / "out", tmp_path / "projects"
    for directory in (workspace, outside, projects):
        directory.mkdir()
    (workspace / "link").symlink_to(outside)
    confinement = Confinement((workspace,), workspace)

    def refusal(extra: tuple[Path, ...] = (), **values: object) -> str | None:
        return confinement.refusal(Sample.model_validate({"files": ["a"], **values}), extra)

    assert refusal() is None
    assert refusal(files=["link/x"]) is not None
    assert refusal(files=[str(workspace / "a.php")]) is None
    assert refusal(projects_dir=str(projects)) is not None
    assert refusal((projects,), projects_dir=str(projects)) is None
    assert refusal((projects,), files=["../out/x"]) is not None
    assert Confinement((), workspace).refusal(Sample(files=["/etc/passwd"])) is None


def test_dedup_stubs_within_the_window_only_for_identical_payloads() -> None:
    now = [1000.0]
    dedup = Dedup(window=180, clock=lambda: now[0])

    def stub(key: str, payload: bytes, call: int, force: bool = False) -> str | None:
        return dedup.stub(key, payload, call, force=force, bypass="fresh")

    assert stub("k", b"payload", call=1) is None
    now[0] += 42
    assert stub("k", b"payload", call=2) == (
        "already returned in call #1 (42s ago) — unchanged; pass fresh=true to get it again"
    )
    assert stub("k", b"payload", call=3, force=True) is None
    assert stub("k", b"changed", call=4) is None
    assert stub("other", b"changed", call=5) is None
    now[0] += 181
    assert stub("k", b"changed", call=6) is None


def test_options_from_flags_environment_and_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOFIA_MAX_OUTPUT_TOKENS", "5000")
    monkeypatch.setenv("SOFIA_LOG_LEVEL", "INFO")
    monkeypatch.setenv("SOFIA_TOOLS", "code, grep")
    options = parse([])
    assert (options.budget, options.log_level, options.tools) == (5000, "info", ("code", "grep"))
    assert options.roots == (tmp_path.resolve(),) and options.timeout is None
    options = parse(
        ["--max-output-tokens", "0", "--tools", "cc", "--timeout", "30", "--root", "/", "--workers", "3"]
    )
    assert (options.budget, options.tools, options.timeout, options.roots, options.workers) == (
        None,
        ("cc",),
        30.0,
        (),
        3,
    )
    assert (options.max_calls, options.max_rss) == (500, 1 << 30)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "0"], "--workers must be from 1 to 64"),
        (["--timeout", "0"], "--timeout must be a positive number"),
        (["--max-output-tokens", "-5"], "--max-output-tokens must be a whole number from 0"),
        (["--root", "/no/such/dir"], "--root /no/such/dir: not a directory"),
    ],
)
def test_bad_option_values_are_usage_errors(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse(argv)


def test_instructions_stay_short_and_cover_only_served_tools() -> None:
    everything = instructions(served())
    assert len(everything.split()) <= 150
    assert "`github_*`" in everything and everything.count("`cc_*`") == 1
    assert "`github_*`" not in instructions(served(wanted=["code"]))
    assert "`code`" in instructions(served(wanted=["code"]))


@pytest.mark.parametrize(
    ("code", "text"), [(-11, "SIGSEGV"), (-9, "SIGKILL"), (3, "exit code 3"), (-200, "signal 200")]
)
def test_exit_descriptions(code: int, text: str) -> None:
    assert describe_exit(code) == text


def test_a_hundred_thousand_bad_items_are_not_a_hundred_thousand_lines() -> None:
    params, problems = validate(Sample, {"files": [{"x": 1}] * 100_000})
    assert params is None
    assert len(problems) == 21
    assert problems[0].startswith("files[0]: ")
    assert problems[-1] == "… and 99,980 more problems"
