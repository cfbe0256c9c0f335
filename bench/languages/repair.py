"""How often the whole parse is repaired (`sofia.syntax.bodies.repaired`): over a language's
draw, the files whose first parse held errors, those a repair was tried on and those it mended,
the symbols it gave back or put right, and what the attempts cost."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

REPAIR_SAMPLE = 400
"""Files drawn per language (the same draw as the ctags oracle's first files)."""


def repair_row(lang: str, files: list[Path]) -> list[object]:
    """[lang, files, first parse with errors, checked, repaired (symbols back or put right), time of the checks, of the repairs]."""
    from sofia.syntax import ParseUnavailable, bodies, language_for, parse, queried

    tries: list[tuple[float, bool]] = []
    real = bodies.repaired

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        found = real(*args, **kwargs)
        tries.append((time.perf_counter() - start, found is not None))
        return found

    with_errors = 0
    mended: list[str] = []
    bodies.repaired = timed
    try:
        for path in files:
            source = path.read_bytes()
            name = language_for(path) or lang
            try:
                tree = parse(source, name)
            except ParseUnavailable:
                continue
            parsed = queried._LAST[0] if queried._LAST else None
            first = parsed.broken if parsed is not None and parsed.broken is not None else None
            with_errors += bool(tree.parse_errors) or first is not None
            if tree.unparsed and parsed is not None and first is not None:
                before = queried.symbol_tree(queried.read(source, parsed.lang, first))
                back = len(_placed(tree) - _placed(before))
                mended.append(f"{path.name} ({back})")
    finally:
        bodies.repaired = real
    return [
        lang,
        len(files),
        with_errors,
        len(tries),
        f"{len(mended)}" + (f": {', '.join(mended)}" if mended else ""),
        _spread([seconds for seconds, _ in tries]),
        _spread([seconds for seconds, fixed in tries if fixed]),
    ]


def _placed(tree: Any) -> set[tuple[str, int, int]]:
    """Each symbol's qualified name and lines: a repair gives a symbol back or puts it right
    (a function read inside the one before it gets its own name and lines again)."""
    return {(s.qname, s.line, s.end_line) for s in tree.walk()}


def _spread(seconds: list[float]) -> str:
    """`1.2 ms in all, 0.1–0.9 ms each`; "" for none."""
    if not seconds:
        return ""
    return f"{1000 * sum(seconds):.1f} ms in all, {1000 * min(seconds):.1f}–{1000 * max(seconds):.1f} ms each"
