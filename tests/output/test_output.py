"""The shared output layer: the token estimate, JSON/TOON/Markdown renderers, tables and budgets."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sofia.output import budget, jsonfmt, markdown, render, tables, toon
from sofia.output.tokens import estimate


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", 0),
        ("12345678", 2),
        ("1234567890", 3),
        ("привет", 6),
        ("a", 0),
        ("ab", 1),
        ("abc", 1),
        ("日本", 2),
    ],
)
def test_estimate_pinned_values(text: str, tokens: int) -> None:
    assert estimate(text) == tokens
    assert estimate(text.encode()) == tokens


def test_estimate_counts_each_undecodable_byte_as_one_unit() -> None:
    assert estimate(b"abcd\xff\xfe") == 1 + 2
    assert estimate(b"\xe9t\xe9") == 2 + 0  # Latin-1 "été": two bad bytes, one ASCII letter (1/4 rounds to 0)


@given(st.text())
def test_estimate_of_a_concatenation_is_close_to_the_sum(text: str) -> None:
    halves = estimate(text[: len(text) // 2]) + estimate(text[len(text) // 2 :])
    assert abs(estimate(text) - halves) <= 1


def test_compact_json_keeps_key_order_and_unicode() -> None:
    document = {"zeta": 1, "alpha": ["é", None], "mid": {"b": True, "a": 1.5}}
    encoded = jsonfmt.compact(document)
    assert encoded == '{"zeta":1,"alpha":["é",null],"mid":{"b":true,"a":1.5}}'.encode()
    assert jsonfmt.compact(json.loads(encoded)) == encoded


def test_pretty_json_is_indented_with_a_trailing_newline() -> None:
    assert jsonfmt.pretty({"a": [1]}) == '{\n  "a": [\n    1\n  ]\n}\n'


def test_toon_renders_uniform_rows_as_one_table() -> None:
    text = toon.render({"rows": [{"a": 1, "b": "x, y"}, {"a": 2, "b": "z"}], "notes": []})
    assert text == 'rows[2]{a,b}:\n  1,"x, y"\n  2,z\nnotes: []\n'


def test_markdown_tables_escape_pipes_and_newlines_and_skip_empty_lists() -> None:
    text = markdown.render({"spec": "x", "files": [{"path": "a|b", "note": "one\ntwo"}], "notes": []})
    assert text == "**spec**: x  \n\n## files\n\n| path | note |\n| --- | --- |\n| a\\|b | one<br>two |\n"


def test_markdown_nests_objects_and_lists_of_objects() -> None:
    text = markdown.render({"totals": {"files": 2}, "patterns": [{"pattern": "foo", "hits": [{"line": 3}]}]})
    assert "## totals\n\n**files**: 2" in text
    assert "### 1. foo" in text
    assert "| line |\n| --- |\n| 3 |" in text


def test_render_leaves_stats_out_of_toon_and_markdown_but_not_json() -> None:
    result = {"files": [], "notes": [], "stats": {"raw_tok": 10}}
    assert "stats" not in render.render(result, "toon")
    assert "stats" not in render.render(result, "md")
    assert json.loads(render.render(result, "json"))["stats"] == {"raw_tok": 10}


def test_render_passes_raw_text_through_with_a_final_newline() -> None:
    assert render.render("line one\nline two", "toon") == "line one\nline two\n"


def test_a_custom_renderer_gets_the_first_word() -> None:
    assert render.render({"a": 1}, "md", lambda result, fmt: "custom") == "custom\n"
    assert render.render({"a": 1}, "md", lambda result, fmt: None) == "**a**: 1  \n"


def test_footer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOFIA_FOOTER", raising=False)
    assert render.footer("12345678", {"stats": {"raw_tok": 40}}) == "# sf ≈2 tok · raw ≈40"
    assert render.footer("12345678", {"notes": []}) == "# sf ≈2 tok"
    monkeypatch.setenv("SOFIA_FOOTER", "off")
    assert render.footer("12345678", {}) == ""


def test_elide_drops_a_column_only_when_every_row_holds_its_default() -> None:
    rows = [{"name": "a", "vis": "public", "mods": ""}, {"name": "b", "vis": "private", "mods": ""}]
    assert tables.elide(rows, {"vis": "public", "mods": ""}) == [
        {"name": "a", "vis": "public"},
        {"name": "b", "vis": "private"},
    ]
    assert tables.elide([], {"vis": "public"}) == []


def test_cut_keeps_n_characters_with_an_ellipsis() -> None:
    assert tables.cut("abcdef", 4) == "abc…"
    assert tables.cut("abcd", 4) == "abcd"


@given(st.integers(min_value=0, max_value=500), st.integers(min_value=0, max_value=500))
def test_largest_prefix_finds_the_boundary(count: int, boundary: int) -> None:
    expected = min(count, boundary)
    assert budget.largest_prefix(count, lambda k: k <= boundary) == expected


def test_fits_and_cost_use_the_compact_json() -> None:
    document = {"text": "x" * 400}
    assert budget.cost(document) == estimate(jsonfmt.compact(document))
    assert budget.fits(document, None)
    assert budget.fits(document, budget.cost(document))
    assert not budget.fits(document, budget.cost(document) - 1)


def test_keep_prefix_counts_what_it_drops_in_the_one_omitted_shape() -> None:
    rows = [{"n": i, "text": "x" * 40} for i in range(200)]
    result: dict[str, object] = {"rows": list(rows), "notes": []}
    assert budget.keep_prefix(result, "rows", 600, "rows", "narrow it", keep_at_least=2)
    kept = result["rows"]
    assert isinstance(kept, list) and 2 <= len(kept) < 200 and kept == rows[: len(kept)]
    assert result["omitted"] == {"rows": 200 - len(kept)}
    assert result["notes"] == [f"rows: showing {len(kept)} of 200 rows (budget 600 tok); narrow it"]
    assert budget.fits(result, 600) and not budget.fits({**result, "rows": rows[: len(kept) + 1]}, 600)


def test_keep_prefix_keeps_every_other_key_in_its_place() -> None:
    rows = [{"n": i, "text": "x" * 40} for i in range(200)]
    result: dict[str, object] = {"root": ".", "rows": list(rows), "errors": [], "notes": []}
    budget.keep_prefix(result, "rows", 600, "rows", "narrow it")
    assert list(result) == ["root", "rows", "errors", "notes", "omitted"]
    assert result["root"] == "." and result["errors"] == []


def test_nothing_left_out_means_no_omitted_key() -> None:
    result: dict[str, object] = {"rows": [1, 2], "notes": [], "omitted": {}}
    assert budget.keep_prefix(result, "rows", 600, "rows", "narrow it")
    assert budget.with_omitted(result, {"rows": 0}) == {"rows": [1, 2], "notes": []}


def test_a_ladder_past_its_last_step_says_the_one_floor_note() -> None:
    def build(knobs: dict[str, int]) -> dict[str, object]:
        return {"text": "y" * (400 + knobs["rows"]), "notes": []}

    result = budget.fit(build, {"rows": 50}, [budget.Shrink("rows")], 20)
    assert result["notes"] == [budget.floor_note(20)]
    assert "20 tokens after every shortening" in budget.floor_note(20)


def test_truncation_note_wording() -> None:
    assert budget.note("routes", 3, 9, "routes", 500, "pass file=") == (
        "routes: showing 3 of 9 routes (budget 500 tok); pass file="
    )


def test_a_list_a_limit_cut_says_the_limit_and_the_budget_only_when_it_cut() -> None:
    assert budget.note("commands", 30, 45, "commands", None, "pass limit=0 for all", limit="limit=30") == (
        "commands: showing 30 of 45 commands (limit=30); pass limit=0 for all"
    )
    assert budget.note("commands", 10, 45, "commands", 300, "filter", limit="limit=30") == (
        "commands: showing 10 of 45 commands (limit=30, budget 300 tok); filter"
    )


def test_a_shortened_text_is_said_in_the_same_frame() -> None:
    assert budget.shortened_note("prompts", budget.texts_cut(3, 100), 300, "cc_prompts") == (
        "prompts: 3 texts cut to 100 characters (budget 300 tok); cc_prompts"
    )
    assert budget.texts_cut(1, 3, "names", noun="cell") == "1 cell cut to 3 names"


def test_a_ladder_measures_the_form_a_result_travels_in() -> None:
    def build(knobs: dict[str, int]) -> dict[str, object]:
        return {"rows": list(range(knobs["rows"])), "notes": []}

    def as_text(result: dict[str, object]) -> int:
        rows = result["rows"]
        assert isinstance(rows, list)
        return 10 * len(rows)

    fitted = budget.fit(build, {"rows": 100}, [budget.Shrink("rows")], 200, as_text)
    assert fitted["rows"] == list(range(20))
    assert budget.cost(build({"rows": 21})) <= 200  # the JSON would have let more through
