"""The use tables a query-driven language declares on its Spec (`Spec.uses`): plain data and
hooks, read by `sofia.syntax.uses.queried` (docs/adding-a-language.md, "refs")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sofia.syntax.tree import Node

Path = tuple[str, ...]


@dataclass(frozen=True)
class ImportBinding:
    """A name an import brings into the file, and where the thing it names lives."""

    local: str
    """The name the file uses (an alias, or the imported name itself)."""
    name: str
    """The name as declared where it comes from."""
    container: Path | None
    """The package, namespace or type holding it; None where the import does not tell (a Rust
    path, which re-exports make one of several)."""


@dataclass(frozen=True)
class Uses:
    """A language's use tables (docs/adding-a-language.md, "refs"). A field may be written `#N`,
    the node's N-th named child (`#-1` the last), where the grammar names no field (Kotlin)."""

    calls: dict[str, str] = field(default_factory=dict)
    """Call node type → the field holding the callee (`method_invocation` → `name`)."""
    members: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Member access node type → (member field, receiver field): `a.b`, `a->b`, `a::b`. A field
    `#N` is the N-th named child where the grammar names none; a receiver field `^name` is the
    field of the access node's parent (a member written in a suffix node)."""
    news: dict[str, str] = field(default_factory=dict)
    """Instantiation node type → the field holding the type made (`new Foo()`)."""
    imports: frozenset[str] = frozenset()
    """Import node types: a name inside one is an `import` use."""
    import_bindings: Callable[[Node], list[ImportBinding]] | None = None
    """An import node → the names it binds (aliases followed: uses of the alias are uses)."""
    types: frozenset[str] = frozenset()
    """Identifier node types that always name a type (`type_identifier`)."""
    type_parents: frozenset[str] = frozenset()
    """Parents in which a plain identifier names a type."""
    wrappers: frozenset[str] = frozenset()
    """Type nodes wrapping a type name (`generic_type`, `pointer_type`, `scoped_type_identifier`):
    looked through to find the name a type expression stands for."""
    qualifiers: frozenset[str] = frozenset()
    """Node types that name a type or namespace by their place alone (the scope of C++'s
    `Foo::bar`): such a receiver is that type, declared or imported in the file or not."""
    supers: frozenset[str] = frozenset()
    """Receiver node types or texts that are the enclosing type's parent (`super`, C#'s `base`):
    `super.foo()` is a call of the parent's `foo`."""
    selves: frozenset[str] = frozenset()
    """Receiver node types or texts that are the enclosing type itself (`this`, `self`, `Self`)."""
    scopes: frozenset[str] = frozenset()
    """Function-like node types: where locals and parameters are bound."""
    labels: Callable[[Node], bool] | None = None
    """Whether an identifier is an argument label or keyword argument name (`f(x: 1)`): not a
    use of anything refs tracks."""
    implicit_self: bool = True
    """A bare call of a name the enclosing type declares is a call on the instance (Java, C#,
    Kotlin, Swift, Ruby, C++ members)."""
    fields: frozenset[str] = frozenset()
    """Binding name node types that are fields of the type whose methods assign them, visible in
    every method whatever the order (Ruby's `@repo = Repo.new` in `initialize`, then `@repo.save`)."""
    same_value: frozenset[str] = frozenset()
    """Expression node types whose value is their operand's, looked through to find a receiver:
    parentheses, a non-null assertion (Kotlin's `x!!`, Swift's and C#'s `x!`)."""
    coalesce: frozenset[str] = frozenset()
    """Operators whose value has their left operand's type (Kotlin's `s ?: Store()`, C#'s
    `s ?? new Store()`), read through a binary expression's `left` field."""
    casts: dict[str, str] = field(default_factory=dict)
    """Cast node types → the field holding the type cast to: the receiver has that type
    (`((Foo) x).bar()`, `(x as Foo).bar()`)."""
    pointee: Callable[[Node], Node | None] | None = None
    """A receiver's declared type → the type `->` on it reaches, where that is not the type
    itself (C++'s `std::unique_ptr<Bin>` → `Bin`); None: `->` reaches the declared type."""
    typed_calls: Callable[[Node], Node | None] | None = None
    """A call node → the type its value has where the call names it itself (C++'s
    `static_cast<const Dataset*>(h)` → `const Dataset*`), else None."""
    elements: Callable[[Node], Node | None] | None = None
    """A receiver's declared type → the type of its elements, where it is a container
    (`std::vector<Bin>` → `Bin`): `bins_[i].Reset()`, `bins_.back()->Reset()` are Bin's."""
    subscripts: dict[str, str] = field(default_factory=dict)
    """Subscript node types → the field holding the container subscripted (`v[i]`)."""
    element_calls: frozenset[str] = frozenset()
    """Methods whose call on a container returns one of its elements (`v.back()`, `v.at(i)`)."""
    included: Callable[[bytes], list[str]] | None = None
    """A source → the files it includes, as written (`#include <Lib/app.h>` → `Lib/app.h`): where
    the types whose members its bodies define declare their fields (C++'s class in a header, its
    methods in a `.cpp`). refs reads a field's type there when the file does not declare it."""
    name_scopes: str = ""
    """Where a name the file neither declares nor imports is looked for before any wildcard or
    default import: the enclosing types, then `package` (the file's own package: Java, Kotlin,
    Scala) or `nested` (the namespace and each one around it out to the top level: C#, Ruby's
    modules). A bare `Condition` in `java.util.concurrent.locks` is that package's class where it
    declares one; Ruby's `Invoice` inside `module Billing` is `Billing::Invoice` where Billing
    defines one, else the top-level `Invoice`."""
    outer_members: bool = False
    """A bare name inside a nested type reaches the enclosing types' members when its own type
    declares none (Java's, C#'s, C++'s and Scala's nested and inner classes: `tabAt(i)` in
    `Map.TreeBin` is `Map.tabAt`)."""
    bare_calls: bool = False
    """A method's bare name, without parentheses, calls it (Ruby). Elsewhere a bare name reaches a
    field or a local, never a method."""
    untyped: frozenset[str] = frozenset({"var", "val", "let", "auto", "dynamic"})
    """Type texts that declare no type: the binding's value decides (`var x = new Foo()`)."""
    tokens: Callable[[Node], tuple[bool, bool, Node | None] | None] | None = None
    """An identifier in a run of tokens the grammar leaves unparsed (a Rust macro's arguments) →
    (called, a member, its receiver or None when not known) where the tokens around it read as a
    call or a member access; None where they do not."""
    constructor: str = ""
    """A method whose call on a type makes an instance, where no node type tells (Ruby's
    `Foo.new`): the type there is a `new` use, and what it initialises has that type."""
    reached: frozenset[str] = frozenset()
    """Declaration node types whose members are reached through the type holding them (Kotlin's
    `companion_object`: `Widget.create()` calls `Widget.Companion.create`): a parent of that type."""
