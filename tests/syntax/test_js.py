"""JS/TS/TSX symbols: classes and methods, functions and consts bound to functions, overloads,
namespaces and ambient modules, nested named functions, decorators and doc comments in slices."""

from __future__ import annotations

from pathlib import Path

import pytest

from sofia.syntax import parse, parse_file, slice_text

TS = Path(__file__).resolve().parent.parent / "fixtures" / "code" / "ts" / "src"


def qnames(path: Path) -> list[tuple[str, str]]:
    tree = parse_file(path)
    assert tree is not None and tree.parse_errors == 0
    return [(s.kind, s.qname) for s in tree.walk()]


def test_store_with_nested_functions() -> None:
    assert qnames(TS / "stores" / "auth.ts") == [
        ("interface", "CurrentUser"),
        ("enum", "DealStatus"),
        ("type", "Id"),
        ("const", "useAuthStore"),
        ("function", "useAuthStore.login"),
        ("function", "useAuthStore.logout"),
        ("function", "helper"),
    ]


def test_generics_overloads_namespaces_and_ambient_modules() -> None:
    assert qnames(TS / "lib" / "collections.ts") == [
        ("type", "Predicate"),
        ("type", "Grouped"),
        ("interface", "Page"),
        ("interface", "Repository"),
        ("enum", "SortOrder"),
        ("function", "first"),
        ("function", "first"),
        ("function", "first"),
        ("function", "groupBy"),
        ("function", "chunk"),
        ("function", "compare"),
        ("function", "sortBy"),
        ("function", "sortBy.pick"),
        ("namespace", "Collections"),
        ("const", "Collections.VERSION"),
        ("function", "Collections.isEmpty"),
        ("namespace", "Collections.Internal"),
        ("function", "Collections.Internal.clamp"),
        ("function", "Collections.hidden"),
        ("namespace", "vue"),
        ("interface", "vue.ComponentCustomProperties"),
        ("namespace", "global"),
        ("interface", "global.Array"),
    ]


def test_class_members_and_private_names() -> None:
    names = qnames(TS / "api" / "client.ts")
    assert ("method", "ApiClient.#log") in names
    assert [q for k, q in names if q.startswith("ApiClient.")] == [
        "ApiClient.constructor",
        "ApiClient.token",
        "ApiClient.authenticated",
        "ApiClient.get",
        "ApiClient.post",
        "ApiClient.getTask",
        "ApiClient.listTasks",
        "ApiClient.logWork",
        "ApiClient.withAuth",
        "ApiClient.#log",
    ]
    assert names[:3] == [("const", "API_BASE_URL"), ("const", "DEFAULT_TIMEOUT"), ("class", "ApiError")]


def test_tsx_component_arrow_fields_and_default_export() -> None:
    names = qnames(TS / "components" / "UserList.tsx")
    assert ("function", "UserList") in names
    assert ("function", "UserList.handleClick") not in names  # a call result, not a function
    assert ("function", "UserListPage") in names
    assert ("method", "LegacyUserList.toggle") in names
    assert ("method", "LegacyUserList.render") in names


def test_commonjs_file() -> None:
    assert qnames(TS / "legacy" / "server.js") == [
        ("const", "path"),
        ("const", "express"),
        ("const", "config"),
        ("const", "PORT"),
        ("const", "STATIC_DIR"),
        ("function", "createApp"),
        ("function", "start"),
        ("class", "Shutdown"),
        ("method", "Shutdown.constructor"),
        ("method", "Shutdown.close"),
    ]


def test_slice_starts_at_doc_comment_and_decorators() -> None:
    source = (
        b"import { Component } from '@angular/core'\n\n"
        b"/** The shell. */\n"
        b"@Component({\n  selector: 'app-root',\n})\n"
        b"export class AppComponent {\n"
        b"  // trailing note of the field\n"
        b"  title = 'app'\n\n"
        b"  /** Greets. */\n"
        b"  @HostListener('click')\n"
        b"  onClick(): void {}\n"
        b"}\n"
    )
    tree = parse(source, "ts")
    klass = tree.find("AppComponent")[0]
    assert (klass.slice_line, klass.line, klass.end_line) == (3, 7, 14)
    method = tree.find("AppComponent.onClick")[0]
    assert (method.slice_line, method.line, method.end_line) == (11, 13, 13)
    assert slice_text(source, method) == b"  /** Greets. */\n  @HostListener('click')\n  onClick(): void {}\n"


def test_anonymous_defaults_and_js_decorators() -> None:
    source = (
        b"export default function () {}\nclass A { @dec m() {} 'quoted'() {} }\nexport default class {}\n"
    )
    tree = parse(source, "js")
    assert [(s.kind, s.qname, s.line) for s in tree.walk()] == [
        ("function", "default", 1),
        ("class", "A", 2),
        ("method", "A.m", 2),
        ("method", "A.quoted", 2),
        ("class", "default", 3),
    ]


@pytest.mark.parametrize("lang", ["js", "ts", "tsx"])
def test_broken_source_still_yields_what_parses(lang: str) -> None:
    source = b"export function ok(a) { return a }\nfunction broken( {\nexport const later = () => 1\n"
    tree = parse(source, lang)
    assert tree.parse_errors > 0
    assert "ok" in [s.qname for s in tree.walk()]
