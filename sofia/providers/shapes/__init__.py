"""The JSON shape of every tool's answer, one declaration per tool (`sofia.output.shape` says how
a shape is written). `scripts/docs.py` prints each in the tool's reference page and the tests
hold each tool's real answer to it, so a key added to an answer without its declaration fails.

Each module here (one per tool family, or per tool `scripts/new_tool.py` adds) holds `SHAPES`,
keyed by tool name; `common` holds the parts answers share. `shape_of(name)` finds one.
"""

from __future__ import annotations

import importlib
import pkgutil

from sofia.output.shape import Shape


def shapes() -> dict[str, Shape]:
    """Every declared shape, by tool name; a name declared twice is an error."""
    found: dict[str, Shape] = {}
    for module in sorted(info.name for info in pkgutil.iter_modules(__path__)):
        declared: dict[str, Shape] = getattr(importlib.import_module(f"{__name__}.{module}"), "SHAPES", {})
        for name, shape in declared.items():
            if name in found:
                raise ValueError(
                    f"the shape of {name} is declared twice (sofia/providers/shapes/{module}.py)"
                )
            found[name] = shape
    return found


def shape_of(name: str) -> Shape | None:
    """The shape of the tool named `name`, or None when it declares none."""
    return shapes().get(name)
