"""PHP summaries: the Symfony controller against its golden JSON, Doctrine entities with PHP 8.4
members, enums, readonly classes, multi-class files, interfaces, `exported` and `brief`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sofia.output.budget import cost
from sofia.output.tokens import estimate
from tests.code.conftest import FIXTURES, code, document
from tests.code.summarised import summarised
from tests.helpers import run_sf

APP = FIXTURES / "php" / "app"
GOLDEN = FIXTURES / "php" / "golden" / "UserController.json"
CONTROLLER = "src/Controller/UserController.php"
ENTITY = "src/Entity/User.php"


def summary(path: str, **options: bool) -> dict[str, Any]:
    """The summary of a fixture; small ones are summarised directly (`code` returns them raw)."""
    return summarised(APP, path, **options)


def rows(doc: dict[str, Any], table: str, *keys: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(k, "") for k in keys) for row in doc.get(table, [])]


def test_symfony_controller_matches_its_golden_json(no_passthrough: None) -> None:
    """The exact contract: key order, FQCN relations, attributes, promoted readonly constructor."""
    done = run_sf("code", "--json", CONTROLLER, cwd=APP, env={"SOFIA_CODE_RAW_BELOW": "0"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == GOLDEN.read_text()
    result = json.loads(done.stdout)
    assert result == code(APP, CONTROLLER)


def test_controller_summary_facts(no_passthrough: None) -> None:
    doc = document(code(APP, CONTROLLER), CONTROLLER)
    assert list(doc) == [
        "path", "lang", "mode", "lines", "namespace", "imports", "types", "functions", "ctor", "constants",
    ]  # fmt: skip
    assert doc["namespace"] == "App\\Controller"
    (klass,) = doc["types"]
    assert klass["extends"] == "Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController"
    assert klass["attrs"] == "Route('/api/users', name: 'api_users_'); IsGranted('ROLE_ADMIN')"
    assert klass["mods"] == "final"
    destroy = next(f for f in doc["functions"] if f["name"] == "destroy")
    assert destroy["sig"] == "(int $id): JsonResponse"
    assert destroy["attrs"].startswith("Route('/{id}', name: 'destroy', methods: ['DELETE']); IsGranted(")
    assert (destroy["line"], destroy["end_line"]) == (99, 109)
    assert rows(doc, "ctor", "name", "type", "promoted") == [
        ("users", "UserService", True),
        ("repository", "UserRepositoryInterface", True),
        ("logger", "LoggerInterface", True),
    ]
    assert "__construct" not in [f["name"] for f in doc["functions"]]
    assert rows(doc, "functions", "name", "vis")[-2:] == [("toArray", "private"), ("cacheKey", "private")]
    block = next(f for f in doc["functions"] if f["name"] == "block")
    assert block["sig"] == "(int $id, string $reason = 'Blocked by an administ…): JsonResponse"
    assert rows(doc, "constants", "name", "type", "value") == [
        ("PAGE_SIZE", "int", "50"),
        ("CACHE_PREFIX", "string", "'users.'"),
    ]


def test_doctrine_entity_with_hooks_and_asymmetric_visibility_keeps_every_member(
    no_passthrough: None,
) -> None:
    doc = summary(ENTITY)
    assert "parse_errors" not in doc
    props = {row["name"]: row for row in doc["properties"]}
    assert list(props) == [
        "id", "email", "name", "displayName", "status", "createdAt", "blockedAt", "blockReason", "roles", "instances",
    ]  # fmt: skip
    assert (props["id"]["vis"], props["id"]["mods"]) == ("public", "private(set)")
    assert props["name"]["mods"] == "get set"
    assert props["displayName"]["mods"] == "get"
    assert props["instances"]["mods"] == "static"
    assert props["roles"]["value"] == "['ROLE_USER']"
    assert props["blockedAt"]["vis"] == "protected"
    assert props["id"]["attrs"] == "ORM\\Id; ORM\\Column(type: UuidType::NAME, unique: true)"
    assert doc["types"][0]["attrs"].split("; ")[2] == "ORM\\Index(columns: ['email'], name: 'idx_user_email')"
    assert [f["name"] for f in doc["functions"]] == [
        "getId", "rename", "block", "isBlocked", "getRoles", "grant", "touch",
    ]  # fmt: skip
    assert next(f for f in doc["functions"] if f["name"] == "grant")["sig"] == "(string ...$roles): static"
    assert rows(doc, "ctor", "name", "type") == [("email", "string"), ("name", "string")]
    assert "promoted" not in doc["ctor"][0]


def test_backed_and_pure_enums(no_passthrough: None) -> None:
    status = summary("src/Enum/Status.php")
    assert status["types"][0]["detail"] == "string"
    assert status["types"][0]["implements"] == "App\\Contract\\HasLabel"
    assert rows(status, "cases", "name", "value") == [
        ("Active", "'active'"),
        ("Blocked", "'blocked'"),
        ("Deleted", "'deleted'"),
    ]
    assert rows(status, "constants", "name", "type") == [("DEFAULT", "Status")]
    suit = summary("src/Enum/Suit.php")
    assert [list(row) for row in suit["cases"]] == [["owner", "name"]] * 4
    assert [row["name"] for row in suit["cases"]] == ["Hearts", "Diamonds", "Clubs", "Spades"]


def test_readonly_class_and_its_promoted_constructor(no_passthrough: None) -> None:
    doc = summary("src/ValueObject/Money.php")
    klass = doc["types"][0]
    assert klass["mods"] == "final readonly"
    assert klass["implements"] == "JsonSerializable, Stringable"
    assert rows(doc, "ctor", "name", "type", "promoted") == [
        ("amount", "int", True),
        ("currency", "string", True),
    ]
    assert rows(doc, "functions", "name", "mods", "vis")[0] == ("zero", "static", "public")


def test_first_class_callables_and_pipes_parse_cleanly(no_passthrough: None) -> None:
    doc = summary("src/Service/ReportPipeline.php")
    assert "parse_errors" not in doc
    assert [f["name"] for f in doc["functions"]] == ["lines", "apply", "normalise"]
    assert "function array_map" in doc["imports"]


def test_multi_class_file_lists_every_class(no_passthrough: None) -> None:
    doc = summary("src/Event/UserEvents.php")
    assert rows(doc, "types", "kind", "name", "extends") == [
        ("class", "UserEvent", "Symfony\\Contracts\\EventDispatcher\\Event"),
        ("class", "UserRegistered", "App\\Event\\UserEvent"),
        ("class", "UserBlocked", "App\\Event\\UserEvent"),
        ("interface", "UserEventSubscriber", ""),
    ]
    assert rows(doc, "ctor", "owner", "name", "promoted") == [
        ("UserEvent", "user", True),
        ("UserBlocked", "user", False),
        ("UserBlocked", "reason", True),
    ]


def test_interface_extending_two(no_passthrough: None) -> None:
    doc = summary("src/Repository/UserRepositoryInterface.php")
    assert doc["types"][0]["extends"] == "Doctrine\\Persistence\\ObjectRepository, Countable"
    assert rows(doc, "functions", "name", "sig") == [
        ("findPage", "(int $page, int $size, ?Status $status = null): Page"),
        ("findOneByEmail", "(string $email): ?User"),
    ]


def test_exported_keeps_public_members_and_hints_at_api(no_passthrough: None) -> None:
    result = code(APP, CONTROLLER, exported=True)
    doc = document(result, CONTROLLER)
    assert "private" not in {f.get("vis", "public") for f in doc["functions"]}
    assert [c["name"] for c in doc["constants"]] == ["PAGE_SIZE"]
    assert len(doc["ctor"]) == 3
    assert result["notes"] == [
        "UserController extends AbstractController; call with api=true for the full callable surface"
    ]
    post = summary("src/Model/Post.php", exported=True)
    assert post["notes"] == [
        "Post uses traits HasTimestamps, SoftDeletes; call with api=true for the full callable surface"
    ]


def test_brief_keeps_signatures_and_drops_details(no_passthrough: None) -> None:
    doc = document(code(APP, ENTITY, brief=True), ENTITY)
    assert "properties" not in doc and "imports" not in doc
    assert "attrs" not in doc["types"][0]
    assert ("rename", "(string $name): void") in rows(doc, "functions", "name", "sig")


def test_modern_syntax_never_fails_the_call(tmp_path: Path, no_passthrough: None) -> None:
    """PHP 8.4/8.5: hooks, asymmetric visibility, typed constants, pipes, `new` without parentheses,
    clone with, final promoted properties; members are recovered, errors counted where the grammar fails."""
    (tmp_path / "Modern.php").write_text(
        "<?php\nnamespace App;\n\nfinal class Modern\n{\n"
        "    public const string VERSION = '8.5';\n"
        "    public protected(set) int $count = 0;\n"
        "    public private(set) ?string $label = null { set => strtoupper($value); }\n"
        "    public function __construct(final public readonly int $id = 1) {}\n"
        "    #[\\NoDiscard]\n"
        "    public function make(): static\n    {\n"
        "        $x = new Foo()->bar();\n"
        "        $copy = clone($this, ['count' => 2]);\n"
        "        return 'abc' |> strtoupper(...) |> trim(...);\n    }\n"
        "    public function dnf((A&B)|null $x): (A&B)|C { return $x; }\n}\n"
    )
    doc = summarised(tmp_path, "Modern.php")
    assert [f["name"] for f in doc["functions"]] == ["make", "dnf"]
    assert rows(doc, "properties", "name", "mods") == [
        ("count", "protected(set)"),
        ("label", "private(set) set"),
    ]
    assert rows(doc, "constants", "name", "type") == [("VERSION", "string")]
    assert next(f for f in doc["functions"] if f["name"] == "make")["attrs"] == "\\NoDiscard"
    assert doc.get("parse_errors", 0) <= 2


def test_namespaces_group_uses_and_top_level_functions(tmp_path: Path, no_passthrough: None) -> None:
    (tmp_path / "helpers.php").write_text(
        "<?php\nnamespace App\\Support;\n\n"
        "use App\\Models\\{User, Post as Article};\nuse function App\\Fn\\{tap, pipe as chain};\n"
        "use const PHP_EOL;\n\n"
        "const DEFAULT_LOCALE = 'en';\n\n"
        "if (!function_exists('App\\Support\\format_name')) {\n"
        "    function format_name(User $user, string $glue = ' '): string\n    {\n"
        "        return $user->first . $glue . $user->last;\n    }\n}\n\n"
        "namespace App\\Other;\n\nclass Extra extends Base {}\n"
    )
    doc = summarised(tmp_path, "helpers.php")
    assert doc["imports"] == [
        "App\\Models\\User",
        "App\\Models\\Post as Article",
        "function App\\Fn\\tap",
        "function App\\Fn\\pipe as chain",
        "const PHP_EOL",
    ]
    assert doc["namespace"] == "App\\Support"
    assert rows(doc, "functions", "owner", "name", "sig") == [
        ("", "format_name", "(User $user, string $glue = ' '): string")
    ]
    assert rows(doc, "types", "name", "extends") == [("App\\Other\\Extra", "App\\Other\\Base")]
    assert rows(doc, "constants", "owner", "name", "value") == [("", "DEFAULT_LOCALE", "'en'")]


@pytest.mark.parametrize("path", sorted(str(p.relative_to(APP)) for p in APP.rglob("*.php")))
def test_code_never_returns_more_than_the_file(path: str, no_passthrough: None) -> None:
    """Summary when smaller, else the file itself: never above 1.0x."""
    doc = document(code(APP, path), path)
    if doc["mode"] == "summary":
        assert cost(doc) < estimate((APP / path).read_bytes())
    else:
        assert (doc["mode"], doc["reason"]) == ("raw", "summary_not_smaller")
        assert cost(summary(path)) >= estimate((APP / path).read_bytes())
