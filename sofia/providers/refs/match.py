"""Matching classified occurrences to one requested name: which definitions it denotes, and for
each use whether it statically refers to one of them (`exact`), may (`name`), or refers to
something else of the same name (counted as `elsewhere`, never shown)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from sofia.providers.refs.exports import Modules, family, source_roots
from sofia.providers.refs.fields import Fields
from sofia.providers.refs.model import ELSEWHERE, EXACT, NAME, Definition, Found, Matched, Parsed, Use
from sofia.syntax.registry import constructs_by_call, separator
from sofia.syntax.uses.model import COMMENT, DEFINITION, LOCAL, STRING, USE, Occurrence, Path, ends_alike

if TYPE_CHECKING:
    from pathlib import Path as FilePath

    from sofia.syntax.lookup import Query

MEMBER_KINDS = frozenset({"method", "property", "constant"})
CLASS_KINDS = frozenset({"class", "struct", "interface", "trait", "enum", "type", "component"})
NESTING_KINDS = CLASS_KINDS | {"module", "namespace", "union"}


def suffix(qualifier: tuple[str, ...], path: Path | None) -> bool:
    """Whether `qualifier` names the end of `path` (`UserController` ends `App\\Http\\UserController`)."""
    if path is None or len(qualifier) > len(path):
        return False
    return not qualifier or tuple(path[len(path) - len(qualifier) :]) == qualifier


def same(a: Path | None, b: Path | None) -> bool:
    """Two containers are the same when one ends the other (a source root may prefix module paths)."""
    if a is None or b is None:
        return False
    return ends_alike(tuple(a), tuple(b)) or a == b


class ContainerIndex:
    """Containers looked up by `same`, in insertion order, without a scan of every entry (a
    common name has thousands of definitions)."""

    def __init__(self) -> None:
        self.by_last: dict[str, list[tuple[Path, int]]] = {}
        self.empty = -1

    def add(self, path: Path | None, value: int) -> None:
        if path is None:
            return
        if not path:
            self.empty = value if self.empty < 0 else self.empty
            return
        self.by_last.setdefault(path[-1], []).append((path, value))

    def find(self, target: Path | None) -> int:
        """The first value whose container is the same as `target`, or -1."""
        if target is None:
            return -1
        if not target:
            return self.empty
        for path, value in self.by_last.get(target[-1], []):
            if same(path, target):
                return value
        return -1


class Matcher:
    def __init__(self, query: Query, found: Found) -> None:
        self.query = query
        self.found = found
        self.parents: dict[Path, tuple[Path, ...]] = {}
        self.class_langs: dict[Path, str] = {}
        """A parent no file declares -> the language of a class naming it."""
        self.outside_memo: dict[Path, bool] = {}
        for parsed in found.parsed.values():
            for binding in parsed.uses.classes:
                self.parents.setdefault(binding.path, binding.parents)
                for parent in binding.parents:
                    self.class_langs.setdefault(parent, parsed.lang)
        self.parents_by_last: dict[str, list[Path]] = {}
        for path in self.parents:
            if path:
                self.parents_by_last.setdefault(path[-1], []).append(path)
        self.modules = Modules(found.request.cwd, _workspace(found), [])
        if found.fields is None:
            found.fields = Fields(found.request.cwd, _workspace(found))
        self.fields = found.fields
        self.edges = self._edges()
        candidates = self._candidates()
        passed = self._passed_on(candidates)
        kept = [i for i, d in enumerate(candidates) if accepts(query, d, passed[i])]
        self.definitions = [candidates[i] for i in kept]
        self.exports = [passed[i] for i in kept]
        """Per definition, the other modules it is a name of (re-exports)."""
        self.modules.roots = source_roots([d.file for d in self.definitions])
        self.by_container = ContainerIndex()
        for index, definition in enumerate(self.definitions):
            self.by_container.add(definition.container, index)
        for index, modules in enumerate(self.exports):
            for module in modules:
                self.by_container.add(module, index)
        self.listed = {(d.file, d.line, d.col) for d in self.definitions}
        self.links = [self._links_of(d) for d in self.definitions]
        """Per definition, the group of languages that can call it (`Language.links`)."""
        self.defining = ContainerIndex()
        self.defining_types = ContainerIndex()
        """The containers of the name's definitions as a type (a member type of a class)."""
        for parsed in found.parsed.values():
            for occurrence in parsed.uses.occurrences.get(query.name, []):
                if occurrence.role == DEFINITION:
                    self.defining.add(occurrence.container, 0)
                    if occurrence.kind in CLASS_KINDS:
                        self.defining_types.add(occurrence.container, 0)
        self.wanted = list(dict.fromkeys(d.container for d in self.definitions if d.container is not None))
        self.related: dict[Path, bool] = {}
        nested_types = bool(self.definitions) and all(d.kind in NESTING_KINDS for d in self.definitions)
        self.member_query = (query.member and not nested_types) or bool(
            self.definitions and all(d.kind in MEMBER_KINDS for d in self.definitions)
        )
        """A type asked for inside its namespace or module (`Geometry::Square`, `shapes::Circle`)
        is no member: its uses are types and instantiations, not calls on a receiver."""
        self.free = bool(self.definitions) and not any(self._is_member(d) for d in self.definitions)
        """Every definition is a top-level function, class or constant: `x.name` reaches one only
        when `x` is the module or namespace holding it."""

    def _candidates(self) -> list[Definition]:
        """Every definition of the name under the root, in path order, whatever the qualifier."""
        query = self.query
        found: list[Definition] = []
        for rel in sorted(self.found.parsed, key=os.fsencode):
            parsed = self.found.parsed[rel]
            for occurrence in parsed.uses.occurrences.get(query.name, []):
                if occurrence.role == DEFINITION and not occurrence.spelled:
                    found.append(self._definition(parsed, occurrence))
        for rel in self.found.components.get(query.name, []):
            component = self.found.parsed.get(rel)
            lines = component.lines if component is not None else 1
            found.append(
                Definition(
                    rel,
                    1,
                    1,
                    max(lines, 1),
                    "component",
                    query.name,
                    f"<{query.name}> single-file component",
                    _component_container(rel),
                )
            )
        return found

    def _edges(self) -> list[tuple[Path, Path]]:
        """(module, module it takes the name from) for each file that makes the name its own
        (`from ._client import Client` in a package's `__init__.py`, `export { X } from './x'`)."""
        edges: list[tuple[Path, Path]] = []
        for rel in sorted(self.found.parsed, key=os.fsencode):
            parsed = self.found.parsed[rel]
            for occurrence in parsed.uses.occurrences.get(self.query.name, []):
                if occurrence.role == USE and occurrence.exported and not occurrence.spelled:
                    source = self._target(occurrence, parsed)
                    if source is not None and source != parsed.uses.module:
                        edges.append((parsed.uses.module, source))
        return edges

    def _passed_on(self, candidates: list[Definition]) -> list[list[Path]]:
        """Per definition, the modules that re-export it, through any chain of re-exports."""
        reached: list[list[Path]] = [
            [d.container, *([d.through] if d.through is not None else [])] if d.container is not None else []
            for d in candidates
        ]
        changed = bool(self.edges)
        while changed:
            changed = False
            for module, source in self.edges:
                for modules in reached:
                    if module not in modules and any(same(source, m) for m in modules):
                        modules.append(module)
                        changed = True
        return [modules[1:] for modules in reached]

    def _target(self, occurrence: Occurrence, parsed: Parsed | None) -> Path | None:
        """What a use resolves to, a path alias followed (`@/utils` → `src/utils`)."""
        target = occurrence.container
        if target is None and occurrence.field_of is not None and parsed is not None:
            target = self.fields.type_of(parsed.rel, parsed.uses, occurrence)
        if occurrence.bare_import and target is not None and parsed is not None:
            return self.modules.aliased(parsed.rel, target) or target
        return target

    def _definition(self, parsed: Parsed, occurrence: Occurrence) -> Definition:
        holder = parsed.definer(occurrence.start, occurrence.line)
        end_line = occurrence.end_line or occurrence.line
        name = self.query.name
        if holder is not None and holder.name == name and holder.line <= occurrence.line:
            qname = holder.qname
            end_line = max(end_line, holder.end_line)
        elif holder is not None:
            qname = holder.qname + separator(parsed.lang) + name
        else:
            qname = name
        return Definition(
            parsed.rel,
            occurrence.line,
            occurrence.col,
            end_line,
            occurrence.kind,
            qname,
            collapse(parsed.texts.get(occurrence.line, "")),
            occurrence.container,
            through=occurrence.through,
        )

    def narrowing(self) -> list[tuple[str, list[int]]]:
        """Per place the name is defined (one container), the shortest qualified spelling whose
        query denotes that place's definitions and no other (`records.copy_from_parent`), found
        by asking the spelling of each definition; its qname when no spelling does."""
        from sofia.syntax.lookup import BadName, parse_query

        places: dict[Path | None, list[int]] = {}
        for index, definition in enumerate(self.definitions):
            places.setdefault(definition.container, []).append(index)
        found: list[tuple[str, list[int]]] = []
        for container, indexes in places.items():
            first = self.definitions[indexes[0]]
            spelled = first.qname
            for depth in range(1, len(container or ()) + 1):
                text = self._spelling(first, (container or ())[-depth:])
                try:
                    query = parse_query(text)
                except BadName:
                    continue
                chosen = [i for i, d in enumerate(self.definitions) if accepts(query, d, self.exports[i])]
                if chosen == indexes:
                    spelled = text
                    break
            found.append((spelled, indexes))
        return found

    def _spelling(self, definition: Definition, qualifier: Path) -> str:
        """A qualified name as a caller writes it in the definition's language (PHP namespaces
        with `\\`, a member after `::`)."""
        parsed = self.found.parsed.get(definition.file)
        lang = parsed.lang if parsed is not None else ""
        name = self.query.name
        if lang != "php":
            return separator(lang).join((*qualifier, name))  # `Billing::Invoice` in Ruby and C++
        if self._is_member(definition):
            return "\\".join((*qualifier[:-1], f"{qualifier[-1]}::{name}"))
        return "\\".join((*qualifier, name))

    # --- uses ---------------------------------------------------------------------------------

    def classify(self, occurrence: Occurrence, parsed: Parsed | None = None) -> tuple[str, int]:
        """(exact|name|elsewhere, index of the definition an exact use resolves to or -1)."""
        match, index = self._classify(occurrence, parsed)
        if match != EXACT or index < 0 or parsed is None:
            return match, index
        return self._linked(match, index, parsed)

    def _linked(self, match: str, index: int, parsed: Parsed) -> tuple[str, int]:
        """An exact use reaches a definition in a language its own calls (`Language.links`): the
        same container's definition there (Kotlin's `Store.save` for a Kotlin use beside Swift's),
        else none of them — a Swift `Store` is not the Kotlin one."""
        from sofia.syntax.registry import links

        mine = links(parsed.lang)
        if self.links[index] == mine:
            return match, index
        container = self.definitions[index].container
        for other, definition in enumerate(self.definitions):
            if self.links[other] == mine and same(definition.container, container):
                return match, other
        return ELSEWHERE, -1

    def _classify(self, occurrence: Occurrence, parsed: Parsed | None) -> tuple[str, int]:
        target = self._target(occurrence, parsed)
        member = occurrence.member
        if member and occurrence.global_fallback and target is not None:
            # a bare name a type's body does not declare as the file shows it: the type's (an
            # inherited method, another part's) where its chain defines the name, a free name
            # where the whole known chain does not, either where the chain leaves the tree
            defined, known = self._chain_defines(target)
            if not defined and not known:
                return NAME, -1
            if not defined:
                member, target = False, self._scoped(occurrence)
        elif occurrence.global_fallback and self.defining.find(target) < 0:
            target = ()  # no function of that name in the namespace: PHP calls the global one
        elif occurrence.scopes:
            target = self._scoped(occurrence)
        if member:
            return self._member(occurrence, target, parsed)
        if not self.query.qualifier:
            index = self._find(target, parsed)
            if index >= 0:
                return EXACT, index
            # A top-level name resolved through the file's imports or namespace to a place where
            # none of the definitions is (`from html import escape`) is not one of them.
            if target is not None and self.definitions and occurrence.kind != "tag":
                return ELSEWHERE, -1
            return NAME, -1
        if self.member_query and occurrence.kind not in ("import", "tag", "reference"):
            return ELSEWHERE, -1
        if self.member_query:
            return (NAME, -1) if target is None else (ELSEWHERE, -1)
        if target is None:
            return NAME, -1
        index = self._find(target, parsed)
        if index >= 0:
            return EXACT, index
        return (EXACT, -1) if suffix(self.query.qualifier, target) else (ELSEWHERE, -1)

    def _scoped(self, occurrence: Occurrence) -> Path | None:
        """Where a name the file neither declares nor imports lives (`Occurrence.scopes`): the
        first enclosing type whose known chain defines a type of that name (the class of the chain
        that does), else the first package or namespace a file of which defines the name; None
        where none does (a wildcard or default import may bring it)."""
        for path, is_type in occurrence.scopes:
            if is_type:
                ancestors, _ = self._ancestors(path)
                for ancestor in [path, *sorted(ancestors - {path})]:
                    if self.defining_types.find(ancestor) >= 0:
                        return ancestor
            elif self.defining.find(path) >= 0:
                return path
        return None

    def _find(self, target: Path | None, parsed: Parsed | None) -> int:
        """The definition a module or namespace holds, directly, re-exported, or passed on whole by
        a barrel (`export * from './x'`, read the first time a use goes through it)."""
        index = self.by_container.find(target)
        if index >= 0 or target is None or not target or parsed is None or not self.definitions:
            return index
        index = self.modules.reaches(parsed.lang, target, self.by_container.find)
        if index >= 0:
            self.by_container.add(target, index)
        return index

    def _is_member(self, definition: Definition) -> bool:
        """Whether a definition is a class's member (a method, a property, a class constant or a
        nested class), as opposed to a module's or namespace's top-level name."""
        if definition.kind in ("method", "property"):
            return True
        return definition.container is None or definition.container in self.parents

    def _member(self, occurrence: Occurrence, target: Path | None, parsed: Parsed | None) -> tuple[str, int]:
        if self.free:
            # A call on an object is not a call of a free function; through the module or
            # namespace that holds it (`doc.assigned_users()` after `from app.api import doc`) it is.
            index = self._find(target, parsed)
            if index >= 0:
                return EXACT, index
            if target is not None and self.query.qualifier and suffix(self.query.qualifier, target):
                return EXACT, -1
            return ELSEWHERE, -1
        if target is None:
            return NAME, -1
        if not self.member_query and self.query.qualifier:
            return NAME, -1
        seen: set[Path] = set()
        chain = [target]
        broken = False
        while chain:
            current = chain.pop(0)
            if current in seen:
                continue
            seen.add(current)
            index = self.by_container.find(current)
            if index >= 0:
                return EXACT, index
            if self.query.qualifier and suffix(self.query.qualifier, current):
                return EXACT, -1
            if self._defines(current):
                return (NAME, -1) if self._possible(occurrence, current) else (ELSEWHERE, -1)
            parents = self.parents_of(current)
            if parents is None:
                # A parent no searched file declares: another parent may still lead to the
                # requested class (`class Group(db.Model, CRUDMixin)` for `CRUDMixin.get_all`).
                broken = broken or not self._outside(current)
                continue
            chain.extend(parents)
        if broken:
            return NAME, -1
        return (NAME, -1) if self._possible(occurrence, target) else (ELSEWHERE, -1)

    def parents_of(self, path: Path) -> tuple[Path, ...] | None:
        """The parents of the class at `path`, None where no searched file declares it. A path
        written shorter than the class's own (`Dataset` inside `namespace LightGBM {` for
        `LightGBM::Dataset`) is that class when exactly one declared class ends with it."""
        parents = self.parents.get(path)
        if parents is not None or not path:
            return parents
        matching = [known for known in self.parents_by_last.get(path[-1], []) if same(known, path)]
        return self.parents[matching[0]] if len(matching) == 1 else None

    def _possible(self, occurrence: Occurrence, current: Path) -> bool:
        """A receiver known not to be the requested class (for a bare name: none of the classes
        defining it) may still reach it: a class in the same hierarchy (an ancestor's `$this`, a
        subclass overriding it, a sibling implementing the same interface method) dispatches to
        related methods."""
        if current not in self.related:
            self.related[current] = any(self._share(path, current) for path in self.wanted)
        return self.related[current]

    def _share(self, wanted: Path, current: Path) -> bool:
        """Whether two classes are one hierarchy for the name: one reaches the other, or both
        reach an ancestor declaring it. When the receiver's own chain is broken (a parent in no
        searched file) nothing can be ruled out; when it is whole and reaches neither the
        requested class nor a shared declaring ancestor, the receiver is another hierarchy,
        even if the requested class's chain runs out of the tree (`UserController extends
        BaseController`, a framework class)."""
        mine, _ = self._ancestors(wanted)
        theirs, theirs_known = self._ancestors(current)
        if any(same(a, current) for a in mine) or any(same(a, wanted) for a in theirs):
            return True
        if any(self.defining.find(a) >= 0 for a in mine & theirs):
            return True
        return not theirs_known

    def _ancestors(self, start: Path) -> tuple[set[Path], bool]:
        """`start` and every known ancestor, and whether the whole chain is known."""
        seen: set[Path] = set()
        todo = [start]
        known = True
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            parents = self.parents_of(path)
            if parents is None:
                known = known and self._outside(path)
                continue
            todo.extend(parents)
        return seen, known

    def _outside(self, path: Path) -> bool:
        """Whether a class no searched file declares is outside the tree (a framework's: it
        descends from no class of the tree): in Python and JS/TS, no file of the tree is the
        module it is imported from (`flask.views.MethodView`, `vue`'s `Component`). Elsewhere,
        or when such a file exists, it may be a class of the tree in a file that does not
        mention the name."""
        if path not in self.outside_memo:
            lang = self.class_langs.get(path, "")
            kind = family(lang)
            self.outside_memo[path] = bool(kind) and not any(
                self.modules.file(kind, path[:depth]) is not None for depth in range(len(path) - 1, 0, -1)
            )
        return self.outside_memo[path]

    def _links_of(self, definition: Definition) -> str:
        from sofia.syntax.registry import links

        parsed = self.found.parsed.get(definition.file)
        return links(parsed.lang) if parsed is not None else links("vue")

    def _chain_defines(self, start: Path) -> tuple[bool, bool]:
        """(whether `start` or a known ancestor defines the name, whether its whole chain is known)."""
        ancestors, known = self._ancestors(start)
        return any(self._defines(path) for path in ancestors), known

    def _defines(self, container: Path) -> bool:
        """Whether a parsed file defines the name as a member of `container` (an override)."""
        return self.defining.find(container) >= 0


def accepts(query: Query, definition: Definition, exports: list[Path]) -> bool:
    """Whether a definition is one a requested name denotes: a bare name every definition of
    it; a qualified one those whose container (or a module re-exporting it: `httpx.Client` for
    `httpx/_client.py`'s Client) ends with the qualifier, or whose qualified name ends with it."""
    qualifier = query.qualifier
    if suffix(qualifier, definition.container) or any(suffix(qualifier, m) for m in exports):
        return True
    return bool(qualifier) and _qname_ends(definition.qname, qualifier, query.name)


def _workspace(found: Found) -> FilePath:
    """The workspace the search root is in (its printed form `base` is relative to it); the
    root itself when that cannot be told."""
    request = found.request
    cwd = request.cwd
    if request.target != "." or request.base in ("", ".") or request.base.startswith(".."):
        return cwd
    depth = len([p for p in request.base.split("/") if p])
    return cwd.parents[depth - 1] if depth <= len(cwd.parents) else cwd


def _qname_ends(qname: str, qualifier: tuple[str, ...], name: str) -> bool:
    parts = tuple(p for p in qname.replace("::", ".").split(".") if p)
    return parts[-len(qualifier) - 1 :] == (*qualifier, name)


def _component_container(rel: str) -> Path:
    from sofia.syntax.uses.js import module_path

    return module_path(rel)[:-1]


def match(query: Query, found: Found) -> Matched:
    matcher = Matcher(query, found)
    matched = Matched(query, matcher.definitions, [])
    class_only = bool(matcher.definitions) and all(d.kind in CLASS_KINDS for d in matcher.definitions)
    for spelling in found.spellings.get(query.name, [query.name]):
        counts = found.counts.get(spelling, {})
        matched.text += sum(counts.values())
        for raw, count in counts.items():
            if os.fsdecode(raw) not in found.parsed and raw.decode("utf-8", "replace") not in found.parsed:
                matched.unclassified += count
    for rel in sorted(found.parsed, key=os.fsencode):
        parsed = found.parsed[rel]
        for occurrence in parsed.uses.occurrences.get(query.name, []):
            role = occurrence.role
            if not occurrence.spelled or role == USE:
                matched.raw_lines.setdefault((rel, occurrence.line), parsed.texts.get(occurrence.line, ""))
            if role == COMMENT:
                matched.totals["in_comments"] += 1
            elif role == STRING:
                matched.totals["in_strings"] += 1
            elif role == LOCAL:
                matched.totals["locals"] += 1
            elif role == DEFINITION:
                listed = (rel, occurrence.line, occurrence.col) in matcher.listed
                matched.totals["definitions" if listed else ELSEWHERE] += 1
            elif role == USE:
                label, index = matcher.classify(occurrence, parsed)
                if label == ELSEWHERE:
                    matched.totals[ELSEWHERE] += 1
                    continue
                kind = occurrence.kind
                if kind == "call" and class_only and constructs_by_call(parsed.lang):
                    kind = "new"
                matched.uses.append(Use(rel, occurrence.line, occurrence.col, kind, label, index, parsed))
                matched.totals[label] += 1
                matched.totals["uses"] += 1
                matched.kinds[kind] += 1
                if index >= 0:
                    matcher.definitions[index].uses += 1
            else:
                matched.totals["other"] += 1
    matched.totals["definitions"] = len(matcher.definitions)
    if not query.qualifier and len({d.qname for d in matcher.definitions}) > 1:
        matched.narrowing = matcher.narrowing()
    return matched


def collapse(text: str, limit: int = 160) -> str:
    """A declaration line as a signature: whitespace collapsed, a trailing `{` dropped, cut."""
    line = " ".join(text.split()).removesuffix("{").rstrip()
    return line if len(line) <= limit else line[: limit - 1] + "…"
