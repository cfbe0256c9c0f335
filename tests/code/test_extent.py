"""`code` slices a decorated, attributed or documented symbol from its first leading line, names
that line in the slice's range, and still shows the declaration's own line in summaries."""

from __future__ import annotations

from pathlib import Path

from tests.code.conftest import code, document, slice_text

SHOP = '''"""Shop."""

import frappe


class Shop:
    # The price, cached for a minute.
    @property
    @frappe.whitelist()
    def price(self) -> int:
        """The price."""
        return 1

    def other(self) -> int:
        return 2
'''

CONTROLLER = """<?php

final class UserController
{
    /**
     * Deletes one user.
     */
    #[Route('/{id}', methods: ['DELETE'])]
    public function destroy(int $id): void
    {
    }
}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / name).write_text(text)
    return tmp_path


def test_slice_of_a_method_whose_comment_opens_the_class_body(tmp_path: Path, no_passthrough: None) -> None:
    result = code(write(tmp_path, "shop.py", SHOP), "shop.py", symbols=["Shop.price"])
    [piece] = result["files"][0]["slices"]
    assert piece["text"].startswith("    # The price, cached for a minute.\n    @property\n")
    assert (piece["line"], piece["end_line"]) == (7, 12)
    assert "# --- Shop.price (shop.py:7-12) ---" in slice_text(result)


def test_slice_of_an_attributed_php_method_starts_at_its_doc_comment(
    tmp_path: Path, no_passthrough: None
) -> None:
    root = write(tmp_path, "UserController.php", CONTROLLER)
    result = code(root, "UserController.php", symbols=["UserController::destroy"])
    [piece] = result["files"][0]["slices"]
    assert (piece["line"], piece["end_line"]) == (5, 11)
    assert piece["text"].startswith("    /**\n     * Deletes one user.\n")


def test_summary_rows_keep_the_declaration_line(tmp_path: Path, no_passthrough: None) -> None:
    padded = SHOP + "".join(
        f"\n    def method_{i}(self) -> int:\n"
        + f"        total = self.price * {i} + len(str(self.other()))\n" * 6
        + "        return total\n"
        for i in range(20)
    )
    summary = document(code(write(tmp_path, "shop.py", padded), "shop.py"), "shop.py")
    assert summary["mode"] == "summary"
    price = next(row for row in summary["functions"] if row["name"] == "price")
    assert (price["line"], price["end_line"]) == (10, 12)
