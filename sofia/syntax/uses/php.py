"""PHP occurrences: names resolved through the file's namespace and `use` imports, receivers of
`$this->`, `self::`, `static::`, `parent::`, `Class::`, `new Class()` and of variables assigned
`new Class` or typed as a parameter in the same function."""

from __future__ import annotations

from sofia.syntax.php import CONTAINERS, TYPE_KINDS
from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses.model import DEFINITION, LOCAL, OTHER, USE, Binding, Occurrence, Path, Syntax
from sofia.syntax.uses.nodes import holding, is_field, nearest, span
from sofia.syntax.uses.scan import Base

TYPE_NODES = frozenset(
    {
        "named_type",
        "optional_type",
        "union_type",
        "intersection_type",
        "type_list",
        "disjunctive_normal_form_type",
    }
)
CALLS = {"member_call_expression", "nullsafe_member_call_expression"}
ACCESSES = {"member_access_expression", "nullsafe_member_access_expression"}
FUNCTIONS = ("method_declaration", "function_definition", "anonymous_function", "arrow_function")
CLASSES = tuple(TYPE_KINDS)


def _class_nodes(parent: Node) -> list[Node]:
    """Class-like declarations where the symbol layer finds them: at top level, through
    namespace blocks, guard statements and what error recovery wraps."""
    found: list[Node] = []
    for node in parent.named_children:
        if node.type in TYPE_KINDS:
            found.append(node)
        elif node.type in CONTAINERS:
            found.extend(_class_nodes(node))
    return found


def segments(text: str) -> Path:
    return tuple(part for part in text.strip().split("\\") if part)


class Analyzer(Base):
    def __init__(self, tree: Syntax, rel: str) -> None:
        self.tree = tree
        self.root = tree.trees[0].root_node
        self.namespaces: list[tuple[int, Path]] = []
        self.file_imports: dict[str, dict[str, Path]] = {"class": {}, "function": {}, "const": {}}
        self.blocks: list[tuple[int, int, dict[str, dict[str, Path]]]] = []
        """Braced `namespace X { ... }` blocks, each with the imports declared inside it."""
        for node in self.root.named_children:
            if node.type == "namespace_definition":
                self.namespaces.append((node.start_byte, segments(text_of(node.child_by_field_name("name")))))
                body = node.child_by_field_name("body")
                if body is not None:
                    imports: dict[str, dict[str, Path]] = {"class": {}, "function": {}, "const": {}}
                    for inner in body.named_children:
                        if inner.type == "namespace_use_declaration":
                            self._read_use(inner, imports)
                    self.blocks.append((node.start_byte, node.end_byte, imports))
            elif node.type == "namespace_use_declaration":
                self._read_use(node, self.file_imports)
        self.module = self.namespaces[0][1] if self.namespaces else ()

    def imports_at(self, start: int) -> dict[str, dict[str, Path]]:
        """The imports in force at byte `start`: its braced namespace block's, else the file's."""
        for low, high, imports in self.blocks:
            if low <= start < high:
                return imports
        return self.file_imports

    def _read_use(self, node: Node, into: dict[str, dict[str, Path]]) -> None:
        kind_node = next((c for c in node.children if c.type in ("function", "const")), None)
        prefix: Path = ()
        for child in node.named_children:
            if child.type == "namespace_name":
                prefix = segments(text_of(child))
        clauses = [c for c in node.named_children if c.type == "namespace_use_clause"]
        group = node.child_by_field_name("body")
        if group is not None:
            clauses += [c for c in group.named_children if c.type == "namespace_use_clause"]
        for clause in clauses:
            clause_kind = clause.child_by_field_name("type")
            kind = text_of(clause_kind or kind_node) or "class"
            target = next((c for c in clause.named_children if c.type in ("qualified_name", "name")), None)
            if target is None:
                continue
            path = prefix + segments(text_of(target))
            alias = clause.child_by_field_name("alias")
            local = text_of(alias) if alias is not None else path[-1]
            into.setdefault(kind, {})[local] = path

    # --- resolution ---------------------------------------------------------------------------

    def namespace_at(self, start: int) -> Path:
        current: Path = ()
        for begin, path in self.namespaces:
            if begin <= start:
                current = path
        return current

    def resolve(self, text: str, start: int, kind: str = "class") -> Path:
        """The fully qualified path of a name as written at byte `start`."""
        if text.startswith("\\"):
            return segments(text)
        parts = segments(text)
        if not parts:
            return ()
        lower = parts[0].lower()
        if parts[0].lower() == "namespace":
            return self.namespace_at(start) + parts[1:]
        imports = self.imports_at(start)
        imported = imports.get(kind, {})
        if len(parts) == 1 and parts[0] in imported:
            return imported[parts[0]]
        if len(parts) > 1 and parts[0] in imports["class"]:
            return imports["class"][parts[0]] + parts[1:]
        if lower in ("self", "static", "parent"):
            return ()
        return self.namespace_at(start) + parts

    def class_path(self, node: Node) -> Path | None:
        declaration = nearest(node, CLASSES)
        if declaration is None:
            return None
        name = text_of(declaration.child_by_field_name("name"))
        return (*self.namespace_at(declaration.start_byte), name) if name else None

    def parent_path(self, node: Node) -> Path | None:
        declaration = nearest(node, CLASSES)
        base = (
            next((c for c in declaration.named_children if c.type == "base_clause"), None)
            if declaration
            else None
        )
        if base is None:
            return None
        target = next((c for c in base.named_children if c.type in ("name", "qualified_name")), None)
        return self.resolve(text_of(target), target.start_byte) if target is not None else None

    def receiver(self, node: Node) -> tuple[Path | None, bool]:
        """The class an object or scope expression statically is, and whether it is `$this`/`self`."""
        while node.type == "parenthesized_expression" and node.named_child_count:
            node = node.named_children[0]
        if node.type == "variable_name":
            name = text_of(node)
            if name == "$this":
                return self.class_path(node), True
            return self.variable_class(node, name), False
        if node.type == "relative_scope":
            word = text_of(node).lower()
            if word == "parent":
                return self.parent_path(node), False
            return self.class_path(node), True
        if node.type in ("name", "qualified_name"):
            return self.resolve(text_of(node), node.start_byte) or None, False
        if node.type == "object_creation_expression":
            target = next((c for c in node.named_children if c.type in ("name", "qualified_name")), None)
            return (
                self.resolve(text_of(target), target.start_byte) or None
            ) if target is not None else None, False
        return None, False

    def variable_class(self, node: Node, name: str) -> Path | None:
        """`$x` assigned `new Foo(...)` or declared `Foo $x` in the same function, if only one class."""
        function = nearest(node, FUNCTIONS)
        if function is None:
            return None
        found: set[Path] = set()
        declaring = ("assignment_expression", "simple_parameter", "property_promotion_parameter")
        for inner in holding(self.tree.source, function, name, declaring):
            if inner.type == "assignment_expression":
                left, right = inner.child_by_field_name("left"), inner.child_by_field_name("right")
                if left is not None and right is not None and text_of(left) == name:
                    path = self.receiver(right)[0] if right.type == "object_creation_expression" else None
                    found.add(path or ())
            elif inner.type in ("simple_parameter", "property_promotion_parameter") and (
                text_of(inner.child_by_field_name("name")) == name
            ):
                kind = inner.child_by_field_name("type")
                if kind is not None and kind.type == "named_type":
                    found.add(self.resolve(text_of(kind), kind.start_byte))
                else:
                    found.add(())
        return found.pop() if len(found) == 1 and () not in found else None

    # --- classification -----------------------------------------------------------------------

    def classes(self) -> list[Binding]:
        found: list[Binding] = []
        for node in _class_nodes(self.root):
            name = text_of(node.child_by_field_name("name"))
            if name:
                parent = self.parent_path(node.child_by_field_name("name"))
                parents = [parent] if parent else []
                for clause in node.named_children:
                    if clause.type == "class_interface_clause":
                        parents += [
                            self.resolve(text_of(c), c.start_byte)
                            for c in clause.named_children
                            if c.type in ("name", "qualified_name")
                        ]
                found.append(Binding((*self.namespace_at(node.start_byte), name), tuple(parents)))
        return found

    def classify(self, node: Node, word: str) -> Occurrence:
        parent = node.parent
        here = node
        if parent is not None and parent.type == "qualified_name":
            if parent.named_children[-1] != node:  # a namespace segment, not the name itself
                return Occurrence(node.start_byte, 0, 0, OTHER)
            here, parent = parent, parent.parent
        if parent is None:
            return Occurrence(node.start_byte, 0, 0, USE, "reference")
        ptype = parent.type
        start = node.start_byte
        found = self.declared(here, parent, start)
        if found is not None:
            return found
        if ptype == "variable_name":
            return self.variable(parent, word)
        if ptype == "argument" and is_field(parent, "name", here):
            return Occurrence(start, 0, 0, OTHER)  # a named argument: a parameter's name
        found = self.member(here, parent, start)
        return found if found is not None else self.used(here, parent, start)

    def declared(self, here: Node, parent: Node, start: int) -> Occurrence | None:
        """The name a type, function, method or constant declaration introduces, or None."""
        ptype = parent.type
        if ptype in TYPE_KINDS and is_field(parent, "name", here):
            return self.definition(TYPE_KINDS[ptype], parent, self.namespace_at(start))
        if ptype == "function_definition" and is_field(parent, "name", here):
            return self.definition("function", parent, self.namespace_at(start))
        if ptype == "method_declaration" and is_field(parent, "name", here):
            return self.definition("method", parent, self.class_path(parent))
        if ptype in ("const_element", "enum_case"):
            owner = self.class_path(parent)
            decl = parent.parent if ptype == "const_element" and parent.parent is not None else parent
            return self.definition("constant", decl, owner if owner is not None else self.namespace_at(start))
        return None

    def member(self, here: Node, parent: Node, start: int) -> Occurrence | None:
        """A member called or read through an object (`$x->m()`) or a class (`X::m()`,
        `X::C`), the class being the scope's type use; None outside such an expression."""
        ptype = parent.type
        if ptype in CALLS or ptype in ACCESSES:
            if not is_field(parent, "name", here):
                return Occurrence(start, 0, 0, USE, "reference")
            target, own = self.receiver(parent.child_by_field_name("object"))
            kind = "call" if ptype in CALLS else "reference"
            return Occurrence(start, 0, 0, USE, kind, target, member=True, via_self=own)
        if ptype == "scoped_call_expression":
            if is_field(parent, "scope", here):
                return self.type_use("reference", here)
            target, own = self.receiver(parent.child_by_field_name("scope"))
            return Occurrence(start, 0, 0, USE, "call", target, member=True, via_self=own)
        if ptype == "class_constant_access_expression":
            named = parent.named_children
            if named and named[0] == here:
                return self.type_use("reference", here)
            target, own = self.receiver(named[0]) if named else (None, False)
            return Occurrence(start, 0, 0, USE, "reference", target, member=True, via_self=own)
        return None

    def used(self, here: Node, parent: Node, start: int) -> Occurrence:
        """Any other use: a function called, a class named (new, extends, a type, an import),
        else a reference (a constant, through its namespace)."""
        ptype = parent.type
        if ptype == "function_call_expression":
            path = self.resolve(text_of(here), start, "function")
            imported = len(segments(text_of(here))) > 1 or text_of(here) in self.imports_at(start)["function"]
            if imported:
                return Occurrence(start, 0, 0, USE, "call", path[:-1])
            # PHP tries the current namespace's function first, then the global one.
            return Occurrence(start, 0, 0, USE, "call", path[:-1], global_fallback=bool(path[:-1]))
        if ptype == "object_creation_expression":
            return self.type_use("new", here)
        if ptype == "base_clause":
            return self.type_use("extends", here)
        if ptype == "class_interface_clause":
            return self.type_use("implements", here)
        if ptype in ("use_declaration", "use_instead_of_clause", "use_as_clause", "use_list"):
            return self.type_use("use", here)
        if ptype == "namespace_use_clause":
            return self.import_clause(parent, here)
        if ptype in TYPE_NODES or ptype == "catch_clause":
            return self.type_use("type", here)
        if ptype == "binary_expression" and is_field(parent, "right", here):
            operator = parent.child_by_field_name("operator")
            if operator is not None and text_of(operator) == "instanceof":
                return self.type_use("type", here)
        if ptype == "attribute":
            return self.type_use("reference", here)
        if ptype in ("namespace_name", "namespace_definition"):
            return Occurrence(start, 0, 0, OTHER)
        return Occurrence(start, 0, 0, USE, "reference", self.constant_container(here))

    def constant_container(self, node: Node) -> Path | None:
        text = text_of(node)
        if len(segments(text)) > 1 or text in self.imports_at(node.start_byte)["const"]:
            return self.resolve(text, node.start_byte, "const")[:-1]
        return None

    def type_use(self, kind: str, node: Node) -> Occurrence:
        """A class name in a type position; its container is its resolved namespace."""
        path = self.resolve(text_of(node), node.start_byte)
        return Occurrence(node.start_byte, 0, 0, USE, kind, path[:-1] if path else None)

    def import_clause(self, clause: Node, node: Node) -> Occurrence:
        alias = clause.child_by_field_name("alias")
        if alias is not None and alias == node:
            return Occurrence(node.start_byte, 0, 0, USE, "import", None, alias=text_of(node))
        declaration = clause.parent
        if declaration is not None and declaration.type == "namespace_use_group":
            declaration = declaration.parent
        prefix: Path = ()
        if declaration is not None:
            for child in declaration.named_children:
                if child.type == "namespace_name":
                    prefix = segments(text_of(child))
        path = prefix + segments(text_of(node))
        return Occurrence(
            node.start_byte, 0, 0, USE, "import", path[:-1], alias=text_of(alias) if alias is not None else ""
        )

    def variable(self, variable: Node, word: str) -> Occurrence:
        """`$name`: a property where one is declared or accessed statically, else a local variable."""
        holder = variable.parent
        start = variable.start_byte + 1
        if holder is not None and holder.type == "property_element":
            declaration = holder.parent if holder.parent is not None else holder
            return self.definition("property", declaration, self.class_path(variable))
        if holder is not None and holder.type == "property_promotion_parameter":
            return self.definition("property", holder, self.class_path(variable))
        if holder is not None and holder.type == "scoped_property_access_expression":
            target, own = self.receiver(holder.child_by_field_name("scope"))
            return Occurrence(start, 0, 0, USE, "reference", target, member=True, via_self=own)
        return Occurrence(start, 0, 0, LOCAL)

    def definition(self, kind: str, decl: Node, container: Path | None) -> Occurrence:
        return Occurrence(decl.start_byte, 0, 0, DEFINITION, kind, container, decl=span(decl))
