"""`vue routes` against reading the router files: tokens on real public routers from npm, the
search on a large tree without a router against `rg --files`, and the in-process parse cost.

Targets: TOON ≥ 6.3× smaller than `cat` of the files it read (median); locating on a
≥ 100,000-file tree ≤ 1.5× `rg --files`; parsing and resolving 10 modules ≤ 100 ms.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from harness import (
    CACHE,
    estimate,
    median_seconds,
    npm_package,
    ratio,
    run,
    section,
    sf_command,
    table,
    time_command,
)

from sofia.providers.contract import Context, ProviderError
from sofia.providers.vue import Params
from sofia.providers.vue import run as vue_run
from sofia.runtime import rg

CORPUS = (
    ("vue-element-admin@3.9.3", "."),
    ("vue-admin-template@1.0.0", "template"),
    ("create-vue@3.24.0", "template/code/typescript-router"),
    ("create-vue@3.24.0", "template/code/router"),
    ("create-quasar@5.0.30", "templates/app/vite-3/ts/manualRouting"),
    ("create-quasar@5.0.30", "templates/app/vite-3/js/manualRouting"),
)
"""Public routers shipped in npm packages (no admin template with glob-loaded route modules is
published there; the fixtures below stand in for that layout)."""
FIXTURES = ("vite-eager", "webpack-context")
"""The admin-template layouts of `tests/vue/admin.py`, route modules loaded by glob or context."""


def fixture(layout: str) -> Path:
    from tests.vue import admin

    root = CACHE / "vue" / f"admin-{layout}"
    if not (root / ".done").exists():
        admin.build(root, layout)
        (root / ".done").write_text("")
    return root


def big_tree(files: int = 100_000) -> Path:
    """A generated front-end monorepo without any router module."""
    root = CACHE / "vue" / f"norouter-{files}"
    if (root / ".done").exists():
        return root
    per_dir = 100
    for index in range(files):
        directory = root / f"packages/pkg{index // 1000:03}/src/part{(index // per_dir) % 10}"
        if index % per_dir == 0:
            directory.mkdir(parents=True, exist_ok=True)
        (directory / f"module{index % per_dir}.ts").write_text(f"export const value{index} = {index}\n")
    (root / ".done").write_text("")
    return root


def main() -> None:
    token_rows = []
    ratios: dict[str, list[float]] = {"npm": [], "fixture": []}
    apps = [(f"{spec} {subdir}", "npm", npm_package(spec) / subdir) for spec, subdir in CORPUS]
    apps += [(f"admin fixture: {layout}", "fixture", fixture(layout)) for layout in FIXTURES]
    for label, kind, app in apps:
        toon = run(sf_command("vue", "routes", "--max-output-tokens", "0"), cwd=app)
        as_json = run(sf_command("vue", "routes", "--json", "--max-output-tokens", "0"), cwd=app)
        document = vue_run(Params(), Context(root=app, budget=None))
        raw = sum(estimate((app / f).read_bytes()) for f in document["files"])
        out = estimate(toon.stdout)
        ratios[kind].append(raw / out)
        token_rows.append(
            (
                label,
                len(document["files"]),
                len(document["routes"]),
                raw,
                out,
                estimate(as_json.stdout),
                ratio(raw, out),
                ratio(raw, estimate(as_json.stdout)),
            )
        )
    header = ("router", "modules", "routes", "cat tok", "TOON tok", "JSON tok", "cat ÷ TOON", "cat ÷ JSON")
    body = table(header, token_rows)
    every = ratios["npm"] + ratios["fixture"]
    body += (
        f"\n\nMedian cat ÷ TOON: **{statistics.median(every):.1f}×** over every router, "
        f"{statistics.median(ratios['npm']):.1f}× over the npm routers alone (target ≥ 6.3×).\n\n"
    )

    tree = big_tree()
    rg_files = time_command([rg.executable(), "--files", "--hidden", "--no-require-git", "."], cwd=tree)
    located = time_command(sf_command("vue", "routes"), cwd=tree)
    failed = run(sf_command("vue", "routes"), cwd=tree)
    assert failed.returncode == 1 and b"no router file" in failed.stderr
    searched = median_seconds(lambda: _search(tree))
    admin = npm_package("vue-element-admin@3.9.3")
    ctx = Context(root=admin, budget=None)
    parse = median_seconds(lambda: vue_run(Params(), ctx), repeat=9)
    modules = len(vue_run(Params(), ctx)["files"])
    body += table(
        ("measure", "sf", "baseline", "ratio"),
        [
            (
                "search a 100,000-file tree without a router",
                f"{located * 1000:.0f} ms",
                f"rg --files {rg_files * 1000:.0f} ms",
                ratio(located, rg_files),
            ),
            (
                "the same search in process (warm MCP worker)",
                f"{searched * 1000:.0f} ms",
                f"rg --files {rg_files * 1000:.0f} ms",
                ratio(searched, rg_files),
            ),
            (
                f"parse and resolve {modules} route modules (in process)",
                f"{parse * 1000:.1f} ms",
                "target 100 ms",
                ratio(parse, 0.1),
            ),
        ],
    )
    body += (
        "\n\nThe CLI row includes the interpreter's start-up and the pydantic import (see the start-up table); the "
        "in-process row is the search itself."
    )
    section("vue routes", body, "python bench/run.py vue")


def _search(tree: Path) -> None:
    """One in-process search that ends, as it should, in the 'no router file' error."""
    try:
        vue_run(Params(), Context(root=tree, budget=None))
    except ProviderError:
        return
    raise AssertionError("a router was found in a tree without one")


if __name__ == "__main__":
    main()
