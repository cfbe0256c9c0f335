"""A hit on a decorator, attribute or doc comment line belongs to the symbol it decorates, the
same symbol whose `code` slice starts at that line."""

from __future__ import annotations

from pathlib import Path

from tests.grep.conftest import every_hit, rows

FILES = {
    "api/items.py": (
        "import frappe\n\n\n"
        "@frappe.whitelist()\n"
        "def get_items(name):\n"
        '    """Items of a list (whitelisted)."""\n'
        "    return frappe.get_all(name)\n"
    ),
    "src/UserController.php": (
        "<?php\n\nfinal class UserController\n{\n"
        "    /** Deletes one user (whitelisted). */\n"
        "    #[Route('/{id}', methods: ['DELETE'])]\n"
        "    public function destroy(int $id): void\n    {\n    }\n}\n"
    ),
    "web/card.ts": (
        "/** A card (whitelisted). */\n"
        "@Component({ selector: 'app-card' })\n"
        "export class Card {\n"
        "  @HostListener('click')\n"
        "  onClick(): void {}\n"
        "}\n"
    ),
    "server/server.go": (
        "package server\n\n// Routes lists the routes (whitelisted).\nfunc Routes() int {\n\treturn 1\n}\n"
    ),
}


def workspace(tmp_path: Path) -> Path:
    for rel, text in FILES.items():
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return tmp_path


def symbols(root: Path, pattern: str) -> dict[tuple[str, int], str]:
    entry = every_hit(root, pattern, regex=True)
    return {(hit["file"], hit["line"]): hit["symbol"] for hit in rows(entry)}


def test_decorator_and_attribute_lines_have_the_decorated_symbol(tmp_path: Path) -> None:
    found = symbols(workspace(tmp_path), r"@frappe\.whitelist|#\[Route|@Component|@HostListener")
    assert found == {
        ("api/items.py", 4): "get_items",
        ("src/UserController.php", 6): "UserController::destroy",
        ("web/card.ts", 2): "Card",
        ("web/card.ts", 4): "Card.onClick",
    }


def test_doc_comment_lines_have_the_documented_symbol(tmp_path: Path) -> None:
    found = symbols(workspace(tmp_path), r"whitelisted")
    assert found == {
        ("api/items.py", 6): "get_items",
        ("server/server.go", 3): "Routes",
        ("src/UserController.php", 5): "UserController::destroy",
        ("web/card.ts", 1): "Card",
    }
