"""`sf refs` against semantic reference finders on real public code: per language and symbol
category, the recall of the oracle's uses, the precision of `exact` matches, of all matches and
of `name` matches, and the share of confirmed uses marked exact. Prints one table and the worst
misses (examples of missed and false uses).

    python bench/bench_refs_oracle.py [LANG ...] [--oracle-only] [--refs-source DIR] [--fresh]

Corpora and oracles, installed at bench time into bench/.cache/refs_oracle (see
bench/refs_oracle/corpora.py and docs/refs-oracle.md): Python `rich` from PyPI with jedi, the
TypeScript sources of `rxjs` from npm with the `typescript` language service, Go from Debian's
`golang-*-dev` packages with a go/types program (Debian's Go 1.19, no network needed), PHP from
Debian's `php-symfony-*`/`php-twig` packages with the intelephense language server from npm,
Java from Debian's `openjdk-17-source` with a program on the JDK's compiler API (javac from
`openjdk-17-jdk-headless`), C and C++ from the Brotli and LightGBM sdists with Debian's clangd.
`--oracle-only` writes the ground truth (bench/.cache/refs_oracle/LANG/truth.json) and stops;
`--refs-source` runs `sf refs` from another checkout (default: this one).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import harness
from harness import ROOT, section, table
from refs_oracle import corpora
from refs_oracle.choose import MIN_USES, SEED, choose
from refs_oracle.locations import Corpus
from refs_oracle.model import Truth
from refs_oracle.oracles import start
from refs_oracle.refs_client import refs_available, run_refs, run_rg
from refs_oracle.score import HEADER, Scored, rows, score, worst

HERE = Path(__file__).resolve().parent
LANGS = ("python", "ts", "go", "php", "java", "c", "cpp", "python-app")
SETUP = {
    "python": corpora.python_corpus,
    "python-app": corpora.python_app_corpus,
    "ts": corpora.ts_corpus,
    "go": corpora.go_corpus,
    "php": corpora.php_corpus,
    "java": corpora.java_corpus,
    "c": corpora.c_corpus,
    "cpp": corpora.cpp_corpus,
}


def truth_path(lang: str) -> Path:
    return corpora.HOME / lang / "truth.json"


SCORING_ONLY = ("refs_client.py", "score.py")
"""Modules that read refs' answers and score them: the ground truth does not depend on them."""


def stamp(corpus: corpora.Corpus) -> str:
    """What a cached ground truth depends on: the corpus, the seed and the oracle's own code."""
    digest = hashlib.sha256()
    for path in sorted((HERE / "refs_oracle").rglob("*")):
        if path.is_file() and path.suffix in (".py", ".js", ".go", ".java") and path.name not in SCORING_ONLY:
            digest.update(path.read_bytes())
    return f"{corpora.CORPUS_VERSION} {SEED} {MIN_USES} {' '.join(corpus.packages)} {digest.hexdigest()[:16]}"


def build_truth(corpus: corpora.Corpus, fresh: bool) -> Truth:
    path = truth_path(corpus.lang)
    stamp_path = path.with_suffix(".stamp")
    if not fresh and path.exists() and stamp_path.exists() and stamp_path.read_text() == stamp(corpus):
        corpora.say(f"{corpus.lang}: ground truth from {path}")
        return Truth.load(path)
    text = Corpus(corpus.root, corpus.oracle_lang)
    started = time.perf_counter()
    oracle = start(text)
    try:
        definitions = oracle.definitions()
        files = sorted({d.file for d in definitions} | set(all_files(corpus)))
        queries, sites = choose(oracle, text, definitions, files, corpora.say)
    finally:
        oracle.close()
    truth = Truth(
        lang=corpus.lang,
        oracle=oracle.name,
        corpus=str(corpus.root.relative_to(ROOT)) if corpus.root.is_relative_to(ROOT) else str(corpus.root),
        corpus_packages=list(corpus.packages),
        files=oracle.files,
        unresolved_files=oracle.unresolved,
        queries=queries,
        definition_sites=sorted(sites),
        seed=SEED,
        min_uses=MIN_USES,
        unresolved_lines=getattr(oracle, "unresolved_lines", {}),
    )
    truth.dump(path)
    if queries:
        stamp_path.write_text(stamp(corpus))
    corpora.say(
        f"{corpus.lang}: {len(queries)} symbols, {sum(len(q.uses) for q in queries)} uses by {oracle.name} "
        f"in {time.perf_counter() - started:.0f} s -> {path}"
    )
    return truth


SUFFIXES = {
    "python": (".py",),
    "python-app": (".py",),
    "ts": (".ts", ".tsx"),
    "go": (".go",),
    "php": (".php",),
    "java": (".java",),
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx"),
}


def all_files(corpus: corpora.Corpus) -> list[str]:
    return sorted(
        p.relative_to(corpus.root).as_posix()
        for p in corpus.root.rglob("*")
        if p.is_file() and p.name.endswith(SUFFIXES[corpus.lang])
    )


def score_language(
    truth: Truth, corpus: corpora.Corpus, source: Path | None
) -> tuple[list[Scored], list[Scored]]:
    """`sf refs` (unless `source` is None) and `rg -w` on every query, scored against the truth."""
    text = Corpus(corpus.root, corpus.oracle_lang)
    sites = set(truth.definition_sites)
    scored, baseline = [], []
    started = time.perf_counter()
    for query in truth.queries:
        if source is not None:
            scored.append(score(query, run_refs(query.text, text, source), truth, sites))
        baseline.append(score(query, run_rg(query.text, text), truth, sites))
    corpora.say(f"{corpus.lang}: {len(truth.queries)} queries run in {time.perf_counter() - started:.0f} s")
    details = [
        {
            "query": s.query.text,
            "category": s.query.category,
            **asdict(s.tally),
            "missed": [asdict(m) for m in s.missed],
            "false": [{**asdict(u.location), "match": u.match, "kind": u.kind} for u in s.false],
        }
        for s in scored or baseline
    ]
    (corpora.HOME / corpus.lang / "scores.json").write_text(json.dumps(details, indent=1) + "\n")
    return scored, baseline


def describe(truth: Truth) -> str:
    counts: dict[str, int] = {}
    for q in truth.queries:
        counts[q.category] = counts.get(q.category, 0) + 1
    split = ", ".join(f"{n} {c}" for c, n in counts.items())
    return (
        f"* {truth.lang}: {', '.join(truth.corpus_packages)} — {truth.files} files; oracle {truth.oracle}; "
        f"{len(truth.queries)} symbols ({split}); {len(truth.unresolved_files)} files the oracle could not "
        "fully resolve (uses returned there are not judged)"
        + (
            f"; {sum(map(len, truth.unresolved_lines.values()))} lines of {len(truth.unresolved_lines)} files "
            "the oracle does not parse (inactive preprocessor branches, macro bodies; not judged either)"
            if truth.unresolved_lines
            else ""
        )
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "langs", nargs="*", metavar="LANG", help=f"languages ({', '.join(LANGS)}; default: all)"
    )
    parser.add_argument("--oracle-only", action="store_true", help="write the ground truth JSON and stop")
    parser.add_argument("--refs-source", type=Path, default=ROOT, help="checkout whose `sf refs` is scored")
    parser.add_argument(
        "--baseline-only", action="store_true", help="score only `rg -w` (checks the bench without sf refs)"
    )
    parser.add_argument("--fresh", action="store_true", help="rebuild the ground truth even if cached")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.langs) - set(LANGS))
    if unknown:
        parser.error(f"unknown language {', '.join(unknown)}: choose from {', '.join(LANGS)}")
    langs = args.langs or list(LANGS)
    source = args.refs_source.resolve()
    missing = ""
    if not (args.oracle_only or args.baseline_only):
        why = refs_available(source)
        if why:
            missing = (
                f"`sf refs` does not run from {source} ({why.splitlines()[-1]}): only `rg -w` is scored."
            )
            print(missing, file=sys.stderr)
            args.baseline_only = True
    started = time.perf_counter()
    truths = {}
    all_rows: list[list[str]] = []
    misses: list[str] = []
    for lang in langs:
        corpus = SETUP[lang]()
        truths[lang] = build_truth(corpus, args.fresh)
        if args.oracle_only:
            continue
        scored, baseline = score_language(truths[lang], corpus, None if args.baseline_only else source)
        all_rows += rows(lang, scored or baseline, baseline)
        misses += [f"**{lang}**", "", *worst(Corpus(corpus.root, corpus.oracle_lang), scored or baseline), ""]
    intro = "\n".join(describe(t) for t in truths.values())
    command = "python bench/bench_refs_oracle.py" + (" " + " ".join(args.langs) if args.langs else "")
    if args.oracle_only:
        print(intro)
        print(f"\nground truth written under {corpora.HOME} in {time.perf_counter() - started:.0f} s")
        return 0
    body = "\n\n".join(
        [
            *([f"**{missing}**"] if missing else []),
            intro,
            table(HEADER, all_rows),
            f"Whole run (installs cached, ground truth built): {time.perf_counter() - started:.0f} s.",
            "Worst misses:\n\n" + "\n".join(misses),
        ]
    )
    section("refs against a semantic oracle", body, command)
    return 0


if __name__ == "__main__":
    harness.CACHE.mkdir(parents=True, exist_ok=True)
    raise SystemExit(main(sys.argv[1:]))
