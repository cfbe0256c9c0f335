"""Lookups by region against the whole parse: in a language whose file-level declarations its text
tells apart (`Spec.regions`), `code DIR NAME` parses only the declarations holding the name. Over
a language's draw, each of a file's first names (sorted) is looked up both ways and the
definitions compared (kind and slice bytes), with the bytes each way parsed and the time it took."""

from __future__ import annotations

import time
from pathlib import Path

LOOKUP_SAMPLE = 300
"""Files drawn (the first of the ctags oracle's draw)."""
NAMES_PER_FILE = 8
"""Names looked up per file: the first in sorted order, so a run is repeatable."""


def lookup_row(lang: str, files: list[Path]) -> list[object]:
    """[lang, files, names, agree, differ (examples), whole file (regions most of it), whole file
    (regions not trusted), bytes parsed, time per lookup]."""
    from sofia.syntax import ParseUnavailable, language_for, parse, queried

    names = agree = 0
    differ: list[str] = []
    fell_back = 0
    held_bytes = whole_bytes = 0
    held_time = whole_time = 0.0
    real = queried.extract
    regions = queried._in_regions
    whole_files = 0

    def counted(source: bytes, name: str, file: str = "") -> object:
        nonlocal fell_back
        fell_back += 1
        return real(source, name, file)

    def region_tree(source: bytes, name: str, words: object) -> object:
        nonlocal whole_files
        tree = regions(source, name, words)  # type: ignore[arg-type]
        whole_files += tree is None
        return tree

    for path in files:
        source = path.read_bytes()
        name = language_for(path) or lang
        try:
            start = time.perf_counter()
            whole = parse(source, name, str(path))
            elapsed = time.perf_counter() - start
        except ParseUnavailable:
            continue
        for word in sorted({s.name for s in whole.walk()})[:NAMES_PER_FILE]:
            names += 1
            whole_time += elapsed
            whole_bytes += len(source)
            queried.extract = counted  # type: ignore[assignment]
            queried._in_regions = region_tree  # type: ignore[assignment]
            try:
                start = time.perf_counter()
                held = parse(source, name, str(path), holding=[word])
                held_time += time.perf_counter() - start
            finally:
                queried.extract, queried._in_regions = real, regions
            tree = queried._LAST[0].tree if queried._LAST else None
            ranges = tree.included_ranges if tree is not None else []
            held_bytes += sum(min(r.end_byte, len(source)) - r.start_byte for r in ranges) or len(source)
            if _definitions(held, word) == _definitions(whole, word):
                agree += 1
            else:
                differ.append(f"{path.name}: {word}")
    shown = f" ({', '.join(differ[:4])}{' …' if len(differ) > 4 else ''})" if differ else ""
    return [
        lang,
        len(files),
        names,
        f"{agree} ({100 * agree / max(names, 1):.2f} %)",
        f"{len(differ)}{shown}",
        whole_files,
        fell_back - whole_files,
        f"{100 * held_bytes / max(whole_bytes, 1):.1f} %",
        f"{1000 * held_time / max(names, 1):.1f} ms vs {1000 * whole_time / max(names, 1):.1f} ms",
    ]


def _definitions(tree: object, word: str) -> list[tuple[str, int, int]]:
    return sorted(
        (s.kind, s.slice_start_byte, s.slice_end_byte)
        for s in tree.walk()  # type: ignore[attr-defined]
        if s.name == word
    )
