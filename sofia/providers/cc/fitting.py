"""Budget ladders: shorten a result step by step until it fits the output budget.

A provider describes its result as `build(knobs)`, a pure function of a few integer knobs (rows
kept, characters per text), and its ladder as steps over those knobs. Because `build` derives
`omitted` and the notes from the knobs, every cut is counted exactly, and the binary search on
row counts makes the outcome deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Knobs = dict[str, int]
Build = Callable[[Knobs], dict[str, Any]]


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


def fit(build: Build, knobs: Knobs, ladder: Sequence[Step], budget: int | None) -> dict[str, Any]:
    """The result of the first ladder position that fits; past the last step, with a floor note."""
    from sofia.output.budget import cost

    result = build(knobs)
    if budget is None or cost(result) <= budget:
        return result
    for step in ladder:
        if isinstance(step, Lower):
            for knob, value in step.values.items():
                knobs[knob] = min(knobs[knob], value)
        else:
            knobs[step.knob] = _shrink(build, knobs, step, budget)
        result = build(knobs)
        if cost(result) <= budget:
            return result
    result["notes"].append(
        f"still over the output budget of {budget} tokens after shortening; narrow the call"
    )
    return result


def _shrink(build: Build, knobs: Knobs, step: Shrink, budget: int) -> int:
    from sofia.output.budget import cost, largest_prefix

    current = knobs[step.knob]
    floor = min(step.floor, current)

    def fits_with(extra: int) -> bool:
        trial = dict(knobs)
        trial[step.knob] = floor + extra
        return cost(build(trial)) <= budget

    return floor + largest_prefix(current - floor, fits_with)
