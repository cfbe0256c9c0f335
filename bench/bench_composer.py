"""The Composer and Packagist tools against what a user would otherwise read or run, measured side by
side in one run on generated package trees (real git repositories, real `composer`, a local
Packagist serving p2 documents shaped like the real ones).

Targets: composer_ls TOON ≥ 7× smaller than the concatenated manifests of a 9-package tree,
and 50 packages in 50 repositories ≤ 1.5× the `git tag` probes alone (8 at a time); composer_check
wall with jobs ≥ packages ≤ 1.2× the longest single check, TOON ≥ 17× smaller than the raw output
per failing package; packagist_status TOON ≥ 23× smaller than the p2 documents, and 20 packages
against a server answering in 300 ms within 1.5 × 3 × 300 ms plus git time. The compact JSON an MCP
client receives must reach at least half of each token bar.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from harness import CACHE, ROOT, estimate, median_seconds, ratio, run, section, sf_command, table

sys.path.insert(0, str(ROOT))

from sofia.output import jsonfmt, render
from sofia.providers.composer import check, ls
from sofia.providers.contract import Context
from sofia.providers.packagist import status
from tests.packagist.server import FakePackagist, Reply, p2_document

WORK = CACHE / "composer"
RECORDINGS = ROOT / "tests" / "composer" / "fixtures" / "workspace" / "monorepo" / "tools"
COMMAND = "python bench/bench_composer.py"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}
os.environ.update(GIT_ENV)

PACKAGES = (
    ("array-reader", "Typed reads from nested arrays: config files, decoded JSON, request bodies", 7),
    ("enum", "Backed enums with labels, lookups by name and Doctrine types", 11),
    ("http-client", "A small PSR-18 HTTP client with retry and logging middleware", 14),
    ("money", "Money values in minor units with currency-safe arithmetic", 5),
    ("slugger", "ASCII slugs for titles in any script", 4),
    ("feature-flags", "Feature flags from environment variables and a JSON file", 3),
    ("clock", "A PSR-20 clock with a frozen clock for tests", 6),
    ("uuid-doctrine", "UUID v7 identifiers as Doctrine types and Symfony routes", 9),
    ("mailer-bridge", "Transactional mail templates for Symfony Mailer", 8),
)
"""A personal collection of nine packages (name, description, number of releases)."""


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, stdin=subprocess.DEVNULL)


def manifest(name: str, description: str, index: int) -> dict[str, Any]:
    """A composer.json as real libraries write them: metadata, QA tooling, scripts and config."""
    studly = "".join(part.capitalize() for part in name.split("-"))
    require: dict[str, str] = {"php": ">=8.1"}
    if index % 3 == 0:
        require["ext-json"] = "*"
    if index > 0:
        require[f"acme/{PACKAGES[index - 1][0]}"] = "^1.0"
    if index % 2 == 0:
        require["psr/log"] = "^2.0 || ^3.0"
    return {
        "name": f"acme/{name}",
        "description": description,
        "type": "library",
        "keywords": [name, "acme", "php"],
        "homepage": f"https://github.com/acme/{name}",
        "license": "MIT",
        "authors": [{"name": "Dana Developer", "email": "dana@acme.example", "role": "Maintainer"}],
        "support": {
            "issues": f"https://github.com/acme/{name}/issues",
            "source": f"https://github.com/acme/{name}",
        },
        "require": require,
        "require-dev": {
            "friendsofphp/php-cs-fixer": "^3.40",
            "phpstan/extension-installer": "^1.3",
            "phpstan/phpstan": "^1.10",
            "phpstan/phpstan-strict-rules": "^1.5",
            "phpunit/phpunit": "^10.5",
        },
        "autoload": {"psr-4": {f"Acme\\{studly}\\": "src/"}},
        "autoload-dev": {"psr-4": {f"Acme\\{studly}\\Tests\\": "tests/"}},
        "config": {"sort-packages": True, "allow-plugins": {"phpstan/extension-installer": True}},
        "scripts": {
            "cs": "php-cs-fixer fix --dry-run --diff",
            "cs-fix": "php-cs-fixer fix",
            "phpstan": "phpstan analyse --memory-limit=512M",
            "test": "phpunit --colors=always",
            "check": ["@cs", "@phpstan", "@test"],
        },
        "scripts-descriptions": {
            "check": "Runs code style, static analysis and tests",
            "cs-fix": "Fixes the code style",
        },
        "extra": {"branch-alias": {"dev-main": "1.x-dev"}},
        "minimum-stability": "stable",
        "prefer-stable": True,
    }


def release_tags(count: int) -> list[str]:
    return [f"v1.{minor}.0" for minor in range(count)]


def package_tree(root: Path, with_origins: bool = False) -> list[Path]:
    """The nine packages, each its own git repository with its release tags."""
    shutil.rmtree(root, ignore_errors=True)
    repos = []
    for index, (name, description, releases) in enumerate(PACKAGES):
        repo = root / name
        (repo / "src").mkdir(parents=True)
        (repo / "composer.json").write_text(json.dumps(manifest(name, description, index), indent=4) + "\n")
        (repo / "phpstan.neon.dist").write_text(
            f"parameters:\n    level: {5 + index % 5}\n    paths:\n        - src\n"
        )
        (repo / "src" / "Placeholder.php").write_text("<?php\n")
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "init")
        for tag in release_tags(releases):
            git(repo, "tag", tag)
        if with_origins:
            bare = root / f"{name}.git"
            git(root, "init", "-q", "--bare", "-b", "main", str(bare))
            git(repo, "remote", "add", "origin", bare.as_uri())
            git(repo, "push", "-q", "origin", "main", *release_tags(releases))
        repos.append(repo)
    return repos


def ctx(root: Path) -> Context:
    return Context(root=root, budget=None)


def toon(result: Any) -> str:
    return render.render(result, "toon")


def compact(result: Any) -> str:
    return jsonfmt.compact(result).decode()


def ls_section() -> None:
    tree = WORK / "packages"
    package_tree(tree)
    result = ls.run(ls.Params(), ctx(tree))
    assert len(result["packages"]) == 9
    manifests_text = "".join((repo / "composer.json").read_text() for repo in sorted(tree.iterdir()))
    extra = "".join(
        run(["git", "-C", str(repo), "tag", "--list"]).stdout.decode()
        + run(["grep", "-H", "level:", str(repo / "phpstan.neon.dist")]).stdout.decode()
        for repo in sorted(tree.iterdir())
    )
    cli = run(sf_command("composer", "ls"), cwd=tree).stdout.decode()
    raw_tok, toon_tok, json_tok, cli_tok = (
        estimate(manifests_text),
        estimate(toon(result)),
        estimate(compact(result)),
        estimate(cli),
    )
    rows = [
        ["`sf composer ls` TOON (9 packages)", toon_tok, ratio(raw_tok, toon_tok), "≥ 7×"],
        ["`sf composer ls` compact JSON (MCP)", json_tok, ratio(raw_tok, json_tok), "≥ 3.5×"],
        ["`cat */composer.json`", raw_tok, "1.00×", ""],
        ["… plus `git tag` and `grep level:` per package", estimate(manifests_text + extra), "", ""],
    ]
    assert abs(cli_tok - toon_tok) <= 2, (cli_tok, toon_tok)

    many = WORK / "fifty"
    shutil.rmtree(many, ignore_errors=True)
    repos = []
    for index in range(50):
        repo = many / f"pkg{index:02d}"
        repo.mkdir(parents=True)
        (repo / "composer.json").write_text(
            json.dumps({"name": f"acme/pkg{index:02d}", "require": {"php": ">=8.1"}})
        )
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "init")
        for tag in ("v1.0.0", "v1.1.0", "v2.0.0-RC1"):
            git(repo, "tag", tag)
        repos.append(repo)
    probe_list = "".join(f"{repo}\0" for repo in repos).encode()

    def probes() -> None:
        subprocess.run(
            ["xargs", "-0", "-P", "8", "-I{}", "git", "-C", "{}", "tag", "--list"],
            input=probe_list,
            capture_output=True,
            check=True,
        )

    probe_s = median_seconds(probes, repeat=7)
    ls_s = median_seconds(lambda: ls.run(ls.Params(), ctx(many)), repeat=7)
    timing = [
        [
            "`composer_ls` (in process: walk, parse, 50 tag probes 8 at a time)",
            f"{ls_s * 1000:.0f} ms",
            ratio(ls_s, probe_s),
            "≤ 1.5×",
        ],
        ["the 50 `git tag --list` probes alone (`xargs -P 8`)", f"{probe_s * 1000:.0f} ms", "1.00×", ""],
    ]
    section(
        "Composer: `sf composer ls`",
        table(["output", "tokens", "smaller by", "bar"], rows)
        + "\n\n"
        + table(["50 packages in 50 repositories", "median wall", "vs probes", "bar"], timing),
        COMMAND,
    )


CS_CLEAN = """PHP CS Fixer 3.64.0 Persian Successor by Fabien Potencier, Dariusz Ruminski and contributors.
PHP runtime: 8.2.26
Loaded config default from "{cwd}/.php-cs-fixer.dist.php".
Using cache file ".php-cs-fixer.cache".

Found 0 of 14 files that can be fixed in 0.050 seconds, 14.00 MB memory used
"""

QA_TOOLS = {"php-cs-fixer": "cs", "phpstan": "phpstan", "phpunit": "test"}
FAILING = {"enum": "phpunit-failures", "http-client": "phpstan-errors", "money": "php-cs-fixer"}
"""Three of the nine packages fail their check: PHPUnit failures, PHPStan errors, code style."""


def qa_tree(root: Path) -> list[Path]:
    """The nine packages with `vendor/bin` stand-ins for php-cs-fixer, PHPStan and PHPUnit that
    replay recorded runs, so `composer check` runs `@cs`, `@phpstan` and `@test` as in a real package."""
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(RECORDINGS, root / "tools")
    (root / "tools" / "recordings" / "php-cs-fixer-clean.txt").write_text(CS_CLEAN)
    packages = []
    for index, (name, description, _) in enumerate(PACKAGES):
        package = root / name
        (package / "vendor" / "bin").mkdir(parents=True)
        (package / "composer.json").write_text(
            json.dumps(manifest(name, description, index), indent=4) + "\n"
        )
        failing = FAILING.get(name, "")
        for tool in QA_TOOLS:
            recording = {
                "php-cs-fixer": "php-cs-fixer-clean",
                "phpstan": "phpstan-ok",
                "phpunit": "phpunit-ok",
            }[tool]
            code = 0
            if failing.startswith(tool):
                recording, code = failing, 8 if tool == "php-cs-fixer" else 1
            stub = package / "vendor" / "bin" / tool
            stub.write_text(
                f"#!/usr/bin/env php\n<?php\nrequire '{root}/tools/replay.php';\nreplay('{recording}', {code});\n"
            )
            stub.chmod(0o755)
        packages.append(package)
    return packages


def sleep_tree(root: Path, seconds: tuple[float, ...]) -> None:
    """Packages whose check sleeps for a given time, then replays a recorded run."""
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(RECORDINGS, root / "tools")
    for index, wait in enumerate(seconds):
        command = (
            f"php -r \"usleep({int(wait * 1e6)}); require '../tools/replay.php'; replay('phpunit-ok', 0);\""
        )
        package = root / f"pkg{index}"
        package.mkdir(parents=True)
        (package / "composer.json").write_text(
            json.dumps({"name": f"acme/pkg{index}", "scripts": {"check": command}})
        )


def raw_check(package: Path) -> tuple[float, str]:
    """What `composer check` prints in a terminal (stdout and stderr together), and how long it took."""
    started = time.perf_counter()
    done = subprocess.run(
        "composer check 2>&1",
        shell=True,
        cwd=package,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "COMPOSER_NO_INTERACTION": "1"},
    )
    return time.perf_counter() - started, done.stdout.decode()


def check_section() -> None:
    seconds = (1.0, 0.8, 0.6, 0.4, 0.2)
    sleeps = WORK / "checks-sleeping"
    sleep_tree(sleeps, seconds)
    singles = [raw_check(sleeps / f"pkg{index}")[0] for index in range(len(seconds))]
    parallel_s = median_seconds(lambda: check.run(check.Params(jobs=len(seconds)), ctx(sleeps)), repeat=3)
    longest, total = max(singles), sum(singles)
    timing = [
        [
            f"`composer_check` with jobs={len(seconds)}",
            f"{parallel_s:.2f} s",
            ratio(parallel_s, longest),
            "≤ 1.2×",
            ratio(total, parallel_s),
        ],
        ["the longest single `composer check`", f"{longest:.2f} s", "1.00×", "", ""],
        ["the five `composer check` one after another", f"{total:.2f} s", ratio(total, longest), "", "1.00×"],
    ]

    tree = WORK / "checks-qa"
    packages = qa_tree(tree)
    raw = {package.name: raw_check(package)[1] for package in packages}
    result = check.run(check.Params(jobs=4), ctx(tree))
    assert result["summary"]["fail"] == len(FAILING), result
    full_toon, full_json = estimate(toon(result)), estimate(compact(result))
    rows = []
    for name in sorted(FAILING):
        others = {**result, "results": [r for r in result["results"] if r["dir"] != name]}
        row_toon = full_toon - estimate(toon(others))
        row_json = full_json - estimate(compact(others))
        raw_tok = estimate(raw[name])
        rows.append(
            [
                f"{name} ({FAILING[name]})",
                raw_tok,
                row_toon,
                ratio(raw_tok, row_toon),
                row_json,
                ratio(raw_tok, row_json),
            ]
        )
    all_raw = estimate("".join(raw.values()))
    rows.append(
        [
            "all nine packages (3 failing)",
            all_raw,
            full_toon,
            ratio(all_raw, full_toon),
            full_json,
            ratio(all_raw, full_json),
        ]
    )
    section(
        "Composer: `sf composer check`",
        table(
            [
                "checks sleeping 1.0/0.8/0.6/0.4/0.2 s",
                "median wall",
                "vs longest",
                "bar",
                "faster than sequential",
            ],
            timing,
        )
        + "\n\n"
        + table(
            [
                "package (raw = `composer check 2>&1`)",
                "raw tokens",
                "TOON",
                "smaller by (bar ≥ 17×)",
                "JSON (MCP)",
                "smaller by",
            ],
            rows,
        )
        + "\n\nPer failing package, TOON and JSON count what its row adds to the result.",
        COMMAND,
    )


def packagist_section() -> None:
    tree = WORK / "released"
    package_tree(tree, with_origins=True)
    fake = FakePackagist().start()
    os.environ["SOFIA_PACKAGIST_URL"] = fake.url
    try:
        documents = []
        for index, (name, _, releases) in enumerate(PACKAGES):
            published = list(reversed(release_tags(releases - (index % 3 == 1))))
            document = p2_document(f"acme/{name}", ["dev-main", *published])
            fake.serve(f"acme/{name}", Reply(200, document))
            documents.append(document.decode())
        result = status.run(status.Params(), ctx(tree))
        raw_tok = estimate("".join(documents))
        toon_tok, json_tok = estimate(toon(result)), estimate(compact(result))
        rows = [
            ["`sf packagist status` TOON (9 packages)", toon_tok, ratio(raw_tok, toon_tok), "≥ 23×"],
            ["`sf packagist status` compact JSON (MCP)", json_tok, ratio(raw_tok, json_tok), "≥ 11.5×"],
            ["the nine p2 documents (`curl repo.packagist.org/p2/<name>.json`)", raw_tok, "1.00×", ""],
        ]
        wide = WORK / "twenty"
        shutil.rmtree(wide, ignore_errors=True)
        for group in range(4):
            repo = wide / f"mono{group}"
            for index in range(5):
                package = repo / "packages" / f"p{index}"
                package.mkdir(parents=True)
                name = f"acme/m{group}-p{index}"
                (package / "composer.json").write_text(json.dumps({"name": name}))
                fake.serve(name, Reply(200, p2_document(name, ["v1.1.0", "v1.0.0"]), delay=0.3))
            git(repo, "init", "-q", "-b", "main")
            git(repo, "add", "-A")
            git(repo, "commit", "-q", "-m", "init")
            git(repo, "tag", "v1.1.0")
            bare = wide / f"mono{group}.git"
            git(wide, "init", "-q", "--bare", "-b", "main", str(bare))
            git(repo, "remote", "add", "origin", bare.as_uri())
            git(repo, "push", "-q", "origin", "main", "v1.1.0")
        online_s = median_seconds(lambda: status.run(status.Params(), ctx(wide)), repeat=5)
        offline_s = median_seconds(lambda: status.run(status.Params(offline=True), ctx(wide)), repeat=5)
        ls_remote_s = median_seconds(
            lambda: [
                run(["git", "-C", str(wide / f"mono{g}"), "ls-remote", "--tags", "origin"]) for g in range(4)
            ],
            repeat=5,
        )
        target = 3 * 0.3 + offline_s + ls_remote_s
        timing = [
            [
                "`packagist_status` (20 packages, 4 repositories, 300 ms per p2 answer)",
                f"{online_s:.2f} s",
                ratio(online_s, target),
                "≤ 1.5×",
            ],
            ["3 × 300 ms + git time (offline run + the 4 `ls-remote` calls)", f"{target:.2f} s", "1.00×", ""],
        ]
    finally:
        fake.stop()
    section(
        "Packagist: `sf packagist status`",
        table(["output", "tokens", "smaller by", "bar"], rows)
        + "\n\n"
        + table(["wall time", "median", "vs target", "bar"], timing),
        COMMAND,
    )


def main() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    if shutil.which("composer") is None or shutil.which("php") is None:
        raise SystemExit("composer and php are needed (apt-get install composer php-cli)")
    ls_section()
    check_section()
    packagist_section()


if __name__ == "__main__":
    main()
