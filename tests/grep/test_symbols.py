"""Every hit carries the qualified name of its enclosing symbol (docs/architecture.md, "The symbol layer"), the same
key `code` slices by; "" outside every symbol, "?" where the file has no parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grep.conftest import SHOP, every_hit, rows
from tests.helpers import count_parses


def symbols(pattern: str, **options: object) -> dict[tuple[str, int], str]:
    entry = every_hit(SHOP, pattern, **options)
    return {(hit["file"], hit["line"]): hit["symbol"] for hit in rows(entry)}


def test_php_methods() -> None:
    assert symbols("deleteUser", exts=["php"]) == {
        ("app/Http/Controllers/UserController.php", 20): "UserController::destroy",
        ("app/Services/UserService.php", 9): "UserService::deleteUser",
    }


def test_php_hit_outside_every_symbol() -> None:
    assert symbols("use Illuminate", exts=["php"]) == {("app/Http/Controllers/UserController.php", 6): ""}


def test_php_comment_right_above_a_class_belongs_to_it() -> None:
    assert symbols("Routes: DELETE", exts=["php"]) == {
        ("app/Http/Controllers/UserController.php", 8): "UserController"
    }


def test_go_method_and_function() -> None:
    found = symbols(r"s\.Routes\(\)|s\.mux|WriteHeader\(http\.StatusOK", regex=True, root="server")
    assert found == {
        ("server/server.go", 15): "NewServer",
        ("server/server.go", 21): "Server.Routes",
        ("server/server.go", 22): "Server.Routes",
        ("server/server.go", 23): "Server.Routes",
    }


def test_python_nested_method_and_nested_function() -> None:
    found = symbols(r"send_invoice\(invoice\)|invoices\[i|from __future__", regex=True, exts=["py"])
    assert found == {
        ("billing/invoices.py", 3): "",
        ("billing/invoices.py", 15): "Outer.Inner.run",
        ("billing/invoices.py", 21): "schedule.batch",
    }


def test_typescript_class_member_and_arrow_const() -> None:
    found = symbols(r"toFixed|this\.items\.push|formatPrice\(this", regex=True, root="web/src/stores")
    assert found == {
        ("web/src/stores/cart.ts", 10): "formatPrice",
        ("web/src/stores/cart.ts", 17): "CartStore.addItem",
        ("web/src/stores/cart.ts", 21): "CartStore.total",
    }


def test_vue_script_setup_function_and_template() -> None:
    found = symbols(r"toggle|open\.value", regex=True, exts=["vue"])
    assert found == {
        ("web/src/components/CartPanel.vue", 3): "<template>",
        ("web/src/components/CartPanel.vue", 15): "toggle",
        ("web/src/components/CartPanel.vue", 16): "toggle",
    }


def test_unsupported_language_is_marked_not_parsed() -> None:
    assert symbols("deleteUser", exts=["md"]) == {("docs/architecture.md", 3): "?"}


@pytest.mark.parametrize("count", [500])
def test_file_with_many_hits_is_parsed_once(
    tmp_path: Path, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = "".join(f"    needle_{i} = needle * {i}\n" for i in range(count))
    (tmp_path / "many.py").write_text(f"def spread(needle):\n{body}    return needle\n")
    built = count_parses(monkeypatch)
    entry = every_hit(tmp_path, "needle_", exts=["py"])
    assert built == ["python"]
    assert entry["shown"] == entry["total"] == count
    assert {hit["symbol"] for hit in rows(entry)} == {"spread"}
