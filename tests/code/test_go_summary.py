"""Go summaries: the reference's server.go, generics, grouped consts with iota, exported, brief."""

from __future__ import annotations

from typing import Any

import pytest

from sofia.providers.code import summary_go
from sofia.providers.code.documents import briefed, elided
from sofia.providers.code.model import SourceFile, SummaryOptions
from sofia.syntax import parse
from tests.code.conftest import FIXTURES, code, document

GO = FIXTURES / "go"


def summarise(rel: str, **options: bool) -> dict[str, Any]:
    path = GO / rel
    source = path.read_bytes()
    file = SourceFile(path, rel, GO, source, source.decode(), "go")
    return summary_go.summarise(parse(source, "go"), file, SummaryOptions(**options)).fields


def rows(table: list[dict[str, Any]], *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row[c] for c in columns) for row in table]


def test_reference_server_go() -> None:
    fields = summarise("server/server.go")
    assert fields["namespace"] == "server"
    assert fields["imports"] == ["context", "net/http", "chi github.com/go-chi/chi/v5"]
    assert rows(fields["types"], "kind", "name", "line", "end_line", "detail") == [
        ("struct", "Server", 12, 15, ""),
        ("interface", "ContactSource", 18, 21, ""),
        ("type", "RegionCode", 24, 24, "= string"),
    ]
    assert rows(fields["functions"], "owner", "name", "sig", "vis") == [
        ("ContactSource", "Fetch", "(ctx context.Context, inn string) ([]Contact, error)", "public"),
        ("ContactSource", "Name", "() string", "public"),
        ("", "New", "(db *DB) (*Server, error)", "public"),
        ("*Server", "Routes", "() http.Handler", "public"),
        ("*Server", "handleSearch", "(w http.ResponseWriter, r *http.Request)", "private"),
    ]
    assert rows(fields["properties"], "owner", "name", "type", "attrs") == [
        ("Server", "router", "*chi.Mux", ""),
        ("Server", "svc", "*Search", 'json:"-"'),
    ]
    assert rows(fields["constants"], "kind", "name", "value") == [
        ("const", "defaultLimit", "50"),
        ("var", "ErrNotFound", ""),
    ]


def test_generics_embedding_and_grouped_values() -> None:
    fields = summarise("cache/cache.go")
    types = {row["name"]: row for row in fields["types"]}
    assert types["Cache"]["detail"] == "[K comparable, V any]"
    assert types["Cache"]["extends"] == "sync.Mutex"
    assert types["Number"]["extends"] == "~int | ~int64 | ~float64"
    assert types["Level"]["detail"] == "int"
    functions = {row["name"]: row for row in fields["functions"]}
    assert functions["New"]["sig"] == "[K comparable, V any](size int, ttl time.Duration) *Cache[K, V]"
    assert functions["Get"]["owner"] == "*Cache[K, V]"
    assert functions["Put"]["sig"] == "(key K, value V)"
    assert functions["Sum"]["sig"] == "[T Number](values ...T) T"
    assert rows(fields["constants"], "kind", "name", "type", "value") == [
        ("const", "Quiet", "Level", "iota"),
        ("const", "Normal", "", ""),
        ("const", "Verbose", "", ""),
        ("const", "DefaultSize", "", "128"),
        ("const", "DefaultTTL", "", ""),
        ("const", "name", "", '"lru"'),
        ("const", "maxShards", "int", "16"),
        ("var", "ErrClosed", "", ""),
        ("var", "hits", "int64", ""),
        ("var", "misses", "int64", ""),
    ]
    assert ("Cache", "size", "int", 'cache:"size"') in rows(
        fields["properties"], "owner", "name", "type", "attrs"
    )


def test_exported_keeps_capitalised_names_only() -> None:
    fields = summarise("cache/cache.go", exported=True)
    assert [r["name"] for r in fields["types"]] == ["Level", "Number", "Pair", "Cache"]
    assert [r["name"] for r in fields["functions"]] == ["New", "Get", "Put", "Sum"]
    assert [r["name"] for r in fields["properties"]] == ["Key", "Value", "OnEvict"]
    assert [r["name"] for r in fields["constants"]] == [
        "Quiet",
        "Normal",
        "Verbose",
        "DefaultSize",
        "DefaultTTL",
        "ErrClosed",
    ]


def test_brief_drops_fields_tags_and_details_but_keeps_signatures(no_passthrough: None) -> None:
    result = code(GO, "server/server.go", brief=True)
    doc = document(result, "server/server.go")
    assert doc["mode"] == "summary"
    assert "imports" not in doc and "properties" not in doc
    assert all("detail" not in row and "attrs" not in row for row in doc["types"])
    assert {"name": "Routes", "sig": "() http.Handler"}.items() <= next(
        r for r in doc["functions"] if r["name"] == "Routes"
    ).items()
    assert [c["name"] for c in doc["constants"]] == ["defaultLimit", "ErrNotFound"]
    assert all("value" not in c for c in doc["constants"])


def test_elision_is_per_table(no_passthrough: None) -> None:
    doc = document(code(GO, "server/server.go"), "server/server.go")
    assert list(doc["types"][0]) == ["kind", "name", "line", "end_line", "detail"]
    assert list(doc["functions"][0]) == ["owner", "name", "sig", "line", "end_line", "vis"]
    assert doc == elided(doc)
    assert briefed(doc)["functions"] == doc["functions"]


@pytest.mark.parametrize(
    ("path", "exported"),
    [("server/server.go", False), ("server/server.go", True), ("cache/cache.go", True)],
)
def test_summary_rows_keep_one_shape_per_table(path: str, exported: bool, no_passthrough: None) -> None:
    """Rows of mixed visibility, kinds and optional columns still share one set of keys per table.
    (cache.go in full is no smaller summarised than raw, so it comes back raw: not a case here.)"""
    doc = document(code(GO, path, exported=exported), path)
    assert doc["mode"] == "summary"
    tables = [key for key in ("types", "functions", "properties", "constants") if key in doc]
    assert {"types", "functions", "constants"} <= set(tables)
    assert len(doc["types"]) > 1 and len(doc["functions"]) > 1
    for key in tables:
        assert len({tuple(row) for row in doc[key]}) == 1, key
