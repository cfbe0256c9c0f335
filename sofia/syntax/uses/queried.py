"""Occurrences in the query-driven languages (Java, Kotlin, C#, C, C++, Rust, Ruby, Swift), read
off the language's `Spec.uses` tables and the declarations and typed bindings its query captures.

A name is a definition where the query names a declaration; else a use whose kind comes from where
it stands: the callee of a call (`call`), the type of an instantiation (`new`), a parent in a type's
relations (`extends`/`implements`), inside an import (`import`), a type position (`type`), or any
other mention (`reference`). A member's receiver is resolved where the file says statically what it
is: `this`/`self`, a variable, parameter or field declared with a type (or initialised by `new T`),
a type named directly (`Foo.bar()`, `Foo::bar()`), or a name an import brings in — then the use
carries the receiver's type as its container, and refs can mark it `exact`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from sofia.syntax import queried
from sofia.syntax.queried import FUNCTION_KINDS, ROW_KINDS, SYMBOL_KINDS, TYPE_KINDS, Declaration
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.model import (
    DEFINITION,
    LOCAL,
    OTHER,
    USE,
    Binding,
    Occurrence,
    Path,
    Syntax,
    ends_alike,
)
from sofia.syntax.uses.nodes import ancestors, span
from sofia.syntax.uses.scan import COMMENTS, STRINGS, Base
from sofia.syntax.uses.tables import ImportBinding, Uses

DEFINITION_KINDS = {"field": "property", "case": "constant", "var": "variable"}
"""Query kinds → the kind refs reports for a definition (the rest keep their name)."""


@dataclass
class TypedBinding:
    name: str
    type: Node | None
    value: Node | None
    node: Node
    scope: Node | None
    """The function-like node binding it; None for a field (visible in its whole type)."""
    anywhere: bool = False
    """Visible before it is bound too: a field a method assigns (`Uses.fields`), in its type."""
    range: Node | None = None
    """A range-for variable's range: an untyped one has its elements' type (`Uses.elements`)."""


class Analyzer(Base):
    def __init__(self, tree: Syntax, rel: str) -> None:
        self.tree = tree
        self.rel = rel
        self.spec = queried.spec_of(tree.lang)
        self.tables = self.spec.uses or Uses()
        self.parsed = queried.read(tree.source, tree.lang, tree.trees[0])
        self.root = tree.trees[0].root_node
        self.comments = COMMENTS | self.spec.comments
        self.strings = STRINGS | self.spec.strings
        self.module: Path = tuple(p for p in self.parsed.package.replace("::", ".").split(".") if p)
        self.by_name_node = {d.name_node.start_byte: d for d in self.parsed.declarations}
        self.imports: dict[str, ImportBinding] = {}
        self.import_lines: list[tuple[Node, list[ImportBinding]]] = []
        """Each import statement with the bindings it makes, so an import's own name is read
        with that import's alias (`import a.Invoice` beside `import a.{Invoice => Bill}`)."""
        self._bindings_named: dict[str, list[TypedBinding]] = {}
        self._copying = 0
        """How many bindings deep `_copied_type` is following values now."""
        if self.tables.import_bindings is not None:
            for node in self.parsed.imports:
                made = list(self.tables.import_bindings(node))
                self.import_lines.append((node, made))
                for binding in made:
                    self.imports.setdefault(binding.local, binding)

    def unescape(self, text: str) -> str:
        return queried.unescape(self.spec, text)

    def includes(self) -> list[str]:
        hook = self.tables.included
        return hook(self.tree.source) if hook is not None else []

    def root_at(self, start: int) -> Node | None:
        """The file's tree; inside a body it was parsed without (`Parsed.unparsed`), the first
        parse, whose recovery still holds that body's names, comments and strings."""
        unparsed = self.parsed.unparsed
        if unparsed and self.parsed.broken is not None and any(low <= start < high for low, high in unparsed):
            root: Node = self.parsed.broken.root_node
            return root
        return self.root

    # --- what the file declares ---------------------------------------------------------------

    def path_of(self, declaration: Declaration) -> Path:
        return (*self.module, *declaration.path)

    @cached_property
    def top_level(self) -> dict[str, Declaration]:
        """Declarations of the file not inside any type or function, by name."""
        return {d.name: d for d in self.parsed.declarations if d.owner is None and not d.scope}

    @cached_property
    def members(self) -> dict[tuple[int, str], Declaration]:
        """(owner declaration id, name) → the member it declares."""
        return {(id(d.owner), d.name): d for d in self.parsed.declarations if d.owner is not None}

    @cached_property
    def types_by_name(self) -> dict[str, Declaration]:
        return {d.name: d for d in self.parsed.declarations if d.kind in TYPE_KINDS or d.scope}

    @cached_property
    def _bindings_by_name(self) -> dict[str, list[tuple[Node, dict[str, list[Node]]]]]:
        """The typed bindings' name nodes by their text, each with its match, in match order."""
        found: dict[str, list[tuple[Node, dict[str, list[Node]]]]] = {}
        for binding in queried.typed_bindings(self.parsed):
            for name in binding.get("binding.name", []):
                found.setdefault(self.unescape(text_of(name)), []).append((name, binding))
        return found

    def bindings_of(self, name: str) -> list[TypedBinding]:
        """The typed bindings of `name`, in match order; their scopes are found for the names
        asked about only (most locals of a long function are never a receiver or the name)."""
        known = self._bindings_named.get(name)
        if known is None:
            known = self._bindings_named[name] = []
            for node, binding in self._bindings_by_name.get(name, []):
                holder = binding["binding"][0]
                kinds = binding.get("binding.type", [])
                values = binding.get("binding.value", [])
                ranges = binding.get("binding.range", [])
                anywhere = node.type in self.tables.fields
                if anywhere:
                    owner = self.enclosing_type(holder)
                    scope = owner.node if owner is not None else None
                else:
                    scope = next((a for a in ancestors(holder) if a.type in self.tables.scopes), None)
                    scope = self._type_parameter_scope(node, holder, scope) or scope
                known.append(
                    TypedBinding(
                        name,
                        kinds[0] if kinds else None,
                        values[0] if values else None,
                        node,
                        scope,
                        anywhere,
                        ranges[0] if ranges else None,
                    )
                )
        return known

    def _type_parameter_scope(self, name: Node, holder: Node, function: Node | None) -> Node | None:
        """The type itself, for a binding its type holds directly that declares nothing: a
        primary constructor's plain parameter (Scala's and Kotlin's `class Setting(default: Int)`,
        C#'s `class Setting(int value)`), a local of the type's body, where a field's uses are the
        field's. None where a function nearer holds it, or the type declares a member of the name
        (Kotlin's `val name = name` reads the parameter once; the body's other uses are the member)."""
        owner = self.enclosing_type(holder)
        if owner is None or owner.kind not in TYPE_KINDS or name.start_byte in self.by_name_node:
            return None
        if function is not None and function.start_byte >= owner.node.start_byte:
            return None
        if (id(owner), self.unescape(text_of(name))) in self.members:
            return None
        return owner.node

    def classes(self) -> list[Binding]:
        found: list[Binding] = []
        for declaration in self.parsed.declarations:
            if declaration.kind not in TYPE_KINDS:
                continue
            parents = self._relations(declaration)
            if self.tables.reached:
                parents.extend(self._reached(declaration))
            found.append(Binding(self.path_of(declaration), tuple(parents)))
        for declaration in self.parsed.declarations:
            if declaration.scope:
                found.extend(self._scope_relations(declaration))
        return found

    def _relations(self, declaration: Declaration) -> list[Path]:
        """The types a type declaration names as its parents, in the order written."""
        parents: list[Path] = []
        for child in declaration.node.named_children:
            if child.type not in self.spec.relations:
                continue
            for item in child.named_children:
                for part in item.named_children if item.type in self.spec.lists else [item]:
                    if part.child_count and not part.named_child_count:
                        continue  # keywords only: C++'s `public` and `virtual` before a base
                    path = self.type_path(part)
                    if path is not None:
                        parents.append(path)
        return parents

    def _reached(self, declaration: Declaration) -> list[Path]:
        """The members of a type whose own members are reached through it (`Uses.reached`)."""
        return [
            self.path_of(d)
            for d in self.parsed.declarations
            if d.owner is declaration and d.node.type in self.tables.reached
        ]

    def _scope_relations(self, declaration: Declaration) -> list[Binding]:
        """A scope naming a trait or protocol it implements for its type (`impl Trait for Foo`)."""
        traits = declaration.captures.get("implements", [])
        paths = [p for p in (self.type_path(t) for t in traits) if p is not None]
        return [Binding((*self.module, *declaration.path), tuple(paths))] if paths else []

    # --- resolution ---------------------------------------------------------------------------

    def type_name(self, node: Node | None) -> str:
        """The bare name a type expression stands for (`List<Foo>` → `List`, `Foo*` → `Foo`,
        `a.b.Foo` → `Foo`), "" where it is not a named type."""
        while node is not None and node.type in self.tables.wrappers and node.named_child_count:
            node = self._wrapped(node)
        if node is None:
            return ""
        text = queried._base(text_of(node))
        for separator in ("::", "."):
            text = text.rsplit(separator, 1)[-1]
        return text if text.replace("_", "a").isalnum() else ""

    def _wrapped(self, node: Node) -> Node:
        """The part of a wrapper type node that names the type (`Foo` of `a.b.Foo`, `List` of
        `List<Foo>`)."""
        named = [c for c in node.named_children if c.type not in self.spec.comments]
        name_field = node.child_by_field_name("name") or node.child_by_field_name("type")
        wrapped: Node = (
            name_field if name_field is not None else (named[-1] if _is_scoped(node) else named[0])
        )
        return wrapped

    def type_path(self, node: Node | None) -> Path | None:
        """The path of the type a type expression names, as far as this file tells."""
        name = self.type_name(node)
        return self.name_path(name) if name else None

    def name_path(self, name: str) -> Path:
        """A type's path: through an import, a type of this file, else the bare name (which refs
        compares by suffix)."""
        imported = self.imports.get(name)
        if imported is not None:
            return (*(imported.container or ()), imported.name)
        declared = self.types_by_name.get(name)
        if declared is not None and not declared.scope:
            return self.path_of(declared)
        return (name,)

    def holder_of(self, name: str) -> Path | None:
        """Where a top-level name lives: its import's container, or this file's module when the
        file declares it at top level; None when the file does not say."""
        imported = self.imports.get(name)
        if imported is not None:
            return imported.container
        if name in self.top_level:
            return self.module
        declared = self.types_by_name.get(name)
        if declared is not None and not declared.scope:
            return self.path_of(declared)[:-1]  # a type the file declares inside another or a namespace
        return None

    def _top_level(self, node: Node, kind: str, word: str) -> Occurrence:
        """A use of a top-level name: where the file says it lives, else where the language looks
        for it first (`Occurrence.scopes`)."""
        holder = self.holder_of(word)
        scopes = self._scopes(node) if holder is None else ()
        return Occurrence(node.start_byte, 0, 0, USE, kind, holder, scopes=scopes)

    def _scopes(self, node: Node) -> tuple[tuple[Path, bool], ...]:
        """The enclosing types, innermost first, then the file's package or namespaces
        (`Uses.name_scopes`); none where the language names no such rule."""
        rule = self.tables.name_scopes
        if not rule:
            return ()
        found: list[tuple[Path, bool]] = []
        declaration = self.enclosing_type(node)
        while declaration is not None:
            if declaration.kind in TYPE_KINDS and declaration.kind not in ("module", "namespace"):
                found.append((self.path_of(declaration), True))
            elif declaration.kind in TYPE_KINDS:
                found.append((self.path_of(declaration), False))  # a Ruby module: a namespace
            declaration = declaration.owner
        module = self.module
        if rule == "package":
            found.append((module, False))
        else:
            found.extend((module[:depth], False) for depth in range(len(module), -1, -1))
        return tuple(dict.fromkeys(found))

    def enclosing_type(self, node: Node) -> Declaration | None:
        """The innermost type declaration (or impl/extension scope) holding `node`."""
        best: Declaration | None = None
        for declaration in self.parsed.declarations:
            if declaration.kind not in TYPE_KINDS and not declaration.scope:
                continue
            holds = (
                declaration.node.start_byte <= node.start_byte and node.end_byte <= declaration.node.end_byte
            )
            if holds and (best is None or declaration.node.start_byte >= best.node.start_byte):
                best = declaration
        return best

    def declaring_type(self, node: Node, word: str) -> Declaration | None:
        """The type a bare `word` at `node` reaches: the innermost enclosing type, or where the
        language lets a nested type reach its enclosing ones (`Uses.outer_members`), the nearest of
        them declaring a member of that name; the innermost when none does."""
        innermost = self.enclosing_type(node)
        if innermost is None or (id(innermost), word) in self.members:
            return innermost
        current: Declaration | None = innermost
        while current is not None:
            if current is not innermost and self.tables.outer_members and (id(current), word) in self.members:
                return current
            for reached in self._reached_types(current):
                if (id(reached), word) in self.members:
                    return reached  # a Kotlin companion object's member, from its class and nested ones
            current = current.owner
        return innermost

    def _declared_type_path(self, node: Node) -> Path | None:
        """A receiver written as the dotted path of a type this file declares (`Foo.Companion`,
        `Outer.Inner`): that type's path; None for any other receiver."""
        written = text_of(node)
        if "." not in written or not all(part.isidentifier() for part in written.split(".")):
            return None
        path = tuple(written.split("."))
        found = next((d for d in self.parsed.declarations if d.kind in TYPE_KINDS and d.path == path), None)
        return (*self.module, *found.path) if found is not None else None

    def _reached_types(self, declaration: Declaration) -> list[Declaration]:
        """The types declared in `declaration` whose members it reaches (`Uses.reached`)."""
        if not self.tables.reached:
            return []
        return [
            d
            for d in self.parsed.declarations
            if d.owner is declaration and d.node.type in self.tables.reached
        ]

    def self_path(self, node: Node) -> Path | None:
        owner = self.written_owner(node)
        if owner is not None:
            return owner
        enclosing = self.enclosing_type(node)
        return (*self.module, *enclosing.path) if enclosing is not None else None

    def written_owner(self, node: Node) -> Path | None:
        """The type a function's body belongs to by the owner written in the function's name,
        where no type of the file holds the node nearer: C++'s out-of-line `void Dataset::Foo()
        { … }` (Dataset, its namespace around it), a Kotlin or Scala extension's receiver
        (`fun String.slug()`). Its `this` is that type, and its bare names may be its members."""
        best: Declaration | None = None
        for declaration in self.parsed.declarations:
            if not declaration.owner_names or declaration.kind not in FUNCTION_KINDS:
                continue
            holds = (
                declaration.node.start_byte <= node.start_byte and node.end_byte <= declaration.node.end_byte
            )
            if holds and (best is None or declaration.node.start_byte >= best.node.start_byte):
                best = declaration
        if best is None:
            return None
        enclosing = self.enclosing_type(node)
        if enclosing is not None and enclosing.node.start_byte > best.node.start_byte:
            return None  # a type declared inside the body
        return (*self.module, *best.path[:-1])

    def _written_member(self, node: Node, word: str, owner: Path, kind: str) -> Occurrence:
        """A bare name in the body of a function with a written owner: the owner's member where
        the file defines one of that name under it, the file's own top-level name where it
        declares one, else the owner's member unless no definition anywhere puts the name in
        that type (`global_fallback`: then a free name, as the compiler would look it up next)."""
        start = node.start_byte
        defined = any(
            d.name == word and d.owner_names and (*self.module, *d.path[:-1]) == owner
            for d in self.parsed.declarations
        )
        if not defined and self.holder_of(word) is not None:
            return Occurrence(start, 0, 0, USE, kind, self.holder_of(word))
        return Occurrence(
            start, 0, 0, USE, kind, owner, member=True, via_self=True, global_fallback=not defined
        )

    def binding_for(self, node: Node, name: str) -> TypedBinding | None:
        """The innermost binding of `name` visible at `node`: a local or parameter of an
        enclosing function, else a field of the enclosing type."""
        best: TypedBinding | None = None
        for binding in self.bindings_of(name):
            scope = binding.scope
            if scope is not None:
                if not (scope.start_byte <= node.start_byte < scope.end_byte):
                    continue
                if binding.node.start_byte > node.start_byte and not binding.anywhere:
                    continue
            if best is None or _deeper(binding, best):
                best = binding
        return best

    def binding_type(self, binding: TypedBinding) -> Path | None:
        kind = binding.type
        if kind is not None and text_of(kind).strip() not in self.tables.untyped:
            return self.type_path(kind)
        if binding.range is not None:
            element = self._range_element(binding, 0)
            return self.type_path(element) if element is not None else None
        value = binding.value
        if value is None:
            return None
        made = self._construction(value)
        if made is not None:
            return self.type_path(made)
        field_name = self.tables.news.get(value.type)
        if field_name is not None:
            return self.type_path(field_child(value, field_name))
        callee_field = self.tables.calls.get(value.type)
        if callee_field is not None:
            callee = field_child(value, callee_field)
            name = text_of(callee) if callee is not None else ""
            if name in self.types_by_name or name in self.imports:
                return self.name_path(name)
            return self._call_type(value)
        return self._copied_type(value)

    def _call_type(self, call: Node) -> Path | None:
        """The type of a call's value: one it names itself (`Uses.typed_calls`: C++'s
        `static_cast<Foo*>(x)`), else what the function returns as the file declares it."""
        hook = self.tables.typed_calls
        named = hook(call) if hook is not None else None
        return self.type_path(named) if named is not None else self._returned_type(call)

    def _returned_type(self, call: Node) -> Path | None:
        """The type a call returns where it names a function this file declares with a return
        type (`Spec.returns`): `Foo::new()` of `fn new() -> Self` in `impl Foo`, `Foo.create()`
        of `static Foo create()`, a top-level `make()`; None when the file does not say, or its
        functions of that name disagree."""
        if self.spec.returns is None:
            return None
        head = re.sub(r"<[^<>()]*>", "", text_of(call).split("(", 1)[0]).strip()
        *qualifier, name = re.split(r"::|\.", head)
        if not name.isidentifier() or not all(part.isidentifier() for part in qualifier):
            return None
        owner = qualifier[-1] if qualifier else ""
        if owner and owner not in self.types_by_name and owner not in self.imports:
            # a call on a value: the method of the value's type (`repo.find(id)`, `repo: Repo`)
            typed = self._value_type(call, qualifier) if len(qualifier) == 1 else None
            if typed is None:
                return None
            owner = typed[-1]
        found = {
            self._declared_return(declaration)
            for declaration in self.parsed.declarations
            if declaration.kind in FUNCTION_KINDS
            and declaration.name == name
            and (not owner or owner in declaration.path[:-1])
        }
        return found.pop() if len(found) == 1 else None

    def _value_type(self, at: Node, qualifier: list[str]) -> Path | None:
        """The type of the variable, parameter or field a call is made on, `self`/`this` being the
        enclosing type; None where the file does not say."""
        word = qualifier[0]
        if word in self.tables.selves:
            return self.self_path(at)
        binding = self.binding_for(at, word)
        if binding is None or self._copying >= 4:
            return None
        self._copying += 1
        try:
            return self.binding_type(binding)
        finally:
            self._copying -= 1

    def _declared_return(self, declaration: Declaration) -> Path | None:
        hook = self.spec.returns
        returned = hook(declaration.node) if hook is not None else None
        if returned is None or text_of(returned).strip() in self.tables.untyped:
            return None
        path = self.type_path(returned)
        if path is not None and path[-1] == "Self" and declaration.owner is not None:
            return (*self.module, *declaration.owner.path)
        return path

    def _copied_type(self, value: Node) -> Path | None:
        """The type of a binding initialised from another value whose type is known: a typed
        variable or parameter (`guard let t = s`, `val t = s ?: Store()`), a cast, an assertion
        (`s!!`); followed a few bindings deep, never round a cycle."""
        if self._copying >= 4:
            return None
        self._copying += 1
        try:
            path, _, named = self.receiver(value)
        finally:
            self._copying -= 1
        return None if named else path

    def receiver(self, node: Node | None) -> tuple[Path | None, bool, bool]:
        """(the receiver's type path, whether it is the enclosing type itself, whether it is a
        type or namespace named directly)."""
        while node is not None and node.named_child_count:
            if node.type in self.tables.same_value:
                node = next((c for c in node.named_children if c.type not in self.spec.comments), None)
            elif self.tables.coalesce and any(
                not c.is_named and c.type in self.tables.coalesce for c in node.children
            ):
                node = node.child_by_field_name("left")
            else:
                break
        if node is None:
            return None, False, False
        cast = self.tables.casts.get(node.type)
        if cast is not None:
            return self.type_path(field_child(node, cast)), False, False
        if node.type in self.tables.selves or text_of(node) in self.tables.selves:
            return self.self_path(node), True, False
        field = self._self_field(node)
        if field is not None:
            node = field  # `this->bin_`, `this.repo`: the enclosing type's field
        if node.type in self.tables.supers or text_of(node) in self.tables.supers:
            enclosing = self.enclosing_type(node)
            parents = self._relations(enclosing) if enclosing is not None else []
            return (parents[0] if parents else None), False, False
        if node.type in self.tables.qualifiers:
            return self.type_path(node), False, True
        declared = self._declared_type_path(node)
        if declared is not None:
            return declared, False, True
        if (
            node.type in self.tables.types
            or node.type in self.tables.fields
            or (node.type.endswith("identifier") and node.named_child_count == 0)
        ):
            name = text_of(node)
            binding = self.binding_for(node, name)
            if binding is not None:
                return self.binding_type(binding), False, False
            if name in self.imports or name in self.types_by_name:
                return self.name_path(name), False, True
            return None, False, False
        made = self._construction(node)
        if made is not None:
            return self.type_path(made), False, False
        if node.type in self.tables.news:
            return self.type_path(field_child(node, self.tables.news[node.type])), False, False
        if self._container(node) is not None:
            declared = self._declared(node)  # `bins_[i].Reset()`
            return (self.type_path(declared) if declared is not None else None), False, False
        if node.type in self.tables.calls:
            return self._call_type(node), False, False  # `Store.open().save()`
        return None, False, False

    # --- classification -----------------------------------------------------------------------

    def classify(self, node: Node, word: str) -> Occurrence:
        start = node.start_byte
        declaration = self.by_name_node.get(start)
        if declaration is not None and not declaration.scope:
            return self.definition(declaration)
        parent = node.parent
        if parent is None:
            return Occurrence(start, 0, 0, USE, "reference")
        tables = self.tables
        if tables.labels is not None and tables.labels(node):
            return Occurrence(start, 0, 0, OTHER)
        holder = next((a for a in ancestors(node) if a.type in tables.imports), None)
        if holder is not None:
            return self.import_use(node, word)
        binding = self._binding_name(node)
        if binding is not None:
            if binding.scope is None:
                return Occurrence(start, 0, 0, OTHER)
            return Occurrence(start, 0, 0, LOCAL, scope=span(binding.scope))
        member = tables.members.get(parent.type)
        if member is not None and node.type not in tables.types and is_field(parent, member[0], node):
            # a type's name is no member even where it is written qualified (C++'s `ns::Foo x;`)
            return self.member_use(parent, node, member[1])
        callee = tables.calls.get(parent.type)
        if callee is not None and is_field(parent, callee, node):
            return self.bare_call(node, word)
        read = tables.tokens(node) if tables.tokens is not None else None
        if read is not None:
            called, on_member, receiver = read
            if on_member:
                return self._member_of(node, "call" if called else "reference", receiver)
            if called:
                return self.bare_call(node, word)
        relation = self._relation(node)
        if relation:
            return self._top_level(node, relation, word)
        made = self._made(node)
        if made:
            return self._top_level(node, "new", word)
        if node.type in tables.types or parent.type in tables.type_parents or parent.type in tables.wrappers:
            return self._top_level(node, "type", word)
        return self._plain(node, word)

    def definition(self, declaration: Declaration) -> Occurrence:
        owner = declaration.path[:-1]
        kind = DEFINITION_KINDS.get(declaration.kind, declaration.kind)
        container = (*self.module, *owner)
        holder = declaration.owner
        reached = holder is not None and holder.node.type in self.tables.reached and holder.owner is not None
        return Occurrence(
            declaration.name_node.start_byte,
            0,
            0,
            DEFINITION,
            kind,
            container,
            decl=span(declaration.node),
            through=container[:-1] if reached else None,
        )

    def import_use(self, node: Node, word: str) -> Occurrence:
        start = node.start_byte
        own = [made for line, made in self.import_lines if line.start_byte <= start < line.end_byte]
        for binding in [*(own[0] if own else []), *self.imports.values()]:
            if binding.name == word:
                alias = binding.local if binding.local != word else ""
                return Occurrence(start, 0, 0, USE, "import", binding.container, alias=alias)
        return Occurrence(start, 0, 0, USE, "import")

    def member_use(self, access: Node, node: Node, receiver_field: str) -> Occurrence:
        if receiver_field.startswith("^") and access.parent is not None:
            # the member sits in a suffix node whose parent holds the receiver (Swift's
            # `navigation_suffix` under `navigation_expression`)
            access, receiver_field = access.parent, receiver_field[1:]
        kind = "call" if self._called(access, node) else "reference"
        receiver = field_child(access, receiver_field)
        if receiver is None:
            return self.bare_call(node, text_of(node)) if kind == "call" else self._plain(node, text_of(node))
        arrow = any(c.type == "->" and not c.is_named for c in access.children)
        if arrow:
            pointee = self._pointee(receiver)
            if pointee is not None:
                return Occurrence(node.start_byte, 0, 0, USE, kind, pointee, member=True)
        occurrence = self._member_of(node, kind, receiver)
        if occurrence.container is None and occurrence.member and self.tables.included is not None:
            occurrence.field_of = self._undeclared_field(receiver, arrow)
        return occurrence

    def _self_field(self, node: Node) -> Node | None:
        """The member named by an access on the enclosing type itself (`bin_` of `this->bin_`,
        `repo` of `this.repo`), else None."""
        if node.type in self.tables.calls:
            return None  # `this.find()` is a call, typed by what it returns
        member = self.tables.members.get(node.type)
        named: Node | None = node
        if member is None:
            # the member in a suffix node, its receiver in the access (Swift's `self.store`)
            named = next((c for c in node.named_children if c.type in self.tables.members), None)
            member = self.tables.members.get(named.type) if named is not None else None
            if member is None or not member[1].startswith("^"):
                return None
            member = (member[0], member[1][1:])
        holder = field_child(node, member[1])
        if named is None or holder is None:
            return None
        if not (holder.type in self.tables.selves or text_of(holder) in self.tables.selves):
            return None
        return field_child(named, member[0])

    def _container(self, node: Node) -> Node | None:
        """The container an element is taken from (`bins_` of `bins_[i]`, `bins_.back()`), or None
        where `node` is no element (`Uses.subscripts`, `Uses.element_calls`)."""
        subscripted = self.tables.subscripts.get(node.type)
        if subscripted is not None:
            return field_child(node, subscripted)
        callee_field = self.tables.calls.get(node.type) if self.tables.element_calls else None
        callee = field_child(node, callee_field) if callee_field is not None else None
        member = self.tables.members.get(callee.type) if callee is not None else None
        if (
            callee is None
            or member is None
            or text_of(field_child(callee, member[0])) not in self.tables.element_calls
        ):
            return None
        return field_child(callee, member[1])

    def _declared(self, node: Node, depth: int = 0) -> Node | None:
        """The type node a receiver is declared with: a variable's, parameter's or field's type,
        the element type of a container it is taken from (`Uses.elements`); None elsewhere."""
        node = self._self_field(node) or node
        if node.type.endswith("identifier") and not node.named_child_count:
            binding = self.binding_for(node, text_of(node))
            if binding is None:
                return None
            if binding.range is not None and self._untyped(binding):
                return self._range_element(binding, depth)
            return binding.type
        container = self._container(node)
        hook = self.tables.elements
        if container is None or hook is None or depth > 3:
            return None
        declared = self._declared(container, depth + 1)
        return hook(declared) if declared is not None else None

    def _untyped(self, binding: TypedBinding) -> bool:
        return binding.type is None or text_of(binding.type).strip() in self.tables.untyped

    def _untyped_range(self, receiver: Node) -> Node | None:
        """The range of the untyped range-for variable `receiver` names, else None."""
        if not receiver.type.endswith("identifier") or receiver.named_child_count:
            return None
        binding = self.binding_for(receiver, text_of(receiver))
        if binding is None or binding.range is None or not self._untyped(binding):
            return None
        return binding.range

    def _range_element(self, binding: TypedBinding, depth: int) -> Node | None:
        """The element type of an untyped range-for variable's range (`for (auto& b : bins_)`)."""
        hook = self.tables.elements
        if hook is None or binding.range is None or depth > 3:
            return None
        declared = self._declared(binding.range, depth + 1)
        return hook(declared) if declared is not None else None

    def _pointee(self, receiver: Node) -> Path | None:
        """The type `receiver->member` reaches through a smart pointer the receiver is declared
        as (`Uses.pointee`: `std::unique_ptr<Bin> bin_; bin_->ReSize()` is Bin's) or through an
        element's pointer type (`std::vector<Bin*> bins_; bins_[i]->ReSize()`), else None."""
        declared = self._declared(receiver)
        if declared is None:
            return None
        hook = self.tables.pointee
        reached = hook(declared) if hook is not None else None
        if reached is None and self._container(receiver) is not None:
            reached = declared  # an element holding a plain pointer: `->` reaches its type
        return self.type_path(reached) if reached is not None else None

    def _undeclared_field(self, receiver: Node, arrow: bool) -> tuple[Path, str, str] | None:
        """(the enclosing type, the field's name, how the member is reached) for a receiver naming
        a field this file does not declare (`train_data_` in an out-of-line method,
        `this->train_data_`, `bins_[i]`); None for any other receiver, or one the file binds.
        How: `.` or `->`, after `[]` for an element of the field."""
        container = self._container(receiver)
        if container is None:
            ranged = self._untyped_range(receiver)  # `for (auto& t : tables_) t.size()`
            container = ranged
        named = container if container is not None else receiver
        named = self._self_field(named) or named
        if not named.type.endswith("identifier") or named.named_child_count:
            return None
        name = text_of(named)
        if self.binding_for(named, name) is not None or name in self.imports or name in self.types_by_name:
            return None
        owner = self.self_path(named)
        how = ("[]" if container is not None else "") + ("->" if arrow else ".")
        return (owner, name, how) if owner else None

    def declared_field(self, owner: Path, name: str, how: str) -> tuple[Declaration | None, Path | None]:
        """In a file declaring the type `owner` (matched by suffix, as refs compares containers):
        (that type's declaration, the type a member access `how` reaches on its field `name`
        (`_undeclared_field`), None where it declares no such field); (None, None) where it
        declares no such type. refs asks this of the headers a use's file includes."""
        for declaration in self.parsed.declarations:
            if declaration.kind not in TYPE_KINDS or declaration.scope:
                continue
            if not ends_alike(self.path_of(declaration), owner):
                continue
            for binding in self.bindings_of(name):
                if self.enclosing_type(binding.node) is declaration:
                    return declaration, self._reached_on(binding, how)
            return declaration, None
        return None, None

    def _reached_on(self, binding: TypedBinding, how: str) -> Path | None:
        """The type a member access reaches on a field (`how`, as `_undeclared_field` says)."""
        declared = binding.type
        if how.startswith("[]"):
            hook = self.tables.elements
            declared = hook(declared) if hook is not None and declared is not None else None
            if declared is None:
                return None
        pointee = self.tables.pointee
        if how.endswith("->") and pointee is not None and declared is not None:
            reached = pointee(declared)
            if reached is not None:
                return self.type_path(reached)
        return self.type_path(declared) if how.startswith("[]") else self.binding_type(binding)

    def parents_of(self, declaration: Declaration) -> list[Path]:
        """The types a type declaration names as its parents, as this file resolves them."""
        return self._relations(declaration)

    def _member_of(self, node: Node, kind: str, receiver: Node | None) -> Occurrence:
        """A member use on `receiver`, with the receiver's type as its container where known."""
        start = node.start_byte
        path, via_self, named = self.receiver(receiver)
        if named and path is not None and text_of(receiver) in self.imports and not self._is_type(receiver):
            return Occurrence(start, 0, 0, USE, kind, path, qualified=True)
        return Occurrence(start, 0, 0, USE, kind, path, member=True, via_self=via_self)

    def bare_call(self, node: Node, word: str) -> Occurrence:
        """A call of a plain name: a method of the enclosing type when it declares one, else a
        top-level function where the file says where it lives."""
        start = node.start_byte
        enclosing = self.declaring_type(node, word)
        owner = self.written_owner(node) if self.tables.implicit_self else None
        reached = (
            self.tables.implicit_self and enclosing is not None and (id(enclosing), word) in self.members
        )
        if reached and enclosing is not None and (owner is None or enclosing.kind != "namespace"):
            return Occurrence(start, 0, 0, USE, "call", self.path_of(enclosing), member=True, via_self=True)
        if owner is not None:
            return self._written_member(node, word, owner, "call")
        if word in self.types_by_name or (word in self.imports and word[:1].isupper()):
            return Occurrence(start, 0, 0, USE, "new" if self._constructs() else "call", self.holder_of(word))
        holder = self.holder_of(word)
        if (
            holder is None
            and self.tables.implicit_self
            and enclosing is not None
            and enclosing.kind != "namespace"
        ):
            # not declared by the type as this file shows it: inherited (`foo()` in a subclass of
            # the class declaring it), another part or extension's, or a free function — refs
            # tells them apart by the type's known chain (`global_fallback`)
            return Occurrence(
                start,
                0,
                0,
                USE,
                "call",
                self.path_of(enclosing),
                member=True,
                via_self=True,
                global_fallback=True,
                scopes=self._scopes(node),
            )
        return self._top_level(node, "call", word)

    def _plain(self, node: Node, word: str) -> Occurrence:
        """A plain mention: a local or parameter of that name where one is in scope, else a field
        of the enclosing type when it declares one (a method is reached by a call, not by its bare
        name), else whatever the file says the name is."""
        binding = self.binding_for(node, word)
        if binding is not None and binding.scope is not None:
            return Occurrence(node.start_byte, 0, 0, LOCAL, scope=span(binding.scope))
        enclosing = self.declaring_type(node, word)
        member = self.members.get((id(enclosing), word)) if enclosing is not None else None
        owner = self.written_owner(node) if self.tables.implicit_self else None
        if owner is not None and (enclosing is None or enclosing.kind == "namespace" or member is None):
            return self._written_member(node, word, owner, "reference")
        called = member is not None and member.kind in FUNCTION_KINDS
        if (
            self.tables.implicit_self
            and enclosing is not None
            and member is not None
            and (self.tables.bare_calls or not called)
        ):
            kind = "call" if called else "reference"
            return Occurrence(
                node.start_byte, 0, 0, USE, kind, self.path_of(enclosing), member=True, via_self=True
            )
        return self._top_level(node, "reference", word)

    def _constructs(self) -> bool:
        from sofia.syntax.registry import constructs_by_call

        return constructs_by_call(self.tree.lang)

    def _called(self, access: Node, node: Node) -> bool:
        callee = self.tables.calls.get(access.type)
        if callee is not None:
            return is_field(access, callee, node) or is_field(access, callee, access)
        member = self.tables.members.get(access.type)
        while (
            member is not None
            and access.parent is not None
            and access.parent.type == access.type
            and is_field(access.parent, member[0], access)
        ):
            access = access.parent  # the member of a nested qualified name (C++'s `a::b::f()`)
        parent = access.parent
        if parent is None:
            return False
        outer = self.tables.calls.get(parent.type)
        return outer is not None and is_field(parent, outer, access)

    def _is_type(self, node: Node) -> bool:
        name = text_of(node)
        return name in self.types_by_name or (name in self.imports and name[:1].isupper())

    def _binding_name(self, node: Node) -> TypedBinding | None:
        for binding in self.bindings_of(self.unescape(text_of(node))):
            if binding.node.start_byte == node.start_byte and binding.node.end_byte == node.end_byte:
                return binding
        return None

    def _relation(self, node: Node) -> str:
        trail = [node]
        for above in ancestors(node):
            relation = self.spec.relations.get(above.type)
            if relation is not None:
                if self.spec.relation is None:
                    return relation
                item = trail[-1]
                if item.type in self.spec.lists and len(trail) > 1:
                    item = trail[-2]
                return self.spec.relation(item)[0]
            trail.append(above)
            if above.type in SYMBOL_KINDS or above.type in self.tables.scopes:
                return ""
        return ""

    def _construction(self, node: Node) -> Node | None:
        """The type a call of the constructor method on it makes (`Foo` of Ruby's `Foo.new`)."""
        access = self.tables.members.get(node.type) if self.tables.constructor else None
        if access is None:
            return None
        member = field_child(node, access[0])
        if member is None or text_of(member) != self.tables.constructor:
            return None
        return field_child(node, access[1])

    def _made(self, node: Node) -> bool:
        child = node
        for above in ancestors(node):
            if self.tables.constructor and self._construction(above) == child:
                return True
            field_name = self.tables.news.get(above.type)
            if field_name is not None:
                return is_field(above, field_name, child)
            if above.type not in self.tables.wrappers and above.type not in self.tables.types:
                return False
            if above.type in self.tables.wrappers and self._wrapped(above) != child:
                return False  # `a` of `new a.b.Foo()`, `Geometry` of `Geometry::Circle.new`
            child = above
        return False


def field_child(node: Node, name: str) -> Node | None:
    """`node`'s child in the field `name`, or for `#N` its N-th named child (negative: from the
    end), where the grammar names no field (Kotlin's calls and navigation expressions)."""
    if not name.startswith("#"):
        child: Node | None = node.child_by_field_name(name)
        return child
    named = [c for c in node.named_children if not c.is_extra]
    index = int(name[1:])
    return named[index] if -len(named) <= index < len(named) else None


def is_field(parent: Node | None, name: str, node: Node) -> bool:
    """Whether `node` is `parent`'s child in the field `name` (or at the position `#N`)."""
    if parent is None:
        return False
    if name.startswith("#"):
        held: bool = field_child(parent, name) == node
        return held
    return any(child == node for child in parent.children_by_field_name(name))


def _deeper(binding: TypedBinding, other: TypedBinding) -> bool:
    """Whether `binding` is bound closer to the use than `other` (a local over a field)."""
    later: bool = binding.node.start_byte > other.node.start_byte
    if other.scope is None:
        return binding.scope is not None or later
    if binding.scope is None:
        return False
    inner: bool = binding.scope.start_byte >= other.scope.start_byte
    return inner and later


def _is_scoped(node: Node) -> bool:
    kind: str = node.type
    return "scoped" in kind or "qualified" in kind


__all__ = ["ROW_KINDS", "Analyzer", "ImportBinding", "Uses"]
