"""`sf code` against `cat`: output tokens per language on real public code
(median/min/max over files of at least 8 KiB, also with `--exported` and `--brief`, TOON and JSON),
`--api` on symfony/console's ListCommand against `cat` of the class and its parent, end-to-end time on
250 files against `cat` of them, and the per-file parse + extraction time on 20–50 KB files.
Sections can be picked: `python bench/bench_code.py [tokens] [api] [time]`.

Corpora, installed at bench time: the running interpreter's standard library (Python), Debian's
`golang-1.19-src` (Go), Debian's `php-symfony-*` and `php-laravel-framework` (PHP), and the npm
packages in NPM: Vue from `vitepress`, `@nuxt/ui`, `primevue`, `vue-element-admin`; JavaScript
mostly from `webpack`; TypeScript from every package tried that ships its `.ts` sources, libraries
(`rxjs`, `effect`, `mobx`, `immer`, `@tanstack/*`, `@trpc/server`, `prosemirror-*`, `@tiptap/core`,
`@supabase/*`) and an application (`tldraw`, `@tldraw/editor`). Every file of at least 8 KiB is
measured, and the TypeScript median is also given per package, since style varies that much.
"""

from __future__ import annotations

import re
import statistics
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import harness
from harness import debian_package, npm_package, ratio, section, sf_command, table, time_command

from sofia.output.budget import cost
from sofia.output.render import render
from sofia.output.tokens import estimate
from sofia.providers import code
from sofia.providers.contract import Context
from sofia.syntax import language_for, parse

MIN_SIZE = 8 * 1024
SPEED_FILES = 250
SKIP_DIRS = {
    "test",
    "tests",
    "testdata",
    "idlelib",
    "vendor",
    "node_modules",
    "__pycache__",
    "fixtures",
    "site-packages",
}
GENERATED_MARKERS = (b"Code generated", b"DO NOT EDIT", b"@generated")
"""Generated files (syscall tables, parsers) are left out: agents do not read them."""

NPM = (
    "vitepress@1.6.4",
    "@nuxt/ui@4.11.2",
    "primevue@3.53.0",
    "vue-element-admin@3.9.3",
    "@tanstack/query-core@5.108.0",
    "zod@3.24.2",
    "rxjs@7.8.2",
    "webpack@5.113.0",
)
NPM_TS = (
    "effect@4.1.0",
    "mobx@7.1.3",
    "immer@11.2.13",
    "@tanstack/router-core@1.120.3",
    "@trpc/server@11.0.0",
    "prosemirror-model@1.25.13",
    "prosemirror-view@1.44.0",
    "@tiptap/core@3.35.0",
    "@supabase/auth-js@2.109.0",
    "@supabase/realtime-js@2.109.0",
    "tldraw@5.1.1",
    "@tldraw/editor@5.1.1",
)
"""More packages that ship their TypeScript sources; only their `.ts`/`.tsx` files are measured
(their `.js` is built output)."""
GO_PACKAGE = "golang-1.19-src"
PHP_PACKAGES = (
    "php-symfony-console",
    "php-symfony-http-kernel",
    "php-symfony-http-foundation",
    "php-symfony-routing",
    "php-symfony-dependency-injection",
    "php-symfony-validator",
    "php-laravel-framework",
)
TARGETS = {"go": 9.5, "php": 2.5, "ts": 6.4, "vue": 10.0, "js": 6.0, "python": 5.0}


DECLARATION = re.compile(r"\.d(\.vue)?\.[mc]?ts$")
"""TypeScript declaration files (`x.d.ts`, `x.d.vue.ts`): generated signatures, not hand-written code."""


def source_files(root: Path, langs: set[str]) -> list[Path]:
    """Supported hand-written files under `root` in `langs`, outside test and vendored trees, sorted."""
    found = []
    for path in root.rglob("*"):
        wanted = path.is_file() and not DECLARATION.search(path.name) and language_for(path) in langs
        if wanted and not SKIP_DIRS.intersection(path.relative_to(root).parts) and not generated(path):
            found.append(path)
    return sorted(found)


def generated(path: Path) -> bool:
    with path.open("rb") as handle:
        head = handle.read(2048)
    return any(marker in head for marker in GENERATED_MARKERS)


def spread(files: list[Path], count: int) -> list[Path]:
    if len(files) <= count:
        return files
    step = len(files) / count
    return [files[int(i * step)] for i in range(count)]


def corpora() -> dict[str, tuple[Path, list[Path], str]]:
    """language → (root, files, where it comes from)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    go_root = next(debian_package(GO_PACKAGE).glob("usr/share/go-*/src"))
    php_roots = [debian_package(name) for name in PHP_PACKAGES]
    npm_roots = [npm_package(spec) for spec in NPM]
    ts_roots = [npm_package(spec) for spec in NPM_TS]
    out: dict[str, tuple[Path, list[Path], str]] = {
        "python": (stdlib, source_files(stdlib, {"python"}), f"CPython {sys.version.split()[0]} stdlib"),
        "go": (go_root, source_files(go_root, {"go"}), f"{GO_PACKAGE} (src/)"),
    }
    php_files = [f for root in php_roots for f in source_files(root, {"php"})]
    out["php"] = (Path("/"), sorted(php_files), ", ".join(PHP_PACKAGES))
    for lang in ("ts", "vue", "js"):
        roots = npm_roots + ts_roots if lang == "ts" else npm_roots
        wanted = {lang, "tsx"} if lang == "ts" else {lang}
        files = [f for root in roots for f in source_files(root, wanted)]
        origin = ", ".join(NPM + NPM_TS if lang == "ts" else NPM)
        out[lang] = (Path("/"), sorted(files), "npm " + origin)
    return out


def summarised(path: Path, **options: bool) -> dict[str, Any]:
    params = code.Params(files=[str(path)], **options)
    return code.run(params, Context(root=path.parent, budget=None))


def printed(path: Path, fmt: str, **options: bool) -> str:
    """What `sf code PATH [options] --format fmt` prints (same code path, in-process, no budget)."""
    return render(summarised(path, **options), fmt, code.render)


def token_rows(
    langs: dict[str, tuple[Path, list[Path], str]],
) -> tuple[list[list[object]], list[str], dict[Path, float]]:
    """Rows per language and mode, notes, and each TOON default ratio by file (for the package table)."""
    rows: list[list[object]] = []
    notes: list[str] = []
    breaches: list[str] = []
    unfollowed: list[str] = []
    by_file: dict[Path, float] = {}
    for lang, (_, files, origin) in langs.items():
        big = [f for f in files if f.stat().st_size >= MIN_SIZE]
        if not big:
            notes.append(f"{lang}: no files of at least 8 KiB in {origin}")
            continue
        cat = {f: estimate(f.read_bytes()) for f in big}
        for label, fmt, options in (
            ("default", "toon", {}),
            ("exported", "toon", {"exported": True}),
            ("brief", "toon", {"brief": True}),
            ("default", "json", {}),
        ):
            ratios = []
            raw = 0
            for f in big:
                result = summarised(f, **options)
                document = result["files"][0]
                if (label, fmt) == ("default", "toon") and any("not followed" in n for n in result["notes"]):
                    unfollowed.append(f"{f.name} ({lang})")
                raw += document["mode"] != "summary"
                if document["mode"] == "summary" and cost(document) >= cat[f]:
                    breaches.append(f"{f.name} ({label})")
                ratios.append(cat[f] / max(1, estimate(render(result, fmt, code.render))))
                if (label, fmt) == ("default", "toon"):
                    by_file[f] = ratios[-1]
            rows.append(
                [
                    lang,
                    label,
                    fmt,
                    len(big),
                    f"{statistics.median(ratios):.2f}×",
                    f"{min(ratios):.2f}×",
                    f"{max(ratios):.2f}×",
                    raw,
                    f"≥ {TARGETS[lang]}×" if (label, fmt) == ("default", "toon") else "",
                ]
            )
        notes.append(f"{lang}: {len(files)} files in {origin}, {len(big)} of ≥ 8 KiB measured")
    notes.append(
        "summaries not strictly below their file (compact JSON vs file): "
        + (", ".join(breaches) if breaches else "none")
    )
    notes.append(
        f"files with a not-followed note (syntax error regions, declarations without a row, "
        f"files not summarised): {len(unfollowed)}" + (f": {', '.join(unfollowed)}" if unfollowed else "")
    )
    return rows, notes, by_file


def package_rows(
    langs: dict[str, tuple[Path, list[Path], str]], by_file: dict[Path, float]
) -> list[list[object]]:
    """TypeScript's default TOON ratio per npm package: libraries and applications differ widely."""
    grouped: dict[str, list[float]] = {}
    for f in langs["ts"][1]:
        if f in by_file:
            grouped.setdefault(npm_name(f), []).append(by_file[f])
    return [
        [name, len(values), f"{statistics.median(values):.2f}×", f"{min(values):.2f}×", f"{max(values):.2f}×"]
        for name, values in sorted(grouped.items(), key=lambda item: statistics.median(item[1]))
    ]


def npm_name(path: Path) -> str:
    """`@scope/name@version` of a file inside an npm package extracted by `harness.npm_package`."""
    parts = path.parts
    safe = parts[parts.index("npm") + 1]
    return safe.replace("_at_", "@").replace("__", "/")


def api_row() -> list[list[object]]:
    console = debian_package("php-symfony-console") / "usr/share/php/Symfony/Component/Console"
    target = console / "Command" / "ListCommand.php"
    parent = console / "Command" / "Command.php"
    if not target.exists():
        return [["ListCommand --api", "not found in php-symfony-console", "", "", ""]]
    baseline = estimate(target.read_bytes()) + estimate(parent.read_bytes())
    out = harness.run(sf_command("code", "Command/ListCommand.php", "--api"), cwd=console).stdout
    return [
        [
            "ListCommand --api vs cat of class + parent",
            baseline,
            estimate(out),
            ratio(baseline, estimate(out)),
            "≥ 8×",
        ]
    ]


def speed_rows(langs: dict[str, tuple[Path, list[Path], str]]) -> list[list[object]]:
    go_root, go_files, _ = langs["go"]
    files = spread([f for f in go_files if f.stat().st_size >= 2048], SPEED_FILES)
    args = [str(f.relative_to(go_root)) for f in files]
    sf_time = time_command(sf_command("code", *args), cwd=go_root)
    cat_time = time_command(["cat", *args], cwd=go_root)
    return [
        [
            f"{len(files)} Go files: sf code vs cat",
            f"{sf_time:.2f} s",
            f"{cat_time:.3f} s",
            ratio(sf_time, cat_time),
            "sf ≤ 4 s",
        ]
    ]


def parse_rows(langs: dict[str, tuple[Path, list[Path], str]]) -> list[list[object]]:
    """Per language, the median over files of each file's best-of-3 time (warm grammars)."""
    rows: list[list[object]] = []
    for lang, (_, files, _) in langs.items():
        sample = spread([f for f in files if 20_000 <= f.stat().st_size <= 50_000], 40)
        if not sample:
            continue
        sources = [(f.read_bytes(), language_for(f) or lang) for f in sample]
        parse_ms = statistics.median(_best_ms(lambda s=s, lg=lg: parse(s, lg)) for s, lg in sources)
        summary_ms = statistics.median(_best_ms(lambda f=f: printed(f, "toon")) for f in sample)
        rows.append([lang, len(sample), f"{parse_ms:.1f} ms", f"{summary_ms:.1f} ms", "parse ≤ 10 ms"])
    return rows


def _best_ms(action: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main(wanted: set[str]) -> None:
    langs = corpora()
    command = "python bench/bench_code.py"
    if not wanted or "tokens" in wanted:
        rows, notes, by_file = token_rows(langs)
        header = ["lang", "mode", "format", "files", "median cat/sf", "min", "max", "raw fallbacks", "target"]
        body = table(header, rows) + "\n\n" + "\n".join(f"* {n}" for n in notes)
        body += "\n\nTypeScript by package (default, TOON):\n\n" + table(
            ["package", "files", "median cat/sf", "min", "max"], package_rows(langs, by_file)
        )
        section("code: tokens vs cat", body, command)
    if not wanted or "api" in wanted:
        section(
            "code: api", table(["case", "cat tokens", "sf tokens", "cat/sf", "target"], api_row()), command
        )
    if not wanted or "time" in wanted:
        body = table(["case", "sf", "cat", "sf/cat", "target"], speed_rows(langs))
        body += "\n\n" + table(
            [
                "lang",
                "files (20–50 KB)",
                "parse + symbols, median per file",
                "summary + render, median per file",
                "target",
            ],
            parse_rows(langs),
        )
        section("code: time", body, command)


if __name__ == "__main__":
    main(set(sys.argv[1:]))
