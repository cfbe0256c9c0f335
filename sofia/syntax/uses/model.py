"""What the occurrence classifier reports for one file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Path = tuple[str, ...]
"""A container as segments: a namespace, module or package, optionally followed by a class."""


def ends_alike(a: Path, b: Path) -> bool:
    """Whether one path ends the other: a type written without its namespace (`Dataset` inside
    `namespace LightGBM {`) is the same type."""
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    return bool(shorter) and longer[len(longer) - len(shorter) :] == shorter


USE = "use"
DEFINITION = "definition"
COMMENT = "comment"
STRING = "string"
LOCAL = "local"
OTHER = "other"
"""Inside a longer token, or a closing tag repeating its opening one."""

UseKind = Literal["call", "new", "extends", "implements", "use", "import", "type", "tag", "reference"]
"""Every kind a use can have: refs' `kinds` parameter offers them in this order (totals list the
kinds found by name)."""


@dataclass
class Occurrence:
    """One place the name (or a local alias of it) is written."""

    start: int
    """Byte offset of the name in the file."""
    line: int
    col: int
    """1-based byte column, as `rg --vimgrep` prints it."""
    role: str
    """use, definition, comment, string, local (a variable or parameter of the same name) or other."""
    kind: str = ""
    """For a use: one of UseKind. For a definition: class, method, property, ..."""
    container: Path | None = None
    """What holds the thing referred to, as far as this file tells: the receiver's class for a
    member, the namespace/module/package for a top-level name; None when unknown."""
    member: bool = False
    """A member access (`x.name`, `$x->name`, `X::name`), as opposed to a top-level name."""
    global_fallback: bool = False
    """A PHP unqualified function call: the namespace's function if there is one, else the global."""
    scopes: tuple[tuple[Path, bool], ...] = ()
    """Where a name the file neither declares nor imports by name is looked for, innermost first,
    in a language that looks there before any wildcard or default import (`Uses.name_scopes`):
    (a path, whether it is a type). A type is where its known chain defines a type of the name
    (an inherited member type); a package or namespace where a file of it defines the name. Where
    none does, the name is not known (a wildcard or default import, `java.lang`). Also on a bare
    call a type's chain may show to be a free name (`global_fallback`): Kotlin's `Invoice()`."""
    through: Path | None = None
    """A definition's other container: the type its own container is reached through (`Foo`,
    for `Foo.Companion.create` of a Kotlin companion object, as Kotlin code calls it)."""
    qualified: bool = False
    """Written through a module or package (`api.get`, `models.Repo`): no local can shadow it."""
    via_self: bool = False
    """The receiver is the enclosing class itself (`$this`, `self`, `this`): a subclass's call."""
    alias: str = ""
    """An import binding the thing under another local name (`as Users`)."""
    exported: bool = False
    """An import or export that makes the thing this file's module's own under the same name
    (a Python module-level `from m import X`, `export { X } from './x'`): its uses through this
    module are uses of it."""
    bare_import: bool = False
    """The container was read from a non-relative module specifier (`@/utils`, `lodash`): a
    package, or a path alias the project's configuration maps to a directory."""
    spelled: str = ""
    """The text written here when it is not the name itself (an alias, a kebab-case tag)."""
    decl: tuple[int, int] = (0, 0)
    """A definition: byte range of its declaration."""
    end_line: int = 0
    """A definition: the last line of its declaration (filled in by whoever holds the source)."""
    scope: tuple[int, int] | None = None
    """A local binding: byte range of the scope it binds the name in."""
    field_of: tuple[Path, str, str] | None = None
    """A member use on a field the file does not declare, of the type whose body holds it:
    (that type, the field's name, how the member is reached: `.`, `->`, `[].`, `[]->`). C++'s `train_data_->num_data()`
    in `void Application::Init() { … }`, the field declared in the class's header; refs reads
    its type there (`Uses.included`)."""


@dataclass(frozen=True)
class Binding:
    """A class declared in a file and the parents it names (resolved as the file resolves them)."""

    path: Path
    parents: tuple[Path, ...]


@dataclass
class FileUses:
    """Every occurrence of the wanted names in one file, by name, in byte order."""

    lang: str
    module: Path
    """The file's own namespace, module or package."""
    occurrences: dict[str, list[Occurrence]] = field(default_factory=dict)
    classes: list[Binding] = field(default_factory=list)
    includes: tuple[str, ...] = ()
    """The files the file includes, as written (`Uses.included`), where a use reaches a field
    declared in one of them (`Occurrence.field_of`)."""


@dataclass
class Syntax:
    """A file as the classifiers read it: its language, its bytes and its syntax trees (a Vue
    file's script blocks) — no symbol tree, which only a shown use's enclosing symbol needs."""

    lang: str
    source: bytes
    trees: list[Any] = field(default_factory=list)
