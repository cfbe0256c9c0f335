"""The values the route evaluator computes: what a JS expression in a router module stands for, as
far as it can be known without running it. Anything else is an `Unknown` that remembers where and
why, so what is not followed can always be named."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sofia.providers.vue.modules import Module


@dataclass(frozen=True)
class Origin:
    """A node of a module: where a value came from or could not be followed."""

    module: Module
    node: Any

    @property
    def line(self) -> int:
        return self.module.line(self.node)


@dataclass(frozen=True)
class Unknown:
    """A value that cannot be known statically (a call to an API, a run-time condition, ...)."""

    origin: Origin
    why: str


class _Singleton:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNDEFINED = _Singleton("undefined")
NULL = _Singleton("null")


@dataclass(eq=False)
class Array:
    """A JS array. `via` names calls the routes passed through unevaluated; `gaps` names statements
    that change this array but could not be followed."""

    items: list[Any] = field(default_factory=list)
    via: list[Origin] = field(default_factory=list)
    gaps: list[Origin] = field(default_factory=list)

    def absorb(self, other: Array) -> None:
        """Take `other`'s provenance along with its items (spread, concat, flat)."""
        self.via.extend(o for o in other.via if o not in self.via)
        self.gaps.extend(o for o in other.gaps if o not in self.gaps)


@dataclass(eq=False)
class Obj:
    """An object built while evaluating (a glob's result, a reduce accumulator), keys in order."""

    props: dict[str, Any] = field(default_factory=dict)
    modules: bool = False
    """Every value is a loaded module (an eager glob or a require.context map)."""


@dataclass(eq=False)
class Scope:
    """Variables of a block or function, then its parent's; the outermost is a module's."""

    module: Module
    parent: Scope | None = None
    names: dict[str, Any] = field(default_factory=dict)

    def find(self, name: str) -> Scope | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope
            scope = scope.parent
        return None


@dataclass(frozen=True, eq=False)
class ObjectLit:
    """An object literal, evaluated property by property when read (a route is one)."""

    scope: Scope
    node: Any

    @property
    def module(self) -> Module:
        return self.scope.module


@dataclass(frozen=True, eq=False)
class Func:
    """A function or arrow function and the scope it closes over."""

    scope: Scope
    node: Any


@dataclass(frozen=True)
class Namespace:
    """A loaded module seen from outside (`import * as ns`, an eager glob entry)."""

    module: Module


@dataclass(frozen=True)
class FileRef:
    """A file imported for what it is, not evaluated: a `.vue` component, an asset."""

    path: Path


@dataclass(frozen=True)
class LazyModule:
    """`() => import(x)`: a lazy glob entry, called to get a Promise of the module at `path` (or
    of its export `name`); the module is read only when called."""

    path: Path
    name: str = ""


@dataclass(frozen=True)
class Promise:
    value: Any


@dataclass(frozen=True)
class Context:
    """What `require.context(...)` returns: call it with a key to get that module."""

    entries: tuple[tuple[str, Any], ...]
    origin: Origin


@dataclass(frozen=True)
class Regex:
    pattern: str
    flags: str


@dataclass(frozen=True)
class Builtin:
    """A standard function the evaluator knows (`Object.prototype.toString`)."""

    name: str


@dataclass(frozen=True)
class ImportMeta:
    """`import.meta`, whose `glob`/`globEager` the evaluator resolves."""


def truthy(value: Any) -> bool | None:
    """JS truthiness when it can be told, else None."""
    if isinstance(value, Unknown):
        return None
    if value is UNDEFINED or value is NULL:
        return False
    if isinstance(value, (bool, int, float, str)):
        return bool(value)
    return True
