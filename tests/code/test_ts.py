"""JS/TS/TSX summaries: the reference's auth.ts facts, multi-line imports, generics, overloads,
namespaces, `declare module`, arrow-function exports, a TSX component, CommonJS, `exported`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sofia.output.budget import cost
from sofia.output.tokens import estimate
from tests.code.conftest import FIXTURES, code, document
from tests.code.summarised import summarised
from tests.helpers import run_sf

SRC = FIXTURES / "ts" / "src"


ELIDED = {"vis": "public", "promoted": False}


def rows(doc: dict[str, Any], table: str, *keys: str) -> list[tuple[Any, ...]]:
    """Cells of a table, elided columns read as their default."""
    return [tuple(row.get(k, ELIDED.get(k, "")) for k in keys) for row in doc.get(table, [])]


def test_auth_store_facts() -> None:
    doc = summarised(SRC, "stores/auth.ts")
    assert doc["imports"] == ["pinia", "vue"]
    assert rows(doc, "types", "kind", "name", "detail") == [
        ("interface", "CurrentUser", ""),
        ("enum", "DealStatus", ""),
        ("type", "Id", "string"),
    ]
    assert rows(doc, "properties", "owner", "name", "type") == [
        ("CurrentUser", "id", "string"),
        ("CurrentUser", "name", "string"),
        ("CurrentUser", "email?", "string"),
        ("CurrentUser", "roles", "string[]"),
    ]
    assert [(c["owner"], c["name"]) for c in doc["cases"]] == [
        ("DealStatus", "Open"),
        ("DealStatus", "Won"),
        ("DealStatus", "Lost"),
    ]
    assert "value" not in doc["cases"][0]
    assert rows(doc, "constants", "kind", "name", "value") == [
        ("const", "useAuthStore", "defineStore('auth', …)")
    ]
    names = [f["name"] for f in doc["functions"]] + [c["name"] for c in doc["constants"]]
    for local in ("token", "user", "isAgent", "login", "logout"):
        assert local not in names
    assert rows(doc, "functions", "name", "vis") == [("helper", "public")]  # exported as statusLabel


def test_client_class_members_ctor_and_multi_line_imports() -> None:
    doc = summarised(SRC, "api/client.ts")
    assert doc["imports"] == ["axios", "./types"]
    assert rows(doc, "ctor", "owner", "name", "type", "promoted") == [
        ("ApiError", "status", "number", True),
        ("ApiError", "message", "string", False),
        ("ApiError", "details?", "Record<string, string[]>", True),
        ("ApiClient", "baseURL", "string", False),
        ("ApiClient", "timeout", "", True),
    ]
    functions = {f["name"]: f for f in doc["functions"]}
    assert (
        functions["post"]["sig"]
        == "<T, B = unknown>(url: string, body: B, config?: AxiosRequestConfig): Promise<T>"
    )
    assert (functions["post"]["mods"], functions["post"]["vis"]) == ("async", "public")
    assert (functions["token"]["mods"], functions["authenticated"]["mods"]) == ("set", "get")
    assert functions["withAuth"]["vis"] == "protected"
    assert functions["#log"]["vis"] == "private"
    assert rows(doc, "properties", "name", "vis", "mods") == [
        ("http", "private", "readonly"),
        ("#token", "private", ""),
        ("instances", "public", "static"),
        ("retries?", "public", ""),
    ]
    assert rows(doc, "constants", "name", "value") == [
        ("API_BASE_URL", ""),
        ("DEFAULT_TIMEOUT", "10_000"),
        ("client", "new ApiClient()"),
    ]


def test_generics_overloads_namespaces_and_declare_module() -> None:
    doc = summarised(SRC, "lib/collections.ts")
    types = {t["name"]: t for t in doc["types"]}
    assert types["Grouped"]["detail"] == "<T, K extends PropertyKey = string> Record<K, T[]>"
    assert types["Repository"]["extends"] == "Iterable<T>"
    assert types["Repository"]["detail"] == "<T extends {id: string}, Q = Partial<T>>"
    assert types["SortOrder"]["mods"] == "const"
    assert (types["vue"]["kind"], types["vue"]["mods"]) == ("namespace", "declare")
    assert types["Collections.Internal"]["kind"] == "namespace"
    firsts = [f["sig"] for f in doc["functions"] if f["name"] == "first"]
    assert firsts == [
        "<T>(items: readonly T[]): T | undefined",
        "<T>(items: readonly T[], predicate: Predicate<T>): T | undefined",
        "<T>(items: readonly T[], predicate?: Predicate<T>): T | undefined",
    ]
    functions = {(f["owner"], f["name"]): f for f in doc["functions"]}
    assert functions[("", "groupBy")]["sig"] == (
        "<T, K extends PropertyKey>(items: readonly T[], key: (item: T) => K): Grouped<T, K>"
    )
    assert functions[("", "chunk")]["sig"] == "<T>(items: readonly T[], size = 10): T[][]"
    assert functions[("", "compare")]["vis"] == "private"
    assert functions[("Collections.Internal", "clamp")]["vis"] == "public"
    assert functions[("Collections", "hidden")]["vis"] == "private"
    assert ("", "pick") not in functions
    assert rows(doc, "cases", "name", "value") == [("Asc", "'asc'"), ("Desc", "'desc'")]


def test_exported_keeps_exported_declarations_and_non_private_members(no_passthrough: None) -> None:
    doc = summarised(SRC, "lib/collections.ts", exported=True)
    names = [(f["owner"], f["name"]) for f in doc["functions"]]
    assert ("", "compare") not in names and ("Collections", "hidden") not in names
    assert ("Collections.Internal", "clamp") in names
    client = summarised(SRC, "api/client.ts", exported=True)
    assert "#log" not in [f["name"] for f in client["functions"]]
    assert "withAuth" in [f["name"] for f in client["functions"]]
    assert [p["name"] for p in client["properties"]] == ["instances", "retries?"]


def test_tsx_component(no_passthrough: None) -> None:
    doc = summarised(SRC, "components/UserList.tsx")
    assert doc["lang"] == "tsx"
    assert doc["imports"] == ["react", "./Avatar", "./UserList.css"]
    assert rows(doc, "functions", "owner", "name", "vis") == [
        ("", "UserList", "public"),
        ("", "UserCount", "public"),
        ("", "UserListPage", "public"),
        ("LegacyUserList", "toggle", "public"),
        ("LegacyUserList", "render", "public"),
    ]
    assert doc["functions"][0]["sig"] == "({users, onSelect, emptyText = 'No users'})"
    legacy = next(t for t in doc["types"] if t["name"] == "LegacyUserList")
    assert legacy["extends"] == "React.Component<UserListProps, {expanded: boolean}>"


def test_commonjs_requires_are_imports() -> None:
    doc = summarised(SRC, "legacy/server.js")
    assert doc["lang"] == "js"
    assert doc["imports"] == ["path", "express", "util", "./config.json", "dotenv"]
    assert rows(doc, "constants", "name", "value") == [("PORT", ""), ("STATIC_DIR", "path.join(…)")]
    assert rows(doc, "functions", "owner", "name", "sig", "mods") == [
        ("", "createApp", "(options = {})", ""),
        ("", "start", "(port = PORT)", "async"),
        ("Shutdown", "close", "(timeout = 5000)", "async"),
    ]
    assert rows(doc, "ctor", "owner", "name") == [("Shutdown", "server")]


def test_decorators_and_abstract_members(tmp_path: Path) -> None:
    (tmp_path / "svc.ts").write_text(
        "@Injectable({ providedIn: 'root' })\n"
        "export abstract class Repo<T> implements OnInit {\n"
        "  @Input() label = 'x'\n"
        "  protected abstract load(id: string): Promise<T>\n"
        "  static override create(): void {}\n"
        "  ngOnInit(): void {}\n}\n"
        "export default { answer: 42 }\n"
        "export { Repo as Repository }\n"
    )
    doc = summarised(tmp_path, "svc.ts")
    (klass,) = doc["types"]
    assert (klass["mods"], klass["implements"], klass["attrs"], klass["detail"]) == (
        "abstract",
        "OnInit",
        "Injectable({providedIn: 'root'})",
        "<T>",
    )
    assert rows(doc, "functions", "name", "mods", "vis") == [
        ("load", "abstract", "protected"),
        ("create", "static override", "public"),
        ("ngOnInit", "", "public"),
    ]
    assert rows(doc, "properties", "name", "value", "attrs") == [("label", "'x'", "Input()")]
    assert rows(doc, "constants", "name", "vis") == [("default", "public")]


def test_every_ts_fixture_is_never_above_the_file(no_passthrough: None) -> None:
    for path in sorted(p for p in SRC.rglob("*") if p.is_file()):
        rel = str(path.relative_to(SRC))
        doc = document(code(SRC, rel), rel)
        assert doc["mode"] in ("summary", "raw")
        if doc["mode"] == "summary":
            assert cost(doc) < estimate(path.read_bytes())


def test_ts_directory_on_the_command_line() -> None:
    done = run_sf("code", "src", cwd=SRC.parent, env={"SOFIA_CODE_RAW_BELOW": "0"})
    assert done.returncode == 0, done.stderr
    assert "path: src/stores/auth.ts\n" in done.stdout
    assert "cases.DealStatus[3]{name}:\n  Open\n  Won\n  Lost\n" in done.stdout
    assert "# raw: src/lib/collections.ts (summary would not be smaller)\n" in done.stdout


def test_class_method_slice_is_byte_exact(no_passthrough: None) -> None:
    result = code(SRC, "api/client.ts", symbols=["ApiClient.post", "ApiClient.#log"])
    pieces = result["files"][0]["slices"]
    assert [(p["symbol"], p["kind"], p["line"], p["end_line"]) for p in pieces] == [
        ("ApiClient.post", "method", 49, 52),
        ("ApiClient.#log", "method", 73, 75),
    ]
    lines = (SRC / "api" / "client.ts").read_text().splitlines(keepends=True)
    for piece in pieces:
        assert piece["text"] == "".join(lines[piece["line"] - 1 : piece["end_line"]])


def test_overloads_by_name_return_every_signature(no_passthrough: None) -> None:
    result = code(SRC, "lib/collections.ts", symbols=["first", "Collections.Internal.clamp"])
    assert [(p["symbol"], p["line"]) for p in result["files"][0]["slices"]] == [
        ("first", 26),
        ("first", 27),
        ("first", 28),
        ("Collections.Internal.clamp", 68),
    ]
