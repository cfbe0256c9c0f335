"""The TOON text of a summary writes repeated owners, kinds, import prefixes and what the path
says only once, and drops no fact: decoding it with `toon-format` and undoing each grouping (by
an independent inverse written here) gives back every row of the JSON document."""

from __future__ import annotations

import json
import os
import re
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import toon_format

from sofia.providers.code import render
from sofia.providers.code.cells import ELIDABLE
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
        match = re.fullmatch(r"(<?)(.*)" + re.escape(separator) + r"\{([^ ]*)\}(>?)", item)
        if match and bool(match[1]) == bool(match[4]):  # `<sys/{a.h,b.h}>`: a C system header's brackets
            out.extend(f"{match[1]}{match[2]}{separator}{tail}{match[4]}" for tail in match[3].split(","))
        else:
            out.append(item)
    return out


def undisplay(text: str, path: str, lang: str) -> dict[str, Any]:
    """The flat document a TOON summary stands for."""
    shown = toon_format.loads(text)
    stem = os.path.splitext(os.path.basename(path))[0]
    document: dict[str, Any] = {"path": shown.pop("path"), "lang": shown.pop("lang", lang), "mode": "summary"}
    document["lines"] = shown.pop("lines")
    document["namespace"] = shown.pop("namespace", "")
    document["imports"] = unfold(shown.pop("imports", []), lang)
    document["types"] = shown.pop("types", [])
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
            restored = {**row, **extra}
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
def test_fixture_summaries_keep_every_fact(rel: str, no_passthrough: None) -> None:
    for document, text in summaries(FIXTURES, [rel]):
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
            ["java.util.{List,Map}", "java.io.File"],
        ),
        (
            "cart.rs",
            "use std::fmt;\nuse std::io;\nuse std::fmt::Debug;\nfn f() {}\n",
            ["std::{fmt,io}", "std::fmt::Debug"],
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
