"""What the evaluator's helpers (`library`, `loaders`, `calls`) may ask of the evaluator that runs
them: a protocol, so they depend on it and not on `evaluate`, and `evaluate` alone imports them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from sofia.providers.vue.modules import Module, ModuleLoader
from sofia.providers.vue.values import Array, Func, ObjectLit, Origin, Scope


class Host(Protocol):
    """The evaluator as its helpers see it (`sofia.providers.vue.evaluate.Evaluator`)."""

    loader: ModuleLoader
    depth: int
    undecided: list[Origin]
    """Conditions decided at run time whose every branch was followed."""
    truncated: list[Origin]
    """Loaders whose listing stopped at the entry limit."""
    empty: list[Origin]
    """Loaders that matched no file."""
    defaults: dict[Path, Any]
    """Each module's `export default` value."""

    def eval(self, node: Any, scope: Scope) -> Any: ...

    def invoke(self, func: Func, args: list[Any]) -> Any: ...

    def step(self) -> bool: ...

    def bind(self, pattern: Any, value: Any, scope: Scope) -> None: ...

    def run_block(self, body: list[Any], scope: Scope) -> None: ...

    def lookup(self, name: str, scope: Scope, origin: Origin) -> Any: ...

    def member(self, target: Any, name: str, origin: Origin) -> Any: ...

    def property(self, obj: ObjectLit, name: str) -> tuple[Scope, Any] | None: ...

    def keys(self, value: Any) -> list[Any] | None: ...

    def values_of(self, value: Any, origin: Origin) -> list[Any] | None: ...

    def iterate(self, value: Any) -> list[Any] | None: ...

    def arguments_of(self, nodes: list[Any], scope: Scope, spread: Array | None = None) -> list[Any]: ...

    def callback(self, fn: Any, origin: Origin) -> Callable[[list[Any]], Any] | None: ...

    def apply(self, callee: Any, args: list[Any], origin: Origin) -> Any: ...

    def namespace(self, module: Module) -> Any: ...

    def resolve_module(self, importer: Module, specifier: str) -> Module | Path | None: ...

    def imported(self, importer: Module, specifier: str, name: str, origin: Origin) -> Any: ...

    def file_value_module(self, path: Path) -> Module | Path | None: ...

    def file_value(self, path: Path, origin: Origin) -> Any: ...
