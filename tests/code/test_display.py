"""The TOON text of a summary writes repeated owners, kinds, import prefixes and what the path
says only once, and drops no fact: decoding it with `toon-format` and undoing each grouping (by
an independent inverse written here) gives back every row of the JSON document."""

from __future__ import annotations

import json
import os
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import toon_format

from sofia.providers.code import render
from sofia.providers.code.cells import ELIDABLE
from sofia.syntax.queried import spec_of
from sofia.syntax.registry import language, language_for
from tests.code.conftest import FIXTURES, code
from tests.helpers import run_sf

TABLES = ("functions", "properties", "ctor", "constants", "cases")
SECTIONS = {"methods": "", "computed": "computed", "watch": "watch"}
KINDS = ("const", "let", "var")
SEPARATORS = {"php": "\\", "python": ".", "rust": "::"} | dict.fromkeys(
    ("java", "kotlin", "csharp", "swift", "scala"), "."
)


def unfold(imports: list[str], lang: str) -> list[str]:
    separator = SEPARATORS.get(lang, "/")
    out = []
    for item in imports:
        # folded tails hold no blank: `a::{B as C, D}` is Rust's own list, written as it is
        if " " in item or "{" not in item:
            out.append(item)
            continue
        bracket = item.startswith("<") and item.endswith(">")  # `<sys/{a.h,b.h}>`: a C system header
        for path in expand(item[1:-1] if bracket else item, separator):
            out.append(f"<{path}>" if bracket else path)
    return out


def expand(text: str, separator: str) -> list[str]:
    """`a.{b.{c,d},e}` → a.b.c, a.b.d, a.e."""
    at = text.find("{")
    if at < 0:
        return [text]
    head, inner = text[:at], text[at + 1 : -1]
    assert head.endswith(separator) and text.endswith("}"), text
    parts, depth, start = [], 0, 0
    for index, char in enumerate(inner):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(inner[start:index])
            start = index + 1
    parts.append(inner[start:])
    return [head + path for part in parts for path in expand(part, separator)]


VISIBILITIES = {
    "java": ("public", "protected", "private", "package"),
    "kotlin": ("public", "protected", "private", "internal"),
    "csharp": ("protected internal", "private protected", "public", "protected", "private", "internal"),
    "c": ("public", "private"),
    "cpp": ("public", "protected", "private"),
    "rust": ("public", "crate", "super", "restricted", "private"),
    "ruby": ("public", "protected", "private"),
    "swift": ("open", "public", "internal", "fileprivate", "private"),
}
"""What a query-driven language's `mods` cell may start with: its visibilities."""


def unpack(row: dict[str, Any], lang: str) -> dict[str, Any]:
    """A query-driven language's row with `vis` out of `mods` (the language's default when none
    leads it) and `lines` back to `line` and `end_line`."""
    if lang not in VISIBILITIES:
        return row
    out = dict(row)
    if "lines" in out:
        first, _, last = str(out.pop("lines")).partition("-")
        out["line"], out["end_line"] = int(first), int(last or first)
    mods = str(out.pop("mods", ""))
    vis = next((v for v in VISIBILITIES[lang] if mods == v or mods.startswith(v + " ")), "")
    out["vis"] = vis or spec_of(lang).default_visibility
    out["mods"] = mods[len(vis) :].strip()
    return out


def undisplay(text: str, path: str, lang: str) -> dict[str, Any]:
    """The flat document a TOON summary stands for."""
    shown = toon_format.loads(text)
    stem = os.path.splitext(os.path.basename(path))[0]
    document: dict[str, Any] = {"path": shown.pop("path"), "lang": shown.pop("lang", lang), "mode": "summary"}
    document["lines"] = shown.pop("lines")
    document["namespace"] = shown.pop("namespace", "")
    document["imports"] = unfold(shown.pop("imports", []), lang)
    document["types"] = [unpack(row, lang) for row in shown.pop("types", [])]
    tables: dict[str, list[dict[str, Any]]] = {}
    for key, value in shown.items():
        base, _, owner = key.partition(".")
        if base in SECTIONS and lang == "vue" and isinstance(value, list):
            owner, extra, base = owner or stem, {"mods": SECTIONS[base]}, "functions"
        elif base in KINDS:
            extra, base = {"kind": base}, "constants"
        elif base in TABLES:
            extra = {}
        else:
            document[key] = value
            continue
        previous_sig = None
        for row in value:
            restored = {**(unpack(row, lang) if base in ("functions", "properties") else row), **extra}
            if restored.get("sig") == "^":  # the row above's signature
                restored["sig"] = previous_sig
            previous_sig = restored.get("sig")
            if owner:
                restored["owner"] = owner
            tables.setdefault(base, []).append(restored)
    document["functions"] = tables.pop("functions", [])
    document.update(tables)
    if "vue" in document:
        vue = document["vue"]
        document["vue"] = {"component": vue.get("component", stem), "script": vue["script"]} | {
            k: vue.get(k, []) for k in ("props", "emits", "models", "components", "stores", "composables")
        }
    return document


def normal(rows: list[dict[str, Any]], table: str) -> list[str]:
    defaults = {"owner": "", "mods": "", **ELIDABLE.get(table, {})}
    return sorted(json.dumps({**defaults, **row}, sort_keys=True) for row in rows)


def same_facts(document: dict[str, Any], text: str) -> None:
    back = undisplay(text, document["path"], document["lang"])
    for key, value in document.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            assert normal(back.get(key, []), key) == normal(value, key), key
        elif key == "imports":
            assert sorted(back[key]) == sorted(value)
        else:
            assert back.get(key) == value, key
    assert set(back) - set(document) <= {k for k in back if not back[k]}


def summaries(root: Path, files: list[str]) -> list[tuple[dict[str, Any], str]]:
    found = []
    for rel in files:
        result = code(root, rel, budget=None)
        document = result["files"][0]
        if document["mode"] == "summary":
            found.append((document, render({"files": [document], "notes": []}, "toon") or ""))
    return found


FIXTURE_FILES = sorted(
    str(p.relative_to(FIXTURES))
    for p in FIXTURES.rglob("*")
    if p.suffix
    in {".go", ".php", ".py", ".ts", ".tsx", ".js", ".vue"}
    | {".java", ".kt", ".cs", ".c", ".h", ".cpp", ".hpp", ".rs", ".rb", ".swift"}
)


@pytest.mark.parametrize("rel", FIXTURE_FILES)
def test_fixture_summaries_keep_every_fact(rel: str, tmp_path: Path, no_passthrough: None) -> None:
    source = (FIXTURES / rel).read_bytes()
    record = language(language_for(rel) or "")
    assert record is not None
    # padded with comment lines after the code, so that its summary is the smaller
    padding = f"\n{record.comment} padding, so that the summary is the smaller\n".encode() * 200
    (tmp_path / rel).parent.mkdir(parents=True)
    (tmp_path / rel).write_bytes(source + (b"" if record.name == "vue" else padding))
    found = summaries(tmp_path, [rel])
    assert found or record.name == "vue", "summarised"
    for document, text in found:
        same_facts(document, text)


def stdlib_files() -> list[str]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    found = sorted(p.name for p in stdlib.glob("*.py") if p.stat().st_size >= 8192)
    return found[:: max(1, len(found) // 40)]


@pytest.mark.parametrize("name", stdlib_files())
def test_stdlib_summaries_keep_every_fact(name: str) -> None:
    root = Path(sysconfig.get_paths()["stdlib"])
    for document, text in summaries(root, [name]):
        same_facts(document, text)


def test_vue_options_members_are_headed_by_their_section(tmp_path: Path, no_passthrough: None) -> None:
    methods = "".join(
        f"    step{i}(event) {{\n"
        + f"      this.count = this.count + {i} + event.detail * Math.max(this.count, {i})\n" * 4
        + "    },\n"
        for i in range(12)
    )
    computed = "".join(f"    total{i}() {{\n      return this.count * {i}\n    }},\n" for i in range(3))
    (tmp_path / "Counter.vue").write_text(
        '<template>\n  <button @click="step0">{{ count }}</button>\n</template>\n\n<script>\n'
        "import { ripple } from 'primevue/ripple'\nimport { utils } from 'primevue/utils'\n\n"
        f"export default {{\n  data() {{\n    return {{ count: 0 }}\n  }},\n  methods: {{\n{methods}  }},\n"
        f"  computed: {{\n{computed}  }}\n}}\n</script>\n"
    )
    done = run_sf(
        "code", "Counter.vue", cwd=tmp_path, env={"SOFIA_CODE_RAW_BELOW": "0", "SOFIA_FOOTER": "off"}
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("path: Counter.vue\nlines: ")
    assert "mode:" not in text and "lang:" not in text and "component:" not in text
    assert "\nmethods[12]{name,sig,line,end_line}:\n  step0,(event),14,19\n" in text
    assert "\ncomputed[3]{name,sig,line,end_line}:\n  total0,(),88,90\n" in text
    assert 'imports[1]: "primevue/{ripple,utils}"' in text
    document = json.loads(
        run_sf("code", "Counter.vue", "--json", cwd=tmp_path, env={"SOFIA_CODE_RAW_BELOW": "0"}).stdout
    )["files"][0]
    assert {f["owner"] for f in document["functions"]} == {"Counter"}
    same_facts(document, text)


@pytest.mark.parametrize(
    ("name", "source", "folded"),
    [
        (
            "Cart.kt",
            "import android.os.Build\nimport android.os.Bundle\nimport a.b.C as D\nclass Cart {\n}\n",
            ["android.os.{Build,Bundle}", "a.b.C as D"],
        ),
        (
            "Cart.java",
            "import java.util.List;\nimport java.util.Map;\nimport java.io.File;\nclass Cart {}\n",
            ["java.{util.{List,Map},io.File}"],
        ),
        (
            "cart.rs",
            "use std::fmt;\nuse std::io;\nuse std::fmt::Debug;\nfn f() {}\n",
            ["std::fmt", "std::{io,fmt::Debug}"],
        ),
        (
            "cart.c",
            '#include <linux/mm.h>\n#include <linux/slab.h>\n#include "a/x.h"\n#include "a/y.h"\nint f(void);\n',
            ["<linux/{mm.h,slab.h}>", "a/{x.h,y.h}"],
        ),
    ],
)
def test_imports_fold_on_the_languages_own_separator(
    tmp_path: Path, name: str, source: str, folded: list[str], no_passthrough: None
) -> None:
    body = "// a long body, so that the summary is the smaller\n" * 40
    (tmp_path / name).write_text(source + body)
    ((document, text),) = summaries(tmp_path, [name])
    assert toon_format.loads(text)["imports"] == folded
    same_facts(document, text)


def test_a_signature_the_row_above_has_is_written_once(tmp_path: Path, no_passthrough: None) -> None:
    ops = "".join(
        f"static int op_{name}(struct device *dev, unsigned int index, void *data)\n{{\n  return {i};\n}}\n\n"
        for i, name in enumerate(("open", "read", "write"))
    )
    (tmp_path / "ops.c").write_text(
        ops + "static int op_close(void)\n{\n  return 0;\n}\n" + "/* padding */\n" * 40
    )
    ((document, text),) = summaries(tmp_path, ["ops.c"])
    sigs = [row["sig"] for row in toon_format.loads(text)["functions"]]
    assert sigs == ["int (struct device *dev, unsigned int index, void *data)", "^", "^", "int (void)"]
    assert [row["sig"] for row in document["functions"]][1] == sigs[0]  # JSON keeps every sig
    same_facts(document, text)
    (tmp_path / "ops.py").write_text(
        "".join(f"def op_{n}(dev: Device, index: int, data: bytes) -> int:\n    return 0\n\n" for n in "abc")
        + "# padding\n" * 60
    )
    ((_, python),) = summaries(tmp_path, ["ops.py"])
    assert "^" not in python  # the languages with their own summarisers write every sig


def test_visibility_leads_mods_and_the_languages_default_is_not_written(
    tmp_path: Path, no_passthrough: None
) -> None:
    (tmp_path / "Box.swift").write_text(
        "public final class Box {\n"
        "    func open() -> Int { return 1 }\n"
        "    public func close(\n        force: Bool\n    ) {\n    }\n"
        "    private static func reset() {}\n"
        "    fileprivate var count: Int = 0\n"
        "}\n" + "// padding, so that the summary is the smaller\n" * 40
    )
    ((document, text),) = summaries(tmp_path, ["Box.swift"])
    shown = toon_format.loads(text)
    assert "lang" not in shown  # `.swift` says it
    assert shown["types"] == [{"kind": "class", "name": "Box", "lines": "1-9", "mods": "public final"}]
    assert shown["functions.Box"] == [
        {"name": "open", "sig": "() -> Int", "lines": 2, "mods": ""},  # internal: Swift's default
        {"name": "close", "sig": "(force: Bool)", "lines": "3-6", "mods": "public"},
        {"name": "reset", "sig": "()", "lines": 7, "mods": "private static"},
    ]
    assert [row["vis"] for row in document["functions"]] == [
        "internal",
        "public",
        "private",
    ]  # JSON: every vis
    same_facts(document, text)


def test_a_header_the_extension_cannot_tell_names_its_language(tmp_path: Path, no_passthrough: None) -> None:
    padding = "/* padding, so that the summary is the smaller */\n" * 40
    (tmp_path / "shape.h").write_text("int area(int w, int h);\n" + padding)
    (tmp_path / "shape.rs").write_text("pub fn area(w: u32, h: u32) -> u32 { w * h }\n" + padding)
    shown = {
        rel: toon_format.loads(text)
        for rel in ("shape.h", "shape.rs")
        for _, text in summaries(tmp_path, [rel])
    }
    assert shown["shape.h"]["lang"] == "c" and "lang" not in shown["shape.rs"]


def test_an_import_written_again_stays_and_a_prefix_of_another_stays_whole(
    tmp_path: Path, no_passthrough: None
) -> None:
    (tmp_path / "lib.rs").write_text(
        "use std::io;\nuse std::fmt;\nuse std::fmt::Debug;\nmod inner {\n    use std::io;\n}\n"
        + "// padding, so that the summary is the smaller\n" * 40
    )
    ((document, text),) = summaries(tmp_path, ["lib.rs"])
    assert document["imports"] == ["std::io", "std::fmt", "std::fmt::Debug", "std::io"]
    assert toon_format.loads(text)["imports"] == ["std::{io,fmt::Debug}", "std::fmt", "std::io"]
    same_facts(document, text)
