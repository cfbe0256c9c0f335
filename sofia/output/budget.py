"""Fitting results into the output budget: one toolkit, one truncation shape, one wording.

Every provider shortens the same way and says so the same way:

* **what was left out** is `result["omitted"]`, an object mapping the key of each shortened list
  to the exact number of its items not shown (`{"hits": 412, "files": 3}`); the key is present
  only when something was left out, so its absence means the result is complete. A list inside
  a nested object is named by its path, dots between keys and `[i]` for a list index
  (`subagents.tasks`, `files[0].functions`);
* **why, and how to narrow** is one note per shortened list in `result["notes"]`, worded by
  `note()`: `hits: showing 30 of 442 hits (budget 20000 tok); pass exts or a narrower root`, with
  the limit that cut it besides the budget when there is one (`limit=30`);
* **a text or a form made shorter** (nothing left out of a list) says so in the same frame, worded
  by `shortened_note()`: `prompts: 3 texts cut to 100 characters (budget 300 tok); <hint>`;
* **the last resort**, when every step of the ladder still leaves the result too large, is the
  one `FLOOR_NOTE`.

A provider describes its result as `build(knobs)`, a pure function of a few integer knobs (rows
kept, characters per text), and its ladder as steps over those knobs (`fit`); or, when its result
is a document with row lists, drops trailing rows list by list (`keep_prefix`). Because the
counts derive from the knobs, every cut is counted exactly, and the binary search on row counts
makes the outcome deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sofia.output.jsonfmt import compact
from sofia.output.tokens import estimate

MARGIN = 300
"""Tokens kept free for notes and totals when units are added one by one."""
FLOOR_NOTE = "still over the output budget of {budget} tokens after every shortening; narrow the call"

Knobs = dict[str, int]
Build = Callable[[Knobs], dict[str, Any]]
Measure = Callable[[dict[str, Any]], int]


def cost(obj: Any) -> int:
    """Estimated tokens of the compact JSON encoding of `obj` (what an MCP client receives)."""
    return estimate(compact(obj))


def fits(obj: Any, budget: int | None) -> bool:
    return budget is None or cost(obj) <= budget


GALLOP_FROM = 64
"""The first row count `largest_prefix` tries on a long list, doubling from there: a search
tries the whole list only once every smaller count fits, so 40,000 candidate rows under a
budget that holds a thousand are never all built (refs resolves each use's enclosing symbol, a
parse of its file, only for the rows it builds)."""


def largest_prefix(count: int, fits_with: Callable[[int], bool]) -> int:
    """The largest `k` in `0..count` for which `fits_with(k)` holds, assuming it holds for all smaller k.

    Galloping, then binary search: counts double from GALLOP_FROM until one does not fit (or the
    whole list does), then the gap is halved, so the rows built follow what fits, not the list's
    length, and a list of 10,000 rows still needs fewer than 20 encodings.
    """
    low, probe = 0, GALLOP_FROM  # fits_with(low) assumed
    while probe < count:
        if not fits_with(probe):
            return _bisect(low, probe, fits_with)
        low, probe = probe, probe * 2
    if fits_with(count):
        return count
    return _bisect(low, count, fits_with)


def _bisect(low: int, high: int, fits_with: Callable[[int], bool]) -> int:
    """The largest fitting count in `low..high`, given that `low` fits and `high` does not."""
    while high - low > 1:
        mid = (low + high) // 2
        if fits_with(mid):
            low = mid
        else:
            high = mid
    return low


def note(
    what: str, shown: int, total: int, unit: str, budget: int | None, hint: str, *, limit: str = ""
) -> str:
    """The one-line truncation note: `<what>: showing X of Y <unit> (<why>); <hint>`.

    `why` is `budget N tok`, or `limit`, what else cut the list (`limit=30`, `first 10 and last
    5`), or both; pass `budget=None` when the budget did not cut the list.
    """
    return f"{what}: showing {shown} of {total} {unit} ({_why(budget, limit)}); {hint}"


def shortened_note(what: str, change: str, budget: int | None, hint: str) -> str:
    """The note for a text or a form made shorter: `<what>: <change> (budget N tok); <hint>`.

    `change` says exactly what was done, with its count: `3 texts cut to 100 characters`, `content
    cut at line 812 of 5120`, `brief form`.
    """
    return f"{what}: {change} ({_why(budget, '')}); {hint}"


def texts_cut(count: int, limit: int, unit: str = "characters", noun: str = "text") -> str:
    """The `change` of `shortened_note` for `count` texts cut to `limit` units each:
    `3 texts cut to 100 characters`, `12 cells cut to 3 names`."""
    return f"{count} {noun}{'' if count == 1 else 's'} cut to {limit} {unit}"


def _why(budget: int | None, limit: str) -> str:
    reasons = [limit] if limit else []
    if budget is not None:
        reasons.append(f"budget {budget} tok")
    return ", ".join(reasons) or "no budget"


def floor_note(budget: int | None) -> str:
    return FLOOR_NOTE.format(budget=budget)


def omitted(counts: Mapping[str, int]) -> dict[str, int]:
    """The `omitted` value for `counts`: only what was really left out, in a stable order."""
    return {key: value for key, value in counts.items() if value > 0}


def with_omitted(result: dict[str, Any], counts: Mapping[str, int]) -> dict[str, Any]:
    """`result` with its `omitted` key set from `counts` (removed when nothing was left out)."""
    kept = omitted(counts)
    if kept:
        result["omitted"] = kept
    else:
        result.pop("omitted", None)
    return result


# -- ladders over knobs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Shrink:
    """Keep the largest number of rows, down to `floor`, that lets the result fit."""

    knob: str
    floor: int = 0


@dataclass(frozen=True)
class Lower:
    """Lower knobs to fixed values (never raising one)."""

    values: Mapping[str, int]


Step = Shrink | Lower


def fit(
    build: Build, knobs: Knobs, ladder: Sequence[Step], budget: int | None, measure: Measure = cost
) -> dict[str, Any]:
    """The result of the first ladder position that fits; past the last step, with the floor note.

    `build` must derive `omitted` and its notes from the knobs, so what it says is always exact.
    `measure` is the result's size in tokens: `cost` unless the result travels in another form
    (a text rendering, say), which must then be what is measured. A ladder that starts by
    shrinking a list does not build the whole result first: the list's search tries the whole
    list only once every shorter one fits (`largest_prefix`), so an answer with a thousand times
    more rows than fit costs what fits. Each position is built once.
    """
    if budget is None:
        return build(knobs)
    built: dict[tuple[tuple[str, int], ...], tuple[dict[str, Any], int]] = {}

    def sized(trial: Knobs) -> tuple[dict[str, Any], int]:
        key = tuple(sorted(trial.items()))
        if key not in built:
            result = build(trial)
            built[key] = (result, measure(result))
        return built[key]

    if not (ladder and isinstance(ladder[0], Shrink)):
        result, size = sized(knobs)
        if size <= budget:
            return result
    for step in ladder:
        if isinstance(step, Lower):
            for knob, value in step.values.items():
                knobs[knob] = min(knobs[knob], value)
        else:
            knobs[step.knob] = _shrink(sized, knobs, step, budget)
        result, size = sized(knobs)
        if size <= budget:
            return result
    result.setdefault("notes", []).append(floor_note(budget))
    return result


def _shrink(
    sized: Callable[[Knobs], tuple[dict[str, Any], int]], knobs: Knobs, step: Shrink, budget: int
) -> int:
    current = knobs[step.knob]
    floor = min(step.floor, current)

    def fits_with(extra: int) -> bool:
        trial = dict(knobs)
        trial[step.knob] = floor + extra
        return sized(trial)[1] <= budget

    return floor + largest_prefix(current - floor, fits_with)


# -- row lists of a document ----------------------------------------------------------------------


def keep_prefix(
    result: dict[str, Any],
    key: str,
    budget: int | None,
    unit: str,
    hint: str,
    keep_at_least: int = 0,
    total: int | None = None,
) -> bool:
    """Keep the largest prefix of `result[key]` that lets `result` fit; True when it fits afterwards.

    Never drops the first `keep_at_least` rows. Counts what was dropped in `omitted[key]` (on top
    of `total - len(rows)` already left out before, when `total` is given) and adds the one note.
    """
    if fits(result, budget):
        return True
    rows: list[Any] = result[key]
    shown = len(rows)
    whole = total if total is not None else shown
    if shown <= keep_at_least:
        return False
    before = dict(result.get("omitted", {}))
    notes = list(result.get("notes", []))

    def shortened(keep: int) -> dict[str, Any]:
        trial = dict(result)
        trial[key] = rows[:keep]
        trial["notes"] = [*notes, note(key, keep, whole, unit, budget, hint)]
        counts = {**before, key: before.get(key, 0) + shown - keep}
        return with_omitted(trial, counts)

    extra = largest_prefix(shown - keep_at_least, lambda k: fits(shortened(keep_at_least + k), budget))
    final = shortened(keep_at_least + extra)
    result.clear()
    result.update(final)
    return fits(result, budget)


def add_floor_note(result: dict[str, Any], budget: int | None) -> None:
    """The last resort: the result still does not fit after every step of the ladder."""
    if not fits(result, budget):
        result.setdefault("notes", []).append(floor_note(budget))
