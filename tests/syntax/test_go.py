"""Go symbols: funcs, methods by receiver base name, types, interface methods, consts and vars."""

from __future__ import annotations

from sofia.syntax import parse, slice_text, touched_symbols

SOURCE = b"""package server

import "net/http"

// Server serves the search API.
type Server struct {
\trouter *Mux
}

type (
\t// RegionCode is an ISO region.
\tRegionCode = string
\tContactSource interface {
\t\tFetch(inn string) error
\t\tName() string
\t}
)

const (
\tA = iota
\tB
)

var _, ErrNotFound = 1, 2

// Routes wires the handlers.
func (s *Server) Routes() http.Handler {
\treturn nil
}

func (c Cache[K, V]) Get(k K) V { var v V; return v }

func New() *Server { return &Server{} }
"""


def test_symbols_in_source_order() -> None:
    tree = parse(SOURCE, "go")
    rows = [(s.kind, s.qname, s.owner, s.line, s.end_line) for s in tree.walk()]
    assert rows == [
        ("struct", "Server", "", 6, 8),
        ("type", "RegionCode", "", 12, 12),
        ("interface", "ContactSource", "", 13, 16),
        ("method", "ContactSource.Fetch", "ContactSource", 14, 14),
        ("method", "ContactSource.Name", "ContactSource", 15, 15),
        ("const", "A", "", 20, 20),
        ("const", "B", "", 21, 21),
        ("var", "ErrNotFound", "", 24, 24),
        ("method", "Server.Routes", "Server", 27, 29),
        ("method", "Cache.Get", "Cache", 31, 31),
        ("function", "New", "", 33, 33),
    ]
    assert tree.parse_errors == 0


def test_slices_carry_doc_comments() -> None:
    tree = parse(SOURCE, "go")
    (routes,) = tree.find("Server.Routes")
    assert slice_text(SOURCE, routes) == (
        b"// Routes wires the handlers.\nfunc (s *Server) Routes() http.Handler {\n\treturn nil\n}\n"
    )
    (server,) = tree.find("Server")
    assert slice_text(SOURCE, server).startswith(b"// Server serves the search API.\ntype Server struct {")
    (region,) = tree.find("RegionCode")
    assert slice_text(SOURCE, region) == b"\t// RegionCode is an ISO region.\n\tRegionCode = string\n"


def test_enclosing_and_touched() -> None:
    tree = parse(SOURCE, "go")
    assert tree.enclosing(28).qname == "Server.Routes"  # type: ignore[union-attr]
    assert tree.enclosing(14).qname == "ContactSource.Fetch"  # type: ignore[union-attr]
    assert tree.enclosing(3) is None
    touched = touched_symbols("go", SOURCE, SOURCE, [(7, 13)], [(7, 13)])
    assert touched == ["Server", "RegionCode", "ContactSource"]
