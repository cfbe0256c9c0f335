"""PHP symbols: `Class::method` qnames, declaration lines after attributes, slice ranges from the
doc comment, braced namespaces and guarded helpers, enclosing symbols and touched symbols."""

from __future__ import annotations

from pathlib import Path

from sofia.syntax import parse, parse_file, slice_text, touched_symbols

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "code" / "php"
CONTROLLER = FIXTURES / "app" / "src" / "Controller" / "UserController.php"


def outline(source: bytes) -> list[tuple[str, str, int, int, int]]:
    tree = parse(source, "php")
    return [(s.kind, s.qname, s.slice_line, s.line, s.end_line) for s in tree.walk()]


def test_controller_symbols_and_ranges() -> None:
    tree = parse_file(CONTROLLER)
    assert tree is not None and tree.parse_errors == 0
    assert [s.qname for s in tree.walk()] == [
        "UserController",
        "UserController::__construct",
        "UserController::index",
        "UserController::show",
        "UserController::create",
        "UserController::update",
        "UserController::destroy",
        "UserController::block",
        "UserController::toArray",
        "UserController::cacheKey",
    ]
    klass = tree.symbols[0]
    assert (klass.kind, klass.slice_line, klass.line, klass.end_line) == ("class", 20, 27, 139)
    destroy = tree.find("UserController::destroy")[0]
    assert (destroy.kind, destroy.owner, destroy.slice_line, destroy.line, destroy.end_line) == (
        "method",
        "UserController",
        94,
        99,
        109,
    )
    text = slice_text(tree.source, destroy).decode()
    assert text.startswith("    /**\n     * Deletes a user for good")
    assert "    #[Route('/{id}', name: 'destroy', methods: ['DELETE'])]\n    #[IsGranted(" in text
    assert text.endswith("        return $this->json(null, Response::HTTP_NO_CONTENT);\n    }\n")


def test_every_class_like_and_functions_in_namespaces_and_guards() -> None:
    source = (
        b"<?php\n"
        b"namespace App\\Support {\n"
        b"    interface Shape { public function area(): float; }\n"
        b"    trait Named { public function name(): string { return ''; } }\n"
        b"    enum Unit: string { case Cm = 'cm'; public function label(): string { return ''; } }\n"
        b"    if (!function_exists('helper')) {\n"
        b"        function helper(): void {}\n"
        b"    }\n"
        b"}\n"
        b"namespace {\n"
        b"    $anon = new class { public function hidden(): void {} };\n"
        b"    function global_fn(): void {}\n"
        b"}\n"
    )
    assert outline(source) == [
        ("interface", "Shape", 3, 3, 3),
        ("method", "Shape::area", 3, 3, 3),
        ("trait", "Named", 4, 4, 4),
        ("method", "Named::name", 4, 4, 4),
        ("enum", "Unit", 5, 5, 5),
        ("method", "Unit::label", 5, 5, 5),
        ("function", "helper", 7, 7, 7),
        ("function", "global_fn", 12, 12, 12),
    ]


def test_attributes_move_the_slice_start_not_the_declaration_line() -> None:
    source = (
        b"<?php\n\nclass A\n{\n"
        b"    // not attached: a blank line follows\n\n"
        b"    /** Attached. */\n"
        b"    #[Route('/x')]\n"
        b"    #[IsGranted('ROLE_X')]\n"
        b"    public function x(): void\n    {\n    }\n}\n"
    )
    assert outline(source)[1] == ("method", "A::x", 7, 10, 12)


def test_enclosing_names_the_innermost_symbol() -> None:
    tree = parse_file(CONTROLLER)
    assert tree is not None
    assert tree.enclosing(103) is not None and tree.enclosing(103).qname == "UserController::destroy"  # type: ignore[union-attr]
    assert tree.enclosing(29).qname == "UserController"  # type: ignore[union-attr]
    assert tree.enclosing(5) is None


def test_php_8_4_and_8_5_members_are_recovered() -> None:
    source = (
        b"<?php\nfinal class M\n{\n"
        b"    public private(set) string $a { get => $this->a; }\n"
        b"    public const string V = 'x';\n"
        b"    public function __construct(final public readonly int $id = 1) {}\n"
        b"    public function run(): string { return 'a' |> strtoupper(...); }\n"
        b"    public function after(): void { $x = new Foo()->bar(); }\n"
        b"}\n"
    )
    tree = parse(source, "php")
    assert [s.qname for s in tree.walk()] == ["M", "M::__construct", "M::run", "M::after"]
    assert tree.parse_errors <= 2


def test_touched_symbols_use_php_qnames() -> None:
    old = CONTROLLER.read_bytes()
    new = old.replace(b"Response::HTTP_NO_CONTENT", b"Response::HTTP_OK").replace(
        b"    private static function cacheKey",
        b"    public function count(): int\n    {\n        return 0;\n    }\n\n    private static function cacheKey",
    )
    changed_line = new.decode().splitlines().index("        return $this->json(null, Response::HTTP_OK);") + 1
    added = new.decode().splitlines().index("    public function count(): int") + 1
    names = touched_symbols("php", old, new, [(108, 108)], [(changed_line, changed_line), (added, added + 4)])
    assert names == ["UserController::destroy", "+UserController::count"]


def test_crlf_and_bom_keep_file_lines() -> None:
    source = b"\xef\xbb\xbf<?php\r\nclass C\r\n{\r\n    public function m(): void\r\n    {\r\n    }\r\n}\r\n"
    tree = parse(source, "php")
    method = tree.find("C::m")[0]
    assert (method.line, method.end_line) == (4, 6)
    assert slice_text(source, method) == b"    public function m(): void\r\n    {\r\n    }\r\n"
