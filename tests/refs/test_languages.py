"""Each language's fixture: a definition, calls, instantiation, inheritance, imports with and
without alias, type uses, the name in comments and strings, a same-named member of an unrelated
class and a shadowing local — each classified, exact and name matches apart."""

from __future__ import annotations

from tests.refs.conftest import FIXTURES, accounted, entry, refs, rows, uses

PHP = FIXTURES / "php"
PY = FIXTURES / "python"
TS = FIXTURES / "ts"
GO = FIXTURES / "go"
VUE = FIXTURES / "vue"


def test_php_method_qualified_by_class() -> None:
    item = entry(refs(PHP, "UserController::destroy"), "UserController::destroy")
    assert [d["qname"] for d in item["definitions"]] == ["UserController::destroy"]
    assert item["definitions"][0]["sig"] == "public function destroy(int $id): void"
    admin, user, jobs = "src/Http/AdminController.php", "src/Http/UserController.php", "src/Jobs/Cleanup.php"
    assert uses(item) == {
        (user, 16, "call", "exact"),  # $this->
        (user, 17, "call", "exact"),  # self::
        (admin, 9, "call", "exact"),  # $this-> in a subclass
        (admin, 10, "call", "exact"),  # parent::
        (jobs, 12, "call", "exact"),  # (new Users())-> through the alias
        (jobs, 13, "call", "exact"),  # Users::
        (jobs, 15, "call", "exact"),  # $c = new UserController()
        (jobs, 17, "call", "exact"),  # a parameter typed UserController
        (jobs, 16, "call", "name"),  # unknown receiver
    }
    totals = item["totals"]
    assert (totals["exact"], totals["name"]) == (8, 1)
    assert totals["in_comments"] == 3 and totals["in_strings"] == 1 and totals["locals"] == 1
    # Order::destroy and its own $this->destroy(): Order is unrelated, which can be told because
    # UserController's whole chain (App\Base\Controller) is in files that mention the name.
    assert totals["elsewhere"] == 2
    assert accounted(item) == totals["text"] == 17
    assert rows(item, "exact")[0]["in"] == "AdminController::purge"
    assert [row["file"] for row in rows(item, "exact")[:3]] == [
        "src/Http/AdminController.php",
        "src/Http/AdminController.php",
        "src/Http/UserController.php",
    ]


def test_php_class_through_imports_and_alias() -> None:
    item = entry(refs(PHP, "App\\Http\\UserController"), "App\\Http\\UserController")
    jobs = "src/Jobs/Cleanup.php"
    assert uses(item) == {
        ("src/Http/AdminController.php", 5, "extends", "exact"),
        (jobs, 5, "import", "exact"),
        (jobs, 6, "import", "exact"),
        (jobs, 10, "type", "exact"),
        (jobs, 12, "new", "exact"),  # new Users()
        (jobs, 13, "reference", "exact"),  # Users::
        (jobs, 14, "new", "exact"),
    }
    assert item["kinds"] == {"extends": 1, "import": 2, "new": 2, "reference": 1, "type": 2}


def test_python_method_and_class() -> None:
    result = refs(PY, "Repo.fetch", "Repo")
    method = entry(result, "Repo.fetch")
    models, service = "pkg/models.py", "pkg/service.py"
    assert uses(method) == {
        (models, 12, "call", "exact"),  # self.fetch
        (models, 13, "call", "exact"),  # Repo.fetch(self, ...)
        (service, 8, "call", "exact"),  # r = R(); r.fetch
        (service, 9, "call", "exact"),  # models.Repo().fetch
        (service, 21, "call", "exact"),  # self.fetch in a subclass of the alias
        (service, 22, "call", "exact"),  # super().fetch
        (service, 10, "call", "name"),  # unknown receiver
    }
    assert method["totals"]["elsewhere"] == 2  # Other.fetch and Other().fetch()
    assert method["totals"]["locals"] == 2  # the parameter `fetch` and its use
    assert method["totals"]["in_comments"] == 1
    assert accounted(method) == method["totals"]["text"]
    cls = entry(result, "Repo")
    assert uses(cls) == {
        (models, 13, "reference", "exact"),
        (service, 3, "import", "exact"),
        (service, 6, "type", "exact"),  # repo: R (alias)
        (service, 6, "type", "exact"),
        (service, 7, "new", "exact"),  # R()
        (service, 9, "new", "exact"),  # models.Repo()
        (service, 19, "extends", "exact"),  # class Child(R)
    }
    assert cls["totals"]["uses"] == 7  # alias uses are uses though their text differs


def test_typescript_method_function_and_ambiguity() -> None:
    result = refs(TS, "Api.get", "get")
    method = entry(result, "Api.get")
    client = "src/client.ts"
    assert uses(method) == {
        (client, 7, "call", "exact"),
        (client, 8, "call", "exact"),
        (client, 9, "call", "exact"),
    }
    assert method["totals"]["elsewhere"] == 6  # function get, its import and calls, Store.get and its call
    bare = entry(result, "get")
    assert sorted(d["qname"] for d in bare["definitions"]) == ["Api.get", "Store.get", "get"]
    assert (client, 10, "call", "exact") in uses(bare)  # fetchUser() through the import alias
    assert (client, 11, "call", "exact") in uses(bare)  # api.get() through the namespace import
    assert any("get is defined 3 times" in note and "qualify it" in note for note in result["notes"])
    assert bare["totals"]["locals"] == 2 and bare["totals"]["in_strings"] == 1


def test_typescript_class_uses() -> None:
    item = entry(refs(TS, "Api"), "Api")
    kinds = {row[2] for row in uses(item)}
    assert kinds == {"type", "new", "import", "extends"}
    assert all(row[3] == "exact" for row in uses(item))


def test_go_method_through_package_alias_and_typed_variables() -> None:
    item = entry(refs(GO, "(*Server).Routes"), "(*Server).Routes")
    main = "cmd/main.go"
    assert uses(item) == {
        ("api/server.go", 16, "call", "exact"),  # the receiver s
        (main, 15, "call", "exact"),  # var s srv.Server
        (main, 17, "call", "exact"),  # x := &srv.Server{}
        (main, 25, "call", "exact"),  # p *srv.Server
        (main, 26, "call", "name"),  # an interface value
    }
    assert item["totals"]["elsewhere"] == 3  # other.Routes, its r.Routes() and the interface method
    assert item["totals"]["locals"] == 2
    assert item["totals"]["in_strings"] == 1 and item["totals"]["in_comments"] == 1


def test_go_package_qualified_type() -> None:
    item = entry(refs(GO, "api.Server"), "api.Server")
    assert ("cmd/main.go", 16, "new", "exact") in uses(item)
    assert ("cmd/main.go", 14, "type", "exact") in uses(item)
    assert item["definitions"][0]["kind"] == "struct"


def test_vue_component_tags_in_both_spellings() -> None:
    item = entry(refs(VUE, "UserBadge"), "UserBadge")
    page = "src/views/ProfilePage.vue"
    assert item["definitions"][0]["file"] == "src/components/UserBadge.vue"
    assert item["definitions"][0]["kind"] == "component"
    assert uses(item) == {(page, 2, "import", "exact"), (page, 8, "tag", "exact"), (page, 9, "tag", "exact")}
    assert (
        item["totals"]["in_strings"] == 5
    )  # a string, template text, a class attribute, CSS, the import path
    assert item["totals"]["other"] == 1  # the closing tag
