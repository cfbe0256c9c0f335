"""Vue SFC summaries: every script block summarised as JS/TS, plus
the component's public interface in `vue` — props, emits, models, the components its template
uses, the stores and composables it calls. Options API members become rows owned by the component."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sofia.output.tables import cut
from sofia.providers.code import cells
from sofia.providers.code.model import SourceFile, Summary, SummaryOptions
from sofia.providers.code.summary_ts import ScriptSummary, annotation, function_row
from sofia.syntax import js, vue
from sofia.syntax.grammars import language
from sofia.syntax.tree import Node, SymbolTree, text_of

TYPE_CUT = 60
"""Prop and model types are cut to this many characters."""
BUILTIN_COMPONENTS = frozenset(
    {"Component", "Slot", "Template", "Transition", "TransitionGroup", "KeepAlive", "Teleport", "Suspense"}
)
NATIVE_DASHED = frozenset(
    {
        "annotation-xml",
        "color-profile",
        "font-face",
        "font-face-format",
        "font-face-name",
        "font-face-src",
        "font-face-uri",
        "missing-glyph",
    }
)
"""Native SVG/MathML elements whose names contain a dash."""
COMPOSABLE = re.compile(r"use[A-Z0-9]\w*")
STORE = re.compile(r"use\w*Store")
CALLS_QUERY = "(call_expression function: (identifier) @callee) @call"
SECTION_MODS = {"methods": "", "computed": "computed", "watch": "watch"}


def summarise(tree: SymbolTree, file: SourceFile, options: SummaryOptions) -> Summary:
    component = file.path.name.rsplit(".", 1)[0]
    script = ScriptSummary(exported_only=options.exported, default_rows=False)
    interface = Interface(component=component)
    blocks = vue.sfc_blocks(tree.source)
    scripts = [b for b in blocks if b.tag == "script"]
    interface.script = " + ".join(script_label(b) for b in sorted(scripts, key=lambda b: not b.setup))
    for block in scripts:
        if block.tree is None:
            start = block.element.start_point.row + 1
            script.skipped.append((start, text_of(block.element).split("\n", 1)[0]))
            continue
        root = block.tree.root_node
        script.script(root)
        interface.read_script(block, script)
    for block in blocks:
        if block.tag == "template":
            interface.read_template(block.element)
    return Summary(fields=script.fields({"vue": interface.as_dict()}), skipped=script.skipped)


def script_label(block: vue.Block) -> str:
    lang = block.attrs.get("lang", "") or "js"
    return f"setup {lang}" if block.setup else lang


@dataclass
class Interface:
    """The `vue` object: what a parent component sees and what this component depends on."""

    component: str
    script: str = ""
    props: list[str] = field(default_factory=list)
    emits: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    components: list[str] = field(default_factory=list)
    stores: list[str] = field(default_factory=list)
    composables: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "component": self.component,
            "script": self.script,
            "props": unique(self.props),
            "emits": unique(self.emits),
            "models": unique(self.models),
            "components": unique(self.components),
            "stores": unique(self.stores),
            "composables": unique(self.composables),
        }

    def read_script(self, block: vue.Block, script: ScriptSummary) -> None:
        root = block.tree.root_node
        declared = local_types(root)
        store_names = [
            name
            for statement in root.named_children
            if statement.type == "import_statement"
            for name in store_imports(statement)
        ]
        self.stores.extend(store_names)
        for name, call in calls(block):
            if name == "defineProps":
                self.props.extend(props_of(call, declared))
            elif name == "defineEmits":
                self.emits.extend(emits_of(call, declared))
            elif name == "defineModel":
                self.models.append(model_of(call))
            elif STORE.fullmatch(name) or name in store_names:
                self.stores.append(name)
            elif COMPOSABLE.fullmatch(name):
                self.composables.append(name)
        found = vue.options_object(block.tree)
        if found is not None:
            self.options(found[1], script)

    def options(self, options: Node, script: ScriptSummary) -> None:
        """Options API: props, emits and components from the object; methods, computed and watch
        members as function rows owned by the component."""
        for key, _member, value in vue.object_members(options):
            if key == "props":
                self.props.extend(runtime_props(value))
            elif key == "emits":
                self.emits.extend(runtime_names(value))
            elif key == "components" and value.type == "object":
                self.components.extend(name for name, _m, _v in vue.object_members(value))
        for section, name, member, value in vue.option_members(options):
            if section not in SECTION_MODS:
                continue
            function = value if vue.is_callable(value) else None
            if function is None and value.type == "object":
                function = next(
                    (v for k, _m, v in vue.object_members(value) if k in ("get", "handler")), None
                )
            has_sig = function is not None and vue.is_callable(function)
            row = function_row(
                self.component,
                name,
                function if has_sig else member,
                member,
                "public",
                [SECTION_MODS[section]],
            )
            if not has_sig:
                row["sig"] = ""
            script.functions.append(row)

    def read_template(self, element: Node) -> None:
        for tag in tags(element):
            name = component_name(tag)
            if name:
                self.components.append(name)


def store_imports(statement: Node) -> list[str]:
    """Local names of the `use*` functions an import takes from a path containing `stores/`."""
    source = statement.child_by_field_name("source")
    if source is None or "stores/" not in js.name_text(source):
        return []
    names = []
    for node in walk(statement):
        if node.type == "import_specifier":
            local = node.child_by_field_name("alias") or node.child_by_field_name("name")
            names.append(text_of(local) if local is not None else "")
        elif node.type == "import_clause":
            names.extend(text_of(c) for c in node.named_children if c.type == "identifier")
    return [name for name in names if COMPOSABLE.fullmatch(name)]


def unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(item for item in items if item))


def walk(node: Node) -> list[Node]:
    """Every node under `node` (small subtrees only: an import statement, a props object)."""
    found = [node]
    for child in node.named_children:
        found.extend(walk(child))
    return found


@cache
def _query(grammar: str, text: str) -> Any:
    from tree_sitter import Query

    return Query(language(grammar), text)


def calls(block: vue.Block) -> list[tuple[str, Node]]:
    """(callee name, call) of every call of a plain identifier in a script, in source order."""
    from tree_sitter import QueryCursor

    matches = QueryCursor(_query(js.GRAMMAR[block.lang], CALLS_QUERY)).matches(block.tree.root_node)
    found = [(text_of(m["callee"][0]), m["call"][0]) for _, m in matches if "callee" in m and "call" in m]
    return sorted(found, key=lambda pair: pair[1].start_byte)


def tags(element: Node) -> list[str]:
    """Tag names of the start tags under a template element, in source order."""
    from tree_sitter import QueryCursor

    captures = QueryCursor(_query("html", "(start_tag (tag_name) @tag) (self_closing_tag (tag_name) @tag)"))
    nodes = captures.captures(element).get("tag", [])
    return [text_of(n) for n in sorted(nodes, key=lambda n: n.start_byte)][1:]


def component_name(tag: str) -> str:
    """`TaskDialog` for `<TaskDialog>` and `<task-dialog>`; "" for native and built-in elements."""
    if "-" in tag:
        if tag.lower() in NATIVE_DASHED:
            return ""
        name = "".join(part[:1].upper() + part[1:] for part in tag.split("-") if part)
    elif tag[:1].isupper():
        name = tag
    else:
        return ""
    return "" if name in BUILTIN_COMPONENTS else name


def local_types(root: Node) -> dict[str, Node]:
    """Interfaces and object type aliases declared in the script, by name: their member lists."""
    found: dict[str, Node] = {}
    for statement in root.named_children:
        decl, _ = js.unwrap(statement)
        if decl is None or decl.type not in ("interface_declaration", "type_alias_declaration"):
            continue
        name = decl.child_by_field_name("name")
        body = decl.child_by_field_name("body") or decl.child_by_field_name("value")
        if name is not None and body is not None:
            found[text_of(name)] = body
    return found


def type_argument(call: Node, declared: dict[str, Node]) -> Node | None:
    """The first type argument of a call, a same-file interface or alias followed to its body."""
    arguments = call.child_by_field_name("type_arguments")
    first = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
    if first is not None and first.type == "type_identifier":
        return declared.get(text_of(first))
    return first


def first_argument(call: Node) -> Node | None:
    arguments = call.child_by_field_name("arguments")
    values = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    return values[0] if values else None


def props_of(call: Node, declared: dict[str, Node]) -> list[str]:
    typed = type_argument(call, declared)
    if typed is not None:
        return [
            f"{member_name(m)}: {cut(annotation(m.child_by_field_name('type')), TYPE_CUT)}"
            for m in typed.named_children
            if m.type == "property_signature"
        ]
    argument = first_argument(call)
    return runtime_props(argument) if argument is not None else []


def member_name(member: Node) -> str:
    name = member.child_by_field_name("name")
    optional = any(not c.is_named and c.type == "?" for c in member.children)
    return (js.name_text(name) if name is not None else "") + ("?" if optional else "")


def runtime_props(value: Node) -> list[str]:
    """Props of `{ a: String, b: { type: Number, required: true } }` or `['a', 'b']`."""
    if value.type == "array":
        return runtime_names(value)
    if value.type != "object":
        return []
    props = []
    for key, _member, spec in vue.object_members(value):
        prop_type, required = spec, False
        if spec.type == "object":
            options = {k: v for k, _m, v in vue.object_members(spec)}
            prop_type = options.get("type", spec)
            required = "required" in options and text_of(options["required"]) == "true"
            if "type" not in options:
                prop_type = None
        type_text = runtime_type(prop_type) if prop_type is not None else ""
        name = key if required else f"{key}?"
        props.append(f"{name}: {cut(type_text, TYPE_CUT)}" if type_text else name)
    return props


def runtime_type(node: Node) -> str:
    """`String`, `String | Number` for `[String, Number]`, `User` for `Object as PropType<User>`."""
    if node.type == "array":
        return " | ".join(runtime_type(item) for item in node.named_children)
    if node.type == "as_expression":
        target = node.named_children[-1]
        if target.type == "generic_type":
            arguments = target.child_by_field_name("type_arguments")
            if arguments is not None and arguments.named_child_count:
                return cells.collapse(text_of(arguments.named_children[0]))
        return cells.collapse(text_of(target))
    if node.type in ("identifier", "member_expression"):
        return text_of(node)
    return ""


def runtime_names(value: Node) -> list[str]:
    """Names listed as `['a', 'b']` or as the keys of `{ a: null, b: (x) => true }`."""
    if value.type == "array":
        return [js.name_text(item) for item in value.named_children if item.type == "string"]
    if value.type == "object":
        return [key for key, _m, _v in vue.object_members(value)]
    return []


def emits_of(call: Node, declared: dict[str, Node]) -> list[str]:
    """Events of `defineEmits<{ (e: 'a'): void }>()`, `<{ a: [x: T] }>()`, `(['a'])`, `({ a: … })`."""
    typed = type_argument(call, declared)
    if typed is None:
        argument = first_argument(call)
        return runtime_names(argument) if argument is not None else []
    events: list[str] = []
    for member in typed.named_children:
        if member.type == "property_signature":
            events.append(member_name(member).rstrip("?"))
        elif member.type == "call_signature":
            parameters = member.child_by_field_name("parameters")
            first = (
                parameters.named_children[0]
                if parameters is not None and parameters.named_child_count
                else None
            )
            event_type = first.child_by_field_name("type") if first is not None else None
            if event_type is not None:
                events.extend(js.name_text(n) for n in walk(event_type) if n.type == "string")
    return events


def model_of(call: Node) -> str:
    """`modelValue` or the name given, with `: T` when the call has a type argument."""
    argument = first_argument(call)
    name = js.name_text(argument) if argument is not None and argument.type == "string" else "modelValue"
    arguments = call.child_by_field_name("type_arguments")
    if arguments is not None and arguments.named_child_count:
        return f"{name}: {cut(cells.collapse(text_of(arguments.named_children[0])), TYPE_CUT)}"
    return name
