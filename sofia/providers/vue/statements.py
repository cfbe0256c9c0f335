"""Statements in the route evaluator: a block's functions hoisted, declarations (a top-level one
left as a thunk until read), exports, `if` (a condition decided at run time follows every branch),
`for ... of/in`, enums, destructuring, and what a statement it does not follow taints. A
top-level expression statement runs only when it can change a value a table reads."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from sofia.providers.vue.host import Host
from sofia.providers.vue.modules import Module, string_value, text
from sofia.providers.vue.values import (
    UNDEFINED,
    Array,
    Func,
    Obj,
    Origin,
    Scope,
    Unknown,
    truthy,
)

FUNCTIONS = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
MUTATORS = frozenset({"push", "unshift", "splice", "concat"})
DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})


class Thunk:
    """A top-level declaration not yet evaluated: only what the table reads is evaluated."""

    def __init__(self, node: Any) -> None:
        self.node = node
        self.running = False


class Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class Break(Exception):
    pass


class Continue(Exception):
    pass


def run_block(ev: Host, statements: list[Any], scope: Scope) -> None:
    for statement in statements:
        declaration = (
            statement.child_by_field_name("declaration")
            if statement.type == "export_statement"
            else statement
        )
        if declaration is not None and declaration.type in (
            "function_declaration",
            "generator_function_declaration",
        ):
            name = declaration.child_by_field_name("name")
            if name is not None:
                scope.names[text(name)] = Func(scope, declaration)
    for statement in statements:
        run(ev, statement, scope)


def run(ev: Host, node: Any, scope: Scope) -> None:
    if not ev.step():
        taint(ev, node, scope)
        return
    kind = node.type
    top = scope.parent is None
    if kind in DECLARATIONS:
        for declarator in node.named_children:
            if declarator.type == "variable_declarator":
                name = declarator.child_by_field_name("name")
                value_node = declarator.child_by_field_name("value")
                if top and name is not None and name.type == "identifier" and value_node is not None:
                    scope.names[text(name)] = Thunk(value_node)  # evaluated when first read
                    continue
                value = ev.eval(value_node, scope) if value_node is not None else UNDEFINED
                bind(ev, name, value, scope)
    elif kind == "expression_statement":
        if node.named_children and (not top or _may_change_tables(node, scope.module)):
            ev.eval(node.named_children[0], scope)
    elif kind == "export_statement":
        _run_export(ev, node, scope)
    elif kind == "statement_block":
        run_block(ev, node.named_children, Scope(scope.module, scope))
    elif kind == "if_statement":
        _run_if(ev, node, scope)
    elif kind == "for_in_statement":
        _run_for_in(ev, node, scope)
    elif kind == "return_statement":
        value = ev.eval(node.named_children[0], scope) if node.named_children else UNDEFINED
        raise Return(value)
    elif kind == "break_statement":
        raise Break
    elif kind == "continue_statement":
        raise Continue
    elif kind == "try_statement":
        body = node.child_by_field_name("body")
        if body is not None:
            run(ev, body, scope)
    elif kind == "enum_declaration":
        _run_enum(ev, node, scope)
    elif kind in (
        "for_statement",
        "while_statement",
        "do_statement",
        "switch_statement",
        "labeled_statement",
    ):
        taint(ev, node, scope)


def _run_enum(ev: Host, node: Any, scope: Scope) -> None:
    """A TypeScript enum as an object of its members (`RoutePath.Login` is a string)."""
    name = node.child_by_field_name("name")
    body = node.child_by_field_name("body")
    if name is None or body is None:
        return
    members = Obj()
    following: Any = 0
    for member in body.named_children:
        if member.type == "enum_assignment":
            key = member.child_by_field_name("name")
            value = ev.eval(member.child_by_field_name("value"), scope)
        elif member.type == "property_identifier":
            key, value = member, following
        else:
            continue
        if key is not None:
            members.props[text(key).strip("'\"")] = value
        if isinstance(value, int) and not isinstance(value, bool):
            following = value + 1
        else:
            following = Unknown(Origin(scope.module, member), "an enum member after a computed one")
    scope.names[text(name)] = members


def _run_export(ev: Host, node: Any, scope: Scope) -> None:
    declaration = node.child_by_field_name("declaration")
    is_default = any(child.type == "default" for child in node.children)
    if declaration is not None:
        run(ev, declaration, scope)
        if is_default and declaration.type in FUNCTIONS | {"function_declaration"}:
            name = declaration.child_by_field_name("name")
            found = scope.names.get(text(name)) if name is not None else None
            ev.defaults[scope.module.path] = found if found is not None else Func(scope, declaration)
        return
    value = node.child_by_field_name("value")
    if value is not None and is_default:
        ev.defaults[scope.module.path] = ev.eval(value, scope)


def _run_if(ev: Host, node: Any, scope: Scope) -> None:
    condition = ev.eval(node.child_by_field_name("condition"), scope)
    consequence = node.child_by_field_name("consequence")
    alternative = node.child_by_field_name("alternative")
    branches = [b for b in (consequence, alternative) if b is not None]
    decided = truthy(condition)
    if decided is None:
        ev.undecided.append(Origin(scope.module, node.child_by_field_name("condition")))
        for branch in branches:
            with contextlib.suppress(Return):  # a run-time return does not stop the other branch
                run(ev, _else_body(branch), scope)
        return
    chosen = consequence if decided else alternative
    if chosen is not None:
        run(ev, _else_body(chosen), scope)


def _run_for_in(ev: Host, node: Any, scope: Scope) -> None:
    right = ev.eval(node.child_by_field_name("right"), scope)
    operator = node.child_by_field_name("operator")
    of = operator is not None and text(operator) == "of"
    items = ev.iterate(right) if of else ev.keys(right)
    if items is None:
        taint(ev, node, scope)
        return
    left = node.child_by_field_name("left")
    body = node.child_by_field_name("body")
    for item in items:
        inner = Scope(scope.module, scope)
        bind(ev, left, item, inner)
        try:
            if body is not None:
                run(ev, body, inner)
        except Break:
            break
        except Continue:
            continue


def bind(ev: Host, pattern: Any, value: Any, scope: Scope) -> None:
    """Bind a declaration's name or destructuring pattern."""
    if pattern is None:
        return
    kind = pattern.type
    if kind in ("identifier", "shorthand_property_identifier_pattern"):
        scope.names[text(pattern)] = value
    elif kind == "array_pattern":
        items = value.items if isinstance(value, Array) else None
        index = 0
        for element in pattern.children:
            if element.type == ",":
                index += 1
                continue
            if not element.is_named or element.type == "comment":
                continue
            if element.type == "rest_pattern":
                rest = items[index:] if items is not None else None
                bind(ev, element.named_children[0], Array(rest) if rest is not None else value, scope)
                break
            item = items[index] if items is not None and index < len(items) else UNDEFINED
            bind(ev, element, item if items is not None else value, scope)
    elif kind == "object_pattern":
        for part in pattern.named_children:
            if part.type == "shorthand_property_identifier_pattern":
                bind(ev, part, ev.member(value, text(part), Origin(scope.module, part)), scope)
            elif part.type == "pair_pattern":
                key = part.child_by_field_name("key")
                name = string_value(key) if key is not None and key.type == "string" else text(key)
                origin = Origin(scope.module, part)
                item = ev.member(value, name, origin) if name is not None else Unknown(origin, "a key")
                bind(ev, part.child_by_field_name("value"), item, scope)
            elif part.type == "object_assignment_pattern":
                bind(ev, part.child_by_field_name("left"), value, scope)
    elif kind == "assignment_pattern":
        if value is UNDEFINED:
            value = ev.eval(pattern.child_by_field_name("right"), scope)
        bind(ev, pattern.child_by_field_name("left"), value, scope)
    elif kind in ("required_parameter", "optional_parameter"):
        default = pattern.child_by_field_name("value")
        if value is UNDEFINED and default is not None:
            value = ev.eval(default, scope)
        bind(ev, pattern.child_by_field_name("pattern"), value, scope)


def taint(ev: Host, node: Any, scope: Scope) -> None:
    """A statement not followed: every array it would change says so."""
    origin = Origin(scope.module, node)
    for target in _mutated_names(node):
        found = scope.find(target)
        value = ev.lookup(target, scope, origin) if found is not None else None
        if isinstance(value, Array) and origin not in value.gaps:
            value.gaps.append(origin)


def _else_body(node: Any) -> Any:
    if node.type == "else_clause":
        return node.named_children[0] if node.named_children else node
    return node


def _may_change_tables(statement: Any, module: Module) -> bool:
    """Whether a top-level expression statement can change a value a table reads: it mutates
    something (`push`, an assignment), calls a function of this module, or hands a call a name.
    Others (`Vue.use(Router)`, `NProgress.configure({...})`) are not evaluated."""
    if next(_mutated_names(statement), None) is not None:
        return True
    stack = [statement]
    while stack:
        current = stack.pop()
        if current.type == "assignment_expression":
            return True
        if current.type == "call_expression":
            function = current.child_by_field_name("function")
            if function is not None and function.type == "identifier" and text(function) in module.bindings:
                return True
            arguments = current.child_by_field_name("arguments")
            if arguments is not None and any(a.type == "identifier" for a in arguments.named_children):
                return True
        stack.extend(current.named_children)
    return False


def _mutated_names(node: Any) -> Iterator[str]:
    """Identifiers `x` in `x.push(...)`, `x.unshift(...)`, `x.splice(...)` or `x = x.concat(...)`."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            function = current.child_by_field_name("function")
            if function is not None and function.type == "member_expression":
                target = function.child_by_field_name("object")
                prop = function.child_by_field_name("property")
                if (
                    target is not None
                    and target.type == "identifier"
                    and prop is not None
                    and text(prop) in MUTATORS
                ):
                    yield text(target)
        elif current.type == "assignment_expression":
            left = current.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                yield text(left)
        stack.extend(current.named_children)
