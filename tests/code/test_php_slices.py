"""PHP slices: a method with its doc comment and attributes, a class by bare name, an enum, the
`Class.method`, FQCN and leading-backslash spellings, byte-exact text, misses with close names."""

from __future__ import annotations

import pytest

from sofia.providers.contract import ProviderError
from tests.code.conftest import FIXTURES, code
from tests.helpers import run_sf

APP = FIXTURES / "php" / "app"
CONTROLLER = "src/Controller/UserController.php"


def only_slice(path: str, symbol: str) -> dict:
    result = code(APP, path, symbols=[symbol])
    (piece,) = result["files"][0]["slices"]
    return piece


def file_lines(path: str, first: int, last: int) -> str:
    return "".join((APP / path).read_text().splitlines(keepends=True)[first - 1 : last])


@pytest.mark.parametrize(
    "spelling",
    [
        "UserController::destroy",
        "UserController.destroy",
        "App\\Controller\\UserController::destroy",
        "\\App\\Controller\\UserController::destroy",
        "destroy",
    ],
)
def test_method_with_doc_comment_and_attributes(spelling: str, no_passthrough: None) -> None:
    piece = only_slice(CONTROLLER, spelling)
    assert (piece["symbol"], piece["kind"], piece["line"], piece["end_line"]) == (
        "UserController::destroy",
        "method",
        94,
        109,
    )
    assert piece["text"].startswith(
        "    /**\n     * Deletes a user for good; the audit log keeps the trace.\n"
    )
    assert (
        "    #[IsGranted('ROLE_SUPER_ADMIN', message: 'Only super admins may delete users')]\n"
        in piece["text"]
    )
    assert piece["text"] == file_lines(CONTROLLER, 94, 109)


def test_class_by_bare_name_is_the_whole_declaration(no_passthrough: None) -> None:
    piece = only_slice("src/Entity/User.php", "User")
    assert (piece["kind"], piece["line"], piece["end_line"]) == ("class", 14, 116)
    assert piece["text"].startswith("/**\n * A registered customer account.\n */\n#[ORM\\Entity(")
    assert piece["text"] == file_lines("src/Entity/User.php", 14, 116)


def test_enum_by_bare_name(no_passthrough: None) -> None:
    piece = only_slice("src/Enum/Status.php", "Status")
    assert (piece["kind"], piece["line"]) == ("enum", 9)
    assert piece["text"].endswith("    }\n}\n")
    assert "case Active = 'active';" in piece["text"]


def test_several_symbols_and_a_miss_with_close_names(no_passthrough: None) -> None:
    result = code(APP, CONTROLLER, symbols=["show", "UserController::toArary", "cacheKey"])
    doc = result["files"][0]
    assert [s["symbol"] for s in doc["slices"]] == ["UserController::show", "UserController::cacheKey"]
    (miss,) = doc["missing"]
    assert miss["symbol"] == "UserController::toArary"
    assert miss["close"].split(", ")[0] == "UserController::toArray"


def test_all_missing_names_close_and_available(no_passthrough: None) -> None:
    with pytest.raises(ProviderError) as caught:
        code(APP, "src/Enum/Suit.php", symbols=["Suite::colour"])
    assert caught.value.message == "none of the symbols were found in src/Enum/Suit.php: Suite::colour"
    assert "Suit::color" in caught.value.hint
    assert "available: Suit, Suit::color" in caught.value.hint


def test_slice_text_on_the_command_line() -> None:
    done = run_sf("code", CONTROLLER, "UserController::cacheKey", cwd=APP, env={"SOFIA_CODE_RAW_BELOW": "0"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"// --- UserController::cacheKey ({CONTROLLER}:135-138) ---\n" + file_lines(CONTROLLER, 135, 138)
    )
